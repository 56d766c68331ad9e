/*
 * protocol_int.h - what the protocol modules share. Not for use outside src/protocol*.c.
 *
 * The layer is one front-end per dialect over the engine facade (engine.h):
 * protocol_uci.c and protocol_ucci.c (their commands share one grammar,
 * protocol_parse.c, and one executor, protocol_exec.c, because GUIs mix the
 * two) and protocol_cecp.c (XBoard's protocol, with its output in
 * protocol_cecp_out.c), each a Frontend. What every front-end uses is common: the session and
 * its reader/deferred-command loop (protocol.c), tokens and numbers
 * (protocol_tok.c), the option table (protocol_options.c) and serialised
 * output (protocol_out.c).
 */
#ifndef XQ_PROTOCOL_INT_H
#define XQ_PROTOCOL_INT_H

#include <stdatomic.h>

#include "input.h"
#include "protocol.h"
#include "version.h"

typedef enum OptId {
    OPT_HASH, OPT_THREADS, OPT_CLEAR_HASH, OPT_PONDER, OPT_MULTIPV, OPT_MOVE_OVERHEAD, OPT_RULES,
    OPT_USEMILLISEC, OPT_BATCH, OPT_DEBUG, OPT_USEBOOK, OPT_BOOKFILES, OPT_BOOK_SEED, OPT_IDLE, OPT_PRUNING,
    OPT_KNOWLEDGE, OPT_RANDOMNESS, OPT_PROMOTION, OPT_NEWGAME, OPT_EVALFILE, OPT_USE_NNUE, OPT_UCI_VARIANT,
    OPT_SHOW_WDL, OPT_LIMIT_STRENGTH, OPT_ELO, OPT_SKILL, OPT_EGTB_PATH, OPT_USE_EGTB, OPT_EGTB_PROBE_LIMIT,
    OPT_COUNT
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

extern const Frontend FRONTEND_UCI, FRONTEND_UCCI, FRONTEND_CECP;

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
    bool quit;
};

/* protocol.c: the session. */
/* Chooses the front-end for a handshake word and lets it print its handshake. */
void proto_select(Proto *p, const Frontend *fe);
/* Starts a new game (ucinewgame, UCCI's setoption newgame): engine_new_game and a fresh resign count. */
void proto_new_game(Proto *p);
/* Stops any search, waits for it and marks the session as ended (with the dialect's goodbye). */
void proto_quit(Proto *p);
/* Should the side to move resign after this result (a mate found against it, or a lost streak)? Updates
 * the streak; call once per finished search that played a move. */
bool proto_resign_due(Proto *p, const EngineResult *res);
/* Would the side to move accept an offered draw after this result (it stands no better than about even)? */
bool proto_draw_acceptable(const EngineResult *res);

/* protocol_exec.c: the UCI-family line handler (both UCI and UCCI front-ends use it). */
LineOutcome ucix_line(Proto *p, const char *line, const LineContext *ctx);
/* Is a UCI-family search running (lines wait for it)? */
bool ucix_busy(Proto *p);

/* protocol_tok.c: joins tok[from, to) with single spaces into a new string (NULL if out of memory). */
char *tokens_join(char *const *tok, int from, int to);
/* Splits a line into whitespace-separated tokens: *buf and *tok are malloc'd; false if out of memory. */
bool tokens_split(const char *line, char **buf, char ***tok, int *n_tok);

/* protocol_options.c: the option table. */
/* How one option looks in one dialect (opt_view). */
typedef struct OptView {
    OptId id;
    const char *name;         /* the name shown in that dialect */
    const char *type;         /* spin, check, button, combo, string */
    int64_t min, max, def;    /* spin range and default; check default (0/1) */
    const char *def_text;     /* check: true/false; combo: the default value; string: the default text */
    const char *const *vars;  /* combo values (NULL-terminated) */
} OptView;
/* Describes option number i (0..OPT_COUNT-1) as shown in dialect d; false when d does not show it. */
bool opt_view(int i, Dialect d, OptView *out);
/* Appends " var V" for each value of a combo option to line at *n, the default first. */
void opt_append_vars(const OptView *v, char *line, size_t size, size_t *n);
/* Is there an option of this name (as opt_set matches names)? */
bool opt_exists(const char *name);
/* Sets every option to its default and pushes the engine-relevant ones to the engine. */
void opt_init(Proto *p);
/* Applies `setoption`; unknown names are ignored; bad values leave the old value (message error). */
void opt_set(Proto *p, const char *name, const char *value);
/* Loads the tablebases of a directory ("" or "<empty>": none), telling the user what was loaded. */
void opt_set_tb_path(Proto *p, const char *value);

/* protocol_out.c: output. */
/* The one sanitiser of echoed text: copies src into dst with control characters escaped as \xHH (TAB kept
 * when keep_tab); out_line and out_info_string pass everything they print through it. */
void out_clean(char *dst, size_t size, const char *src, bool keep_tab);
/* Masks each of the lowercase words (NULL-terminated list), in any case, in free text ("d*aw"). */
void out_mask_words(char *s, const char *const *words);
/* Prints a notice or error for the user through the current front-end ("info string ..." and the like). */
void out_info_string(Proto *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends formatted text to buf at *n (truncating safely). */
void out_append(char *buf, size_t size, size_t *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Search-thread callback of UCI and UCCI: "info currmove M currmovenumber N". */
void out_currmove(Proto *p, Move move, int number);
/* Writes " m1 m2 ..." (the checked PV of a report) into buf; "" for an empty PV. */
void out_pv_text(const SearchReport *r, char *buf, size_t size);
/* Prints the board, FEN and key of a position (`d`). */
void out_board(Proto *p, const Position *pos);

/* protocol_cecp_out.c: what the CECP front-end writes. */
/* Initialises the CECP state (the session's start: force mode, level 40 5 0, post off). */
void cecp_init(Cecp *c);
/* Prints the feature lines of `protover` (features, the options, done=1). */
void cecp_features(Proto *p);
/* Search-thread callback: thinking output "ply score time nodes seldepth nps tbhits<TAB>pv". */
void cecp_report(Proto *p, const Position *root, const SearchReport *r);
/* A notice ("# text") or an error ("tellusererror text" for text starting "error: "). */
void cecp_message(Proto *p, const char *text);
/* Search-thread callback: a thinking line "0 weight 0 0 0 0 0<TAB>move" per book move, while post is on. */
void cecp_book(Proto *p, const BookMove *moves, int n, Move chosen);
/* `bk`: the book moves of the game's position with their shares, then an empty line. */
void cecp_bk(Proto *p);
/* Writes why the rules ended the game ("red is checkmated", "black checks perpetually") into buf. */
void cecp_reason(const RulesReport *r, int loser, bool in_check, char *buf, size_t size);

/* protocol_ucci.c: what the UCI-family executor prints in UCCI's forms. */
/* Prints a pophash line for `probe`. */
void out_pophash(Proto *p, bool found, const TTEntry *entry);
/* Converts an engine score to the UCCI convention (ElephantEye's +-10000 mates). */
int score_to_ucci(int score);

#define ENGINE_AUTHOR "the " XQ_NAME " developers" /* id author (UCI), id copyright (UCCI) */

enum { LINE_MAX_OUT = 1000 }; /* every line stays below this (UCI2WB's buffer) */

#endif
