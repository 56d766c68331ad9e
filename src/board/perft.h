/* perft.h - move path enumeration counts for verifying move generation. */
#ifndef XQ_PERFT_H
#define XQ_PERFT_H

#include <stdatomic.h>

#include "position.h"

/* Called once per root move by perft_divide with that move's leaf count. */
typedef void (*PerftDivideFn)(void *ctx, Move m, uint64_t nodes);

/* Counts the leaves of the legal move tree to `depth` (bulk-counted at the last ply). */
uint64_t perft(Position *pos, int depth);
/* Like perft, reporting each root move's count through fn; returns the total. */
uint64_t perft_divide(Position *pos, int depth, PerftDivideFn fn, void *ctx);
/* perft_divide that gives up once *stop is set (checked at every node above the last ply): returns the
 * leaves counted so far, *complete false when stopped (the move being counted then is not reported). */
uint64_t perft_divide_stoppable(Position *pos, int depth, PerftDivideFn fn, void *ctx, const atomic_bool *stop,
                                bool *complete);

#endif
