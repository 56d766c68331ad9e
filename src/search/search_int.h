/*
 * search_int.h - what the search's modules share: a search thread's state
 * (search.c searches nodes, iterate.c deepens and reports). Not for use
 * outside src/search/search.c and src/search/iterate.c.
 */
#ifndef XQ_SEARCH_INT_H
#define XQ_SEARCH_INT_H

#include "correction.h"
#include "eval/eval.h"
#include "movepick.h"
#include "eval/nnue/nnue.h"
#include "rootmoves.h"
#include "search.h"

/* A tunable constant of the search (search_params.h) as thread st's search uses it: the shared value in a
 * tuning build, the default (a constant) in a normal one. */
#ifndef XQ_TUNE_SEARCH
#define XQ_TUNE_SEARCH 0 /* 1: a tuning build (cmake -DXQ_TUNE_SEARCH=ON) */
#endif
#if XQ_TUNE_SEARCH
#define SP(st, name) ((st)->shared->params.name)
#else
#define SP(st, name) ((void)(st), SPD_##name)
#endif

enum {
    LMR_TABLE = 64,
    CHECK_NODES_MASK = 1023, /* the limits are checked every 1024 nodes... */
    CHECK_PER_LIMIT = 16,    /* ...or, under a smaller node limit, about this many times within it */
};

typedef struct StackEntry {
    Move move;     /* move played to leave this ply */
    ContHist *cont; /* continuation history of that move (the thread's null_cont after a null move) */
    Move killers[2];
    int eval;
    Move excluded; /* a singular-extension search of this node skips this move (MOVE_NONE otherwise) */
} StackEntry;

struct SearchThread {
    Position pos;
    SearchShared *shared;
    OrderTables order;
    CorrHist corr;      /* correction history of the static evaluation */
    CorrKeys corr_keys[MAX_HISTORY + 1]; /* structure keys of the position at each ply of pos's history */
    ContHist null_cont; /* continuation history used where no earlier move exists */
    StackEntry stack[MAX_PLY + 2];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    uint8_t lmr[LMR_TABLE][LMR_TABLE];
    int lmr_base, lmr_divisor; /* the parameters the reduction table was made with */
    uint64_t nodes;
    uint64_t nodes_flushed; /* the part of nodes already added to shared->nodes */
    uint64_t check_mask;    /* the limits are checked when nodes & check_mask == 0 */
    int seldepth;
    int root_depth; /* the depth of the iteration being searched (extensions stop at twice it) */
    bool stopped;
    RootMoves rm;       /* the root's moves and what the iterations learned of them */
    int line;           /* the MultiPV line being searched: root moves of lines 0..line-1 are skipped */
    int lines;          /* MultiPV lines of this search (1 unless MultiPV, at most the root moves) */
    int index;          /* in the thread pool: 0 = the main thread */
    uint64_t nnue_work0; /* the network stack's work counters when this search started */
    const EvalParams *params;
    const Network *net; /* the network evaluating this search, NULL = the hand-crafted evaluation */
    NnueStack nnue;     /* the network's accumulators along the current path */
    int noise;          /* evaluation noise of this search (shared->eval_noise), 0 = none */
    uint64_t noise_seed;
};

/* Searches the root of st's position (ply 0) to depth in the window; skips root moves not searchable
 * on st->line. Fills st->pv[0] / st->pv_len[0]. */
int search_root(SearchThread *st, int alpha, int beta, int depth);
/* Adds the thread's nodes not yet counted to shared->nodes; returns the count of all threads. */
uint64_t search_flush_nodes(SearchThread *st);
/* Milliseconds since the limits' reference time. */
int64_t search_elapsed_ms(const SearchShared *sh);

#endif
