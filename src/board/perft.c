/* perft.c - perft and divide over the legal move generator. */
#include "perft.h"

#include "movegen.h"

/* Leaf count below pos at depth >= 1, giving up (a partial count) once stop (may be NULL) is set. */
static uint64_t count(Position *pos, int depth, const atomic_bool *stop)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)count_legal(pos);
    if (stop && atomic_load_explicit(stop, memory_order_relaxed))
        return 0;
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        pos_make(pos, moves[i]);
        total += count(pos, depth - 1, stop);
        pos_unmake(pos);
    }
    return total;
}

/* Leaf count below pos at depth >= 1. */
uint64_t perft(Position *pos, int depth) { return count(pos, depth, NULL); }

/* Per-root-move counts, until stop (may be NULL) is set. */
uint64_t perft_divide_stoppable(Position *pos, int depth, PerftDivideFn fn, void *ctx, const atomic_bool *stop,
                                bool *complete)
{
    *complete = true;
    if (depth <= 0)
        return 1;
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        pos_make(pos, moves[i]);
        uint64_t nodes = count(pos, depth - 1, stop);
        pos_unmake(pos);
        total += nodes;
        if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
            *complete = false; /* this move's count may be partial: not reported */
            return total;
        }
        if (fn)
            fn(ctx, moves[i], nodes);
    }
    return total;
}

/* Per-root-move counts. */
uint64_t perft_divide(Position *pos, int depth, PerftDivideFn fn, void *ctx)
{
    bool complete;
    return perft_divide_stoppable(pos, depth, fn, ctx, NULL, &complete);
}
