/* zobrist.c - fixed-seed Zobrist key tables. */
#include "zobrist.h"

static ZobristKeys keys;
const ZobristKeys *const ZOB = &keys;

enum { ZOBRIST_SEED = 0x5851F42D };

/* One step of splitmix64: advances the state and returns a well-mixed value. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Fills every key from the fixed seed, in a fixed order. */
void zobrist_init(void)
{
    uint64_t state = ZOBRIST_SEED;
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < PIECE_TYPES; t++)
            for (int sq = 0; sq < BOARD_SIZE; sq++)
                keys.piece[c][t][sq] = splitmix64(&state);
    keys.side = splitmix64(&state);
}
