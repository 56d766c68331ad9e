/*
 * engine.h - the engine facade between the protocol and the search.
 *
 * An Engine owns the root Position (with the game history the repetition
 * rules need), the banned root moves, the transposition table, the options
 * that matter to searching, and the search threads (a ThreadPool). The
 * protocol layer calls it from one thread only; the search runs on a pthread
 * the Engine creates (the pool's thread 0, which alone reports, through
 * callbacks that therefore run on that thread) and the pool's helpers.
 *
 * engine_set_position is all-or-nothing: the FEN and every move are checked
 * on a scratch position first; on any error the root is left as it was and
 * the engine is marked as having no valid position, so `go` answers "no move".
 */
#ifndef XQ_ENGINE_H
#define XQ_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "book/book.h"
#include "eval/nnue/nnue.h"
#include "board/position.h"
#include "rules/rules.h"
#include "search/search.h"
#include "search/threadpool.h"
#include "search/timeman.h"
#include "search/tt.h"

enum { ENGINE_THREADS_MAX = POOL_MAX_THREADS }; /* search threads the engine uses (the Threads option's range) */

/* A finished search, as handed to the bestmove callback. */
typedef struct EngineResult {
    Move best;             /* legal in the root, or MOVE_NONE (no legal move / no valid position) */
    Move ponder;           /* legal reply to best, or MOVE_NONE */
    int score;             /* side to move's view, score.h bands */
    int depth;
    uint64_t nodes;
    int64_t time_ms;
    bool searched;         /* false when nothing was searched (no position, depth 0) */
    bool draw_offered;     /* the opponent offered a draw (go draw / ponderhit draw) */
    bool rule_draw;        /* the position after best is a draw by the rules in force (a claim) */
    bool in_check;         /* the side to move is in check (for "no move" reports) */
    bool book;             /* best is a book move (nothing was searched; see engine_book.h) */
} EngineResult;

/* Callbacks run on the search thread; ctx is EngineCallbacks.ctx. */
typedef struct EngineCallbacks {
    void (*info)(void *ctx, const Position *root, const SearchReport *report); /* PV already checked */
    void (*bestmove)(void *ctx, const EngineResult *result);
    void *ctx;
    void (*currmove)(void *ctx, Move move, int number); /* may be NULL: root move announcements */
    /* a go answered from the book: its book moves (heaviest first) and the one chosen, before bestmove */
    void (*book)(void *ctx, const Position *root, const BookMove *moves, int n, Move chosen);
    /* engine_perft: one root move's leaf count (may be NULL), then the total, complete false after a stop */
    void (*perft_move)(void *ctx, Move move, uint64_t nodes);
    void (*perft_done)(void *ctx, uint64_t nodes, bool complete);
} EngineCallbacks;

/* A fully resolved `go` (the protocol converts text and units). */
typedef struct EngineGo {
    int depth;              /* 0 = no depth limit; < 0 = "depth 0": no search, no move */
    uint64_t nodes;         /* 0 = none */
    int mate;               /* 0 = none */
    bool infinite;          /* search until stop */
    bool ponder;            /* go ponder: time runs from ponderhit */
    bool draw_offered;      /* go draw */
    TimeInput time;         /* clock of the side to move (overhead/ponder filled by the engine) */
    int n_searchmoves;      /* > 0: restrict the root to these (distinct legal moves) */
    Move searchmoves[MAX_MOVES];
} EngineGo;

enum { ENGINE_MULTIPV_MAX = MAX_MOVES };

/* Options that change how the engine searches. */
typedef struct EngineOptions {
    int threads;            /* search threads in use (engine_set_threads) */
    int multipv;            /* lines to search and report (1..ENGINE_MULTIPV_MAX) */
    bool ponder;            /* pondering enabled in the GUI (time allocation) */
    int move_overhead_ms;
    const struct RuleSet *rules; /* the rule set in force (rules.h; never NULL) */
    bool use_nnue;          /* evaluate with the network (engine_set_use_nnue) */
    int level_centi;        /* strength level in hundredths (strength.h); SKILL_MAX * SKILL_CENTI = full */
    int randomness;         /* UCCI randomness 0 (none) .. 5 (huge) */
    bool tb_use;            /* probe the loaded endgame tablebases (UCCI useegtb) */
    int tb_probe_limit;     /* probe positions of at most this many pieces, kings included (EGTBProbeLimit) */
    SearchParams search_params; /* the search's tunable constants, read by a tuning build's search only */
} EngineOptions;

enum { ENGINE_TB_PIECES_MAX = 32 }; /* EGTBProbeLimit's range: every position */

