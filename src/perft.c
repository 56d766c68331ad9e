/* perft.c - perft and divide over the legal move generator. */
#include "perft.h"

#include "movegen.h"

/* Leaf count below pos at depth >= 1. */
uint64_t perft(Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)count_legal(pos);
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        pos_make(pos, moves[i]);
        total += perft(pos, depth - 1);
        pos_unmake(pos);
    }
    return total;
}

/* Per-root-move counts. */
uint64_t perft_divide(Position *pos, int depth, PerftDivideFn fn, void *ctx)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t total = 0;
    if (depth <= 0)
        return 1;
    for (int i = 0; i < n; i++) {
        pos_make(pos, moves[i]);
        uint64_t nodes = perft(pos, depth - 1);
        pos_unmake(pos);
        if (fn)
            fn(ctx, moves[i], nodes);
        total += nodes;
    }
    return total;
}
