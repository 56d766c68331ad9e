/*
 * zobrist.h - Zobrist keys for hashing positions, from a fixed-seed
 * splitmix64 so every build and run hashes identically. Filled by
 * tables_init(); read-only afterwards.
 */
#ifndef XQ_ZOBRIST_H
#define XQ_ZOBRIST_H

#include "base/types.h"

typedef struct ZobristKeys {
    uint64_t piece[2][PIECE_TYPES][BOARD_SIZE];
    uint64_t side; /* xored in when black is to move */
} ZobristKeys;

extern const ZobristKeys *const ZOB;

/* Fills the key tables (called by tables_init). */
void zobrist_init(void);

#endif