typedef struct Engine {
    Position *root;         /* the current position with its game history */
    /* Protocol-thread scratch, private to engine*.c. Its rule: an engine function that uses it copies or builds
     * a position into it first and is done with it before it returns (engine_set_position keeps it as the new
     * root and takes the old root as the scratch); so no use outlives its call and two never overlap (the
     * protocol thread makes one call at a time; the search thread never touches it). */
    Position *scratch;
    Position *pv_pos;       /* search-thread scratch for checking PVs */
    bool position_ok;       /* the last `position` was valid */
    int n_banned;
    Move banned[MAX_MOVES];
    TT tt;
    EngineOptions opt;
    EngineCallbacks cb;
    ThreadPool *pool;       /* the search threads */
    const Network *net;     /* the network in use: the loaded file's or the embedded default (may be NULL) */
    Network *file_net;      /* a net loaded with engine_set_eval_file (owned), or NULL */
    struct EngineBook *book; /* the opening book and the book move of a go (engine_book.h) */
    struct TbSet *tb;       /* the endgame tablebases loaded (tb/tb_probe.h; owned), or NULL for none */
    SearchShared shared;
    pthread_t thread;
    bool searching;         /* a search thread exists and has not been joined */
    bool in_caller;         /* engine_set_in_caller: searches run in the calling thread, no thread is made */
    bool wait_for_stop;     /* infinite/ponder: hold the bestmove until stop or ponderhit */
    pthread_mutex_t lock;   /* guards the hold and the probe below */
    pthread_cond_t cond;
    bool released;          /* stop or ponderhit released a held bestmove */
    /* probe during a search: the search thread writes the table, so it answers (see engine_probe) */
    bool tt_busy;           /* a search thread may be writing the table */
    int probe_state;        /* ProbeState (engine.c) */
    uint64_t probe_key;
    bool probe_found;
    TTEntry probe_entry;
    pthread_cond_t probe_cond;
    atomic_bool draw_offered;
    uint64_t noise_seed;    /* the strength limits' evaluation noise of this game (drawn at each new game) */
    EngineGo go;
    int perft_depth;        /* the running engine_perft's depth */
    int n_legal;            /* legal root moves at the last go */
    Move legal[MAX_MOVES];
    SearchResult result;
    bool has_last;          /* last_key and last_score hold the root and score of the last search that ran */
    uint64_t last_key;      /* (the time manager compares the score of the search two plies later with it) */
    int last_score;
} Engine;

/* Creates an engine with the start position and a default-sized hash; NULL if out of memory. */
Engine *engine_new(const EngineCallbacks *cb);
/* Stops any search and frees everything. */
void engine_free(Engine *e);

/*
 * Sets the root from a FEN (NULL = start position) and a list of move texts.
 * All or nothing: on error fills err, keeps the old root and marks the engine
 * as having no valid position. Clears the banned moves.
 */
bool engine_set_position(Engine *e, const char *fen, char *const *moves, int n_moves, XqError *err);
/* Builds a position like engine_set_position into out without touching the engine. */
bool engine_build_position(const char *fen, char *const *moves, int n_moves, Position *out, XqError *err);
/* Sets the banned root moves (texts); all or nothing. */
bool engine_set_banmoves(Engine *e, char *const *moves, int n_moves, XqError *err);
/*
 * The game, move by move (CECP): the root is the current position of a game
 * and its history. Call these while no search runs. engine_play parses a
 * move text and plays it if it is legal (all or nothing: err says why not);
 * engine_play_move plays a move the engine found; engine_undo takes the last
 * move back (false at the start of the game's history). Each clears the
 * banned moves. engine_go thinks on the current game.
 */
bool engine_play(Engine *e, const char *text, Move *played, XqError *err);
/* Plays a legal move of the root (a search result) onto the game; false, nothing changed, if it is not legal. */
bool engine_play_move(Engine *e, Move m);
/* Takes back the last move played onto the game; false when there is none. */
bool engine_undo(Engine *e);
/* Number of moves engine_undo can take back (0 without a valid position). */
int engine_undo_depth(const Engine *e);
/* What the rules in force say about the game now (no legal move, repetition, the 60-move limit). */
RulesVerdict engine_game_status(Engine *e, RulesReport *report);

/* Parses a move text that must be legal in the root (searchmoves); false with err filled when it is not or
 * there is no valid position. Call while no search runs. */
bool engine_parse_root_move(Engine *e, const char *text, Move *m, XqError *err);
/* Marks the engine as having no valid position (after a malformed `position`). */
void engine_invalidate_position(Engine *e);
/* Is there a valid root position? */
bool engine_position_ok(const Engine *e);
/* The root position (read-only; only while no search runs, or for reading the static part). */
const Position *engine_root(const Engine *e);

/* Starts a search on its own thread; the result comes through cb.bestmove. */
bool engine_go(Engine *e, const EngineGo *go);
/* Starts perft divide of the root to depth on the search thread (so that it can be stopped and the protocol
 * stays answerable): cb.perft_move per root move, then cb.perft_done. engine_stop ends it early, engine_wait
 * joins it, engine_searching is true while it runs. False when a search runs or the thread cannot start. */
