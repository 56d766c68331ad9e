/*
 * protocol_parse.h - one grammar for the UCI and UCCI commands (GUIs mix the two
 * dialects): a line parsed into a Command, every keyword of a `go`.
 */
#ifndef XQ_PROTOCOL_PARSE_H
#define XQ_PROTOCOL_PARSE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

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
    int unknown_at, n_unknown;                      /* the first word that is no keyword (0: none), how many */
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

#endif
