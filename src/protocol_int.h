/*
 * protocol_int.h - what the protocol modules share: the Proto state (one per
 * session, owned by protocol_run) and the functions protocol.c calls in
 * protocol_options.c and protocol_out.c. Not for use outside src/protocol*.c.
 */
#ifndef XQ_PROTOCOL_INT_H
#define XQ_PROTOCOL_INT_H

#include <stdatomic.h>

#include "input.h"
#include "protocol.h"

typedef enum OptId {
    OPT_HASH, OPT_THREADS, OPT_CLEAR_HASH, OPT_PONDER, OPT_MULTIPV, OPT_MOVE_OVERHEAD, OPT_RULES,
    OPT_USEMILLISEC, OPT_BATCH, OPT_DEBUG, OPT_USEBOOK, OPT_BOOKFILES, OPT_IDLE, OPT_PRUNING,
    OPT_KNOWLEDGE, OPT_RANDOMNESS, OPT_PROMOTION, OPT_NEWGAME, OPT_EVALFILE, OPT_USE_NNUE,
    OPT_SHOW_WDL, OPT_LIMIT_STRENGTH, OPT_ELO, OPT_SKILL, OPT_COUNT
} OptId;

enum { BOOKFILES_MAX = 512, EVALFILE_MAX = 512 };

/* One protocol session. */
typedef struct Proto {
    Engine *engine;
    Output out;
    InputQueue input;
    Dialect dialect;         /* chosen by the last uci/ucci */
    Dialect search_dialect;  /* dialect when the running search started */
    int64_t value[OPT_COUNT];/* current value of each spin/check/combo option */
    char bookfiles[BOOKFILES_MAX];
    char evalfile[EVALFILE_MAX]; /* EvalFile as last set successfully ("" = the built-in net) */
    ProtocolLimits lim;      /* caps for in-process runs (all 0 for the engine binary) */
    atomic_int hopeless;     /* consecutive searches of this game that scored a clear loss (UCCI resign) */
    bool quit;
} Proto;

/* Sets every option to its default and pushes the engine-relevant ones to the engine. */
void opt_init(Proto *p);
/* Prints the option lines of the current dialect. */
void opt_print(Proto *p);
/* Starts a new game (ucinewgame, UCCI's setoption newgame): engine_new_game and a fresh resign count. */
void proto_new_game(Proto *p);
/* Applies `setoption`; unknown names are ignored; bad values leave the old value (info string error). */
void opt_set(Proto *p, const char *name, const char *value);

/* Prints the handshake block (id, options, uciok/ucciok) of the current dialect. */
void out_handshake(Proto *p);
/* Prints an "info string ..." line. */
void out_info_string(Proto *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Search-thread callback: one progress report in the search's dialect. */
void out_report(void *ctx, const Position *root, const SearchReport *r);
/* Search-thread callback: "info currmove M currmovenumber N". */
void out_currmove(void *ctx, Move move, int number);
/* Search-thread callback: the bestmove line, then wakes the protocol thread. */
void out_bestmove(void *ctx, const EngineResult *res);
/* Prints the board, FEN and key of a position (`d`). */
void out_board(Proto *p, const Position *pos);
/* Prints a pophash line for `probe`. */
void out_pophash(Proto *p, bool found, const TTEntry *entry);
/* Converts an engine score to the UCCI convention (ElephantEye's +-10000 mates). */
int score_to_ucci(int score);

#endif