bool engine_perft(Engine *e, int depth);
/* Asks a running search to stop (also releases a held ponder/infinite result). */
void engine_stop(Engine *e);
/* The opponent played the expected move: the clock starts now. */
void engine_ponderhit(Engine *e, bool draw_offered);
/* Waits for the search thread to end (after its bestmove callback). */
void engine_wait(Engine *e);
/* Is a search started and not yet joined? */
bool engine_searching(const Engine *e);
/* Is the running search one that never ends by itself (infinite, or ponder before ponderhit)? */
bool engine_search_is_open_ended(Engine *e);
/* Runs every later go and perft in the calling thread (a build without threads, such as the browser's
 * wasm): engine_go and engine_perft return after the bestmove / perft_done callback, engine_searching stays
 * true until engine_wait, and a go that waits for stop (infinite, ponder) is refused, as nothing could stop it. */
void engine_set_in_caller(Engine *e, bool on);
/* Do searches run in the calling thread (engine_set_in_caller)? */
bool engine_in_caller(const Engine *e);

/* The options in use (read-only; each changes through its setter below). */
const EngineOptions *engine_options(const Engine *e);
/* Pondering is enabled in the GUI (the time allocation counts on it). */
void engine_set_ponder(Engine *e, bool on);
/* Lines to search and report, clamped to 1..ENGINE_MULTIPV_MAX. */
void engine_set_multipv(Engine *e, int lines);
/* Milliseconds kept back from each move's time for the GUI's lag (negative: 0). */
void engine_set_move_overhead(Engine *e, int ms);
/* Sets the search's tunable constant number index (search/search_params.h) for the searches that start after
 * this; false (nothing changed) when value is outside its range. Only a tuning build's search reads it
 * (search_params_tunable). */
bool engine_set_search_param(Engine *e, int index, int value);
/* The rule set in force (rules.h; NULL: the default). */
void engine_set_rules(Engine *e, const struct RuleSet *rules);
/* The strength level in hundredths (strength.h; SKILL_MAX * SKILL_CENTI plays at full strength) and UCCI's
 * randomness 0 (none) .. 5 (huge). */
void engine_set_strength(Engine *e, int level_centi, int randomness);
/* Sets the number of search threads (1..POOL_MAX_THREADS, clamped). Refused (returns -1, nothing changed)
 * while a search runs; else returns the count now in use, fewer than asked when the system gives no more. */
int engine_set_threads(Engine *e, int threads);
/* Resizes the hash (to mb rounded down to a power of two); if that cannot be had, falls back to
 * smaller sizes. Returns the MB in use. Call while no search runs. */
size_t engine_set_hash(Engine *e, size_t mb);
/* Clears the hash and learned search data (new game). */
void engine_new_game(Engine *e);
/* Loads a net file for the network evaluation (NULL, "" or "<embedded>": the built-in net). All or nothing:
 * on error fills err and keeps the net in use. Call while no search runs. */
bool engine_set_eval_file(Engine *e, const char *path, XqError *err);
/* Turns the network evaluation on or off; on fails (err filled, nothing changed) when no net is loaded. */
bool engine_set_use_nnue(Engine *e, bool on, XqError *err);
/* Opens the book files of a ';'-separated list ("<embedded>": the built-in book) in place of those in
 * use; all or nothing: on error fills err and the engine has no book files. Call while no search runs. */
bool engine_set_book_files(Engine *e, const char *list, XqError *err);
/* Loads the endgame tablebases of directory dir (every file of the tables' class it holds; "" or
 * "<empty>" unloads them); a refused file goes to on_error(ctx, message) and is skipped. Returns the
 * number of tables loaded, or -1 (nothing changed) during a search. */
int engine_set_tb_path(Engine *e, const char *dir, void (*on_error)(void *ctx, const char *msg), void *ctx);
/* Probing the loaded tablebases on or off (UCCI useegtb). */
void engine_set_tb_use(Engine *e, bool on);
/* Probe positions of at most this many pieces, kings included (EGTBProbeLimit). */
void engine_set_tb_probe_limit(Engine *e, int pieces);
/* Turns playing from the book on or off. */
void engine_set_use_book(Engine *e, bool on);
/* Seeds the book's choices: 0 from the clock (varied games), else a fixed sequence restarted each new game. */
void engine_set_book_seed(Engine *e, uint64_t seed);
/* The book moves in the files in use (whether or not the book is on), heaviest first: of the root, or
 * with back_plies > 0 of the position that many plies before it (CECP's bk while pondering on a guess). */
int engine_book_moves(Engine *e, int back_plies, BookMove *out);
/* The static evaluation of a position by the evaluation in use (side to move's view). */
int engine_static_eval(const Engine *e, const Position *pos);

/* Looks the position up in the hash; true and fills entry on a hit. During a search the search
 * thread, which alone writes the table, does the lookup at its next limits check (a consistent
 * entry, no data race); this waits for it (or for the search to stop writing). */
bool engine_probe(Engine *e, const Position *pos, TTEntry *entry);

#endif
