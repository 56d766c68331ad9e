/*
 * search.h - the search: iterative deepening, aspiration windows, PVS
 * alpha-beta with a transposition table, quiescence.
 *
 * Threading model (Lazy SMP): everything a search thread mutates lives in its
 * own SearchThread (its Position copy, root-move list, killers, histories,
 * correction history, network accumulators, node count). What threads share
 * is a SearchShared: the lock-free TT, the limits, the stop flag, the node
 * count of all threads, the report callback. Thread 0 (the main thread)
 * alone reports, checks the clock and serves requests; helpers search the
 * same root at staggered depths and share what they find through the table.
 * threadpool.h runs the threads and picks the move. The search never prints;
 * it reports through the callback, which the protocol layer owns.
 */
#ifndef XQ_SEARCH_H
#define XQ_SEARCH_H

#include <stdatomic.h>

#include "board/position.h"
#include "eval/score.h"
#include "search_params.h"
#include "tt.h"

struct RuleSet; /* rules.h */
struct TbSet;   /* tb/tb_probe.h */

/* What ends a search. Zero/negative fields mean "no such limit". */
typedef struct SearchLimits {
    int depth;               /* iterations to complete; 0 = up to MAX_PLY */
    uint64_t nodes;          /* node budget; 0 = none */
    int64_t soft_ms;         /* the optimum time (timeman.h): no new iteration after it, as scaled after each
                                iteration by tm_target_ms; <= 0 none */
    int64_t hard_ms;         /* stop at once after this; <= 0 none */
    bool has_prev_score;     /* prev_score holds the score of our search two plies before this root */
    int prev_score;          /* (the time manager spends more when the score falls) */
    int mate;                /* stop once a mate in <= this many moves is found; 0 none */
    bool infinite;           /* never stop on our own (go infinite / ponder) until stop */
    int multipv;             /* lines to search and report (MultiPV); 0 or 1 = one */
    int n_root_moves;        /* > 0: search only these root moves (searchmoves minus banmoves) */
    Move root_moves[MAX_MOVES];
} SearchLimits;

/* One progress report: a line after each iteration (each MultiPV line), or an aspiration fail. */
typedef struct SearchReport {
    int multipv;             /* the line, 1 = the best */
    int depth, seldepth;     /* nodes: of all threads */
    int score;               /* side to move's view; see score.h for mate/ban bands */
    int bound;               /* BOUND_EXACT, or LOWER/UPPER after an aspiration fail */
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;            /* per mille */
    uint64_t tbhits;         /* tablebase probes that answered, all threads */
    int pv_len;
    Move pv[MAX_PLY];
} SearchReport;

typedef void (*SearchReportFn)(void *ctx, const SearchReport *report);

/* State shared by the threads of one search. */
typedef struct SearchShared {
    TT *tt;
    SearchLimits limits;
    const struct RuleSet *rules; /* the rule set (rules.h): repetitions, quiet-move limit; NULL = default */
    atomic_bool stop;        /* set by the protocol (stop) or by the main thread (limits) */
    atomic_bool pondering;   /* while true, time limits do not stop the search */
    _Atomic int64_t start_ms; /* monotonic time limits count from (the protocol may reset it at ponderhit) */
    _Atomic uint64_t nodes;  /* nodes of every thread, each adding its own at every limits check and at the end */
    SearchReportFn report;   /* may be NULL */
    void *report_ctx;
    /* the root move the main thread starts on and its number in the line (1 = the first; line k counts
     * from k), once the search is a second old; ctx is report_ctx. NULL after init (set it after). */
    void (*currmove)(void *ctx, Move move, int number);
    const struct Network *net; /* the evaluation: a network, or NULL (search_shared_init's default) for the
                                  hand-crafted one; set after search_shared_init */
    int eval_noise;          /* strength limits: +- this many centipawns on every static evaluation, fixed per
                                position by noise_seed (strength.h); 0 after init (full strength) */
    uint64_t noise_seed;
    /* A request the main search thread serves (a hash probe, read there while every thread writes the
     * lock-free table: whole entries only), polled with the limits: while serve_wanted, the main search
     * thread calls serve(serve_ctx). Both NULL after init. */
    atomic_bool serve_wanted;
    void (*serve)(void *ctx);
    void *serve_ctx;
    /* Endgame tablebases probed at interior nodes with at most tb_probe_limit pieces (kings included):
     * loaded, read-only tables, or NULL (search_shared_init's default: no probe, no cost). */
    const struct TbSet *tb;
    int tb_probe_limit;
    _Atomic uint64_t tbhits;
    /* The tunable constants (search_params.h): a tuning build's search reads them here, a normal build's
     * compiles the defaults. search_shared_init sets the defaults; the engine sets its options after it. */
    SearchParams params;
} SearchShared;

/* Final result of a search. */
typedef struct SearchResult {
    Move best;               /* MOVE_NONE when there is no legal move */
    Move ponder;             /* expected reply, or MOVE_NONE */
    int score;
    int depth;               /* last completed iteration */
    uint64_t nodes;          /* of this thread (pool_search: of all threads) */
} SearchResult;

typedef struct SearchThread SearchThread;

/* Allocates a search thread (history tables etc.); NULL if out of memory. */
SearchThread *search_thread_new(void);
/* Frees a search thread. */
void search_thread_free(SearchThread *st);
/* Clears learned move-ordering data (new game). */
void search_thread_clear(SearchThread *st);
/* Sets the thread's index in its pool: 0 (the default) is the main thread, which alone reports, checks
 * the clock and serves requests; helpers (1, 2, ...) search at staggered depths and stay silent. */
void search_thread_set_index(SearchThread *st, int index);
/* Network work (accumulator updates and refreshes) of the thread's last search; 0 without a network. */
uint64_t search_thread_nnue_work(const SearchThread *st);

/*
 * Searches pos (copied; the caller's is not touched, its history is used for
 * repetitions) under shared->limits until a limit or shared->stop. Call
 * shared's start_ms and stop setup first (search_shared_init). Blocking.
 */
void search_run(SearchThread *st, SearchShared *shared, const Position *pos, SearchResult *out);

/* Reports st's best line of its last search through st->shared's callback if it starts with best, on the
 * caller's thread (the pool, after the search, when it plays a helper's move: the last info line then
 * shows that move). */
void search_report_line(SearchThread *st, Move best);

/* Prepares a SearchShared for a new search (clears stop and the serve hook, records the start time,
 * sets the default search parameters, advances the table's generation: call it once per search, before
 * any thread searches). */
void search_shared_init(SearchShared *shared, TT *tt, const SearchLimits *limits, const struct RuleSet *rules,
                        SearchReportFn report, void *report_ctx);

#endif
