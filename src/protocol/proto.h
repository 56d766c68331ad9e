/*
 * proto.h - the protocol layer's types, below all its modules: the session
 * (Proto) with its option values and CECP state, a dialect's front-end
 * (Frontend), what the loop and a front-end tell each other about a line, the
 * serialised output and the caps of in-process runs. Types and constants only;
 * each module's functions are in its own header. Not for use outside
 * src/protocol/.
 *
 * The layer is one front-end per dialect over the engine facade (engine.h):
 * protocol_uci.c and protocol_ucci.c (their commands share one grammar,
 * protocol_parse.c, and one executor, protocol_exec.c, because GUIs mix the
 * two) and protocol_cecp.c (XBoard's protocol, with its output in
 * protocol_cecp_out.c), each a Frontend. Below them: tokens and numbers
 * (protocol_tok.c), serialised output (protocol_out.c, protocol_ucci_out.c),
 * what every dialect does about a game (protocol_session.c) and the option
 * table (protocol_options.c). On top: the reader/deferred-command loop
 * (protocol.c), which switches front-ends when a handshake word asks.
 */
#ifndef XQ_PROTO_H
#define XQ_PROTO_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine/engine.h"
#include "input.h"
#include "engine/version.h"

typedef enum Dialect { DIALECT_UCI = 0, DIALECT_UCCI = 1, DIALECT_CECP = 2 } Dialect;

/* Serialised, flushed line output shared by the protocol and search threads. */
typedef struct Output {
    FILE *f;
    pthread_mutex_t lock;
} Output;

/* Caps for running the protocol in-process on untrusted scripts (fuzzing, soak tests); 0 = no cap. */
typedef struct ProtocolLimits {
    uint64_t max_nodes;   /* every go searches at most this many nodes (infinite/ponder still wait for stop) */
    int max_perft;        /* deepest `go perft` */
    int max_hash_mb;      /* largest hash `setoption` may ask for */
    int max_threads;      /* most search threads `setoption` may ask for */
    bool finite_input;    /* `in` ends by itself (a file, a memory buffer): on return, wait for the
                             reader thread and free everything, so the call can be repeated */
} ProtocolLimits;

typedef enum OptId {
    OPT_HASH, OPT_THREADS, OPT_CLEAR_HASH, OPT_PONDER, OPT_MULTIPV, OPT_MOVE_OVERHEAD, OPT_RULES,
    OPT_USEMILLISEC, OPT_BATCH, OPT_DEBUG, OPT_USEBOOK, OPT_BOOKFILES, OPT_BOOK_SEED, OPT_IDLE, OPT_PRUNING,
    OPT_KNOWLEDGE, OPT_RANDOMNESS, OPT_PROMOTION, OPT_NEWGAME, OPT_EVALFILE, OPT_USE_NNUE, OPT_UCI_VARIANT,
    OPT_SHOW_WDL, OPT_LIMIT_STRENGTH, OPT_ELO, OPT_SKILL, OPT_EGTB_PATH, OPT_USE_EGTB, OPT_EGTB_PROBE_LIMIT,
    OPT_SEARCH_FIRST, /* the search's tunable constants (search_params.h), a tuning build's options only */
    OPT_COUNT = OPT_SEARCH_FIRST + SEARCH_PARAM_COUNT
} OptId;

enum { BOOKFILES_MAX = 512, EVALFILE_MAX = 512 };

typedef struct Proto Proto;

/* What a front-end did with a line the loop handed it. */
typedef enum LineOutcome {
    LINE_DONE,         /* executed (or answered) now */
    LINE_DEFER,        /* keep it until the front-end is no longer busy */
    LINE_DEFER_SEARCH, /* the same, and when it runs it starts a search */
} LineOutcome;

/* What the loop tells a front-end about a line. */
typedef struct LineContext {
    bool was_deferred;      /* the line waited in the deferred queue */
    int deferred_searches;  /* lines still deferred that start a search (after this one) */
} LineContext;

