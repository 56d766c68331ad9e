/*
 * protocol.h - UCCI, the xiangqi UCI dialect (Pikafish's "UCI-Cyclone") and
 * the XBoard protocol (CECP v2) in one engine.
 *
 * protocol_run reads lines and hands each to the front-end of the dialect
 * chosen by the last handshake word (`uci`, `ucci`, `xboard`): protocol_uci.c,
 * protocol_ucci.c and protocol_cecp.c over the engine facade (engine.h); protocol_int.h says how
 * the modules divide the work. protocol_parse turns one UCI-family line into
 * a Command without side effects: tokens split on any whitespace (tabs,
 * double spaces, '\r'), command words and keywords case-insensitive, numbers
 * range-checked.
 */
#ifndef XQ_PROTOCOL_H
#define XQ_PROTOCOL_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

typedef enum Dialect { DIALECT_UCI = 0, DIALECT_UCCI = 1, DIALECT_CECP = 2 } Dialect;

typedef enum CmdType {
    CMD_EMPTY,      /* blank line */
    CMD_UNKNOWN,
    CMD_UCI,
    CMD_UCCI,
    CMD_XBOARD,     /* the CECP handshake word: the session switches to CECP */
    CMD_ISREADY,
    CMD_SETOPTION,
    CMD_NEWGAME,    /* ucinewgame, uccinewgame, uxinewgame, newgame */
    CMD_POSITION,   /* also bare "fen ..." / "startpos ..." */
    CMD_BANMOVES,
    CMD_GO,
    CMD_PERFT,      /* go perft N */
    CMD_PONDERHIT,
    CMD_STOP,
    CMD_PROBE,
    CMD_QUIT,
    CMD_DISPLAY,    /* d */
} CmdType;

enum { ABSENT = INT_MIN }; /* below every value the parser accepts (a clock of -1 is a clock) */

/* The keywords of a `go`, in either dialect; ABSENT where not given. Times as given (UCCI unit unresolved). */
typedef struct GoArgs {
    bool ponder, draw, infinite;
    int depth, mate, movestogo, perft;
    int64_t nodes, movetime;
    int64_t time, increment, opptime, oppincrement; /* UCCI */
    int64_t wtime, btime, winc, binc;               /* UCI */
    int searchmoves_at, n_searchmoves;              /* token range of searchmoves */
} GoArgs;

typedef struct Command {
    CmdType type;
    char *buf;          /* owned copy of the line, split into tokens */
    char **tok;         /* owned token array */
    int n_tok;
    char error[200];    /* non-empty: the line is malformed; nothing is to be applied */
    /* position / probe */
    bool startpos;
    char *fen;          /* owned, or NULL for startpos */
    int moves_at, n_moves; /* token range of the move list */
    /* setoption */
    char *opt_name;     /* owned, as given (spaces kept) */
    char *opt_value;    /* owned, or NULL when no value was given */
    /* go */
    GoArgs go;
    bool ponderhit_draw;
    /* banmoves */
    int ban_at, n_ban;
} Command;

/* Parses one line into cmd (which must be freed with command_free). Never fails hard. */
void protocol_parse(const char *line, Command *cmd);
/* Frees what protocol_parse allocated. */
void command_free(Command *cmd);
/* Range-checked integer parse of a whole token. */
bool parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
/* Case-insensitive ASCII string equality. */
bool str_ieq(const char *a, const char *b);

/* Serialised, flushed line output shared by the protocol and search threads. */
typedef struct Output {
    FILE *f;
    pthread_mutex_t lock;
} Output;

/* Writes one formatted line (a newline is added) and flushes. */
void out_line(Output *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Runs the protocol loop on in/out until quit or end of input; returns an exit status. */
int protocol_run(FILE *in, FILE *out);

/* Caps for running the protocol in-process on untrusted scripts (fuzzing, soak tests); 0 = no cap. */
typedef struct ProtocolLimits {
    uint64_t max_nodes;   /* every go searches at most this many nodes (infinite/ponder still wait for stop) */
    int max_perft;        /* deepest `go perft` */
    int max_hash_mb;      /* largest hash `setoption` may ask for */
    int max_threads;      /* most search threads `setoption` may ask for */
    bool finite_input;    /* `in` ends by itself (a file, a memory buffer): on return, wait for the
                             reader thread and free everything, so the call can be repeated */
} ProtocolLimits;

/* protocol_run under caps (lim may be NULL: none, stdin-like input). */
int protocol_run_limited(FILE *in, FILE *out, const ProtocolLimits *lim);

#endif