/* One dialect's front-end. */
typedef struct Frontend {
    Dialect dialect;
    /* Handles one input line: runs it now, or asks the loop to defer it. */
    LineOutcome (*line)(Proto *p, const char *line, const LineContext *ctx);
    /* Must lines wait now (a search runs that they may not disturb)? */
    bool (*busy)(Proto *p);
    /* Called when this front-end is chosen by its handshake word (prints the handshake). */
    void (*enter)(Proto *p);
    /* A notice or an error for the user, in the dialect's form ("info string ..."). */
    void (*message)(Proto *p, const char *text);
    /* Search thread: one progress report of a search this front-end started. */
    void (*report)(Proto *p, const Position *root, const SearchReport *r);
    /* Search thread: the root move being searched (a search older than a second); NULL: not shown. */
    void (*currmove)(Proto *p, Move move, int number);
    /* Search thread: the result (after the wake); NULL: nothing is printed there. */
    void (*bestmove)(Proto *p, const EngineResult *res);
    /* Protocol thread, after the search thread was joined (p->result holds its result); may be NULL. */
    void (*search_done)(Proto *p);
    /* Search thread: a go answered from the book, its book moves and the choice (before bestmove); may be NULL. */
    void (*book)(Proto *p, const BookMove *moves, int n, Move chosen);
    /* The dialect's answers where the UCI-family executor needs them (NULL: nothing). */
    const char *no_move;    /* a go that cannot search */
    const char *idle_stop;  /* stop while no search runs */
    const char *bye;        /* quit */
    bool depth0_no_search;  /* go depth 0 answers no_move without searching (UCCI) */
} Frontend;

/* What the running CECP search is for. */
typedef enum CecpSearch { CECP_IDLE, CECP_THINK, CECP_PONDER, CECP_ANALYZE } CecpSearch;

enum { CECP_NONE = -1 }; /* Cecp.engine_side in force mode: the engine plays neither side */

/* The CECP session state (protocol thread only, except post and all_lines). */
typedef struct Cecp {
    int engine_side;         /* RED or BLACK, the side the engine plays; CECP_NONE: force mode */
    bool analyze;            /* analyze mode */
    bool computer;           /* the opponent is an engine: claim only results XBoard can verify */
    bool draw_offered;       /* the opponent offered a draw since the engine's last move */
    bool comments;           /* "# ..." lines are safe (feature debug=1 not rejected) */
    atomic_bool post;        /* thinking output on (read by the search thread) */
    atomic_bool all_lines;   /* the running search shows every MultiPV line (analysis), else only the first */
    CecpSearch search;       /* what the running search is for */
    bool discard;            /* the running search's result is not wanted */
    Move guess;              /* CECP_PONDER: the opponent's move guessed and played onto the game */
    int mps;                 /* level: moves per session (0 = the whole game) */
    int level_move;          /* the move number the session's move count starts from */
    int64_t base_ms, inc_ms; /* level: base time and increment */
    int64_t st_ms;           /* st: fixed time per move (0 = none) */
    int sd;                  /* sd: depth limit (0 = none) */
    int64_t time_ms, otim_ms;/* the engine's and the opponent's clocks from time/otim (-1 = not given) */
    int64_t think_start_ms;  /* when the running thinking search started */
} Cecp;

/* One protocol session. */
struct Proto {
    Engine *engine;
    Output out;
    InputQueue input;
    const Frontend *fe;         /* chosen by the last handshake word */
    const Frontend *search_fe;  /* the front-end that started the running search */
    EngineResult result;        /* the last search's result (written by the search thread before its wake) */
    int64_t value[OPT_COUNT];   /* current value of each spin/check/combo option */
    char bookfiles[BOOKFILES_MAX];
    char evalfile[EVALFILE_MAX]; /* EvalFile as last set successfully ("" = the built-in net) */
    ProtocolLimits lim;         /* caps for in-process runs (all 0 for the engine binary) */
    atomic_int hopeless;        /* consecutive searches of this game that scored a clear loss (resign) */
    Cecp cecp;                  /* the XBoard protocol's state (protocol_cecp.c) */
    bool eof;                   /* the input has ended: no new searches of the engine's own accord */
    bool switch_pending;        /* a handshake word asked for the dialect switch_to: the loop switches after the line */
    Dialect switch_to;
    bool quit;
};

#define ENGINE_AUTHOR "the " XQ_NAME " developers" /* id author (UCI), id copyright (UCCI) */

/* The error for a search that waits for stop where searches run in the caller (protocol_open): no stop could
 * reach it. */
#define PROTO_ONE_THREAD_GO "this build has one thread, so a search that waits for stop (go infinite, go ponder, " \
                            "a go without limits, analyze) could never be stopped; give depth, nodes, movetime " \
                            "or a clock"

enum { LINE_MAX_OUT = 1000 }; /* every line stays below this (UCI2WB's buffer) */

#endif
