/*
 * correction.h - correction history: what the search learned about how far
 * the static evaluation misses in positions with the same pawn structure, the
 * same king, advisor and elephant structure, or the same rooks, horses and
 * cannons of one side (a table per side). The search adds the learned offset
 * to the static evaluation before it prunes on it. Per search thread.
 */
#ifndef XQ_CORRECTION_H
#define XQ_CORRECTION_H

#include "board/position.h"

enum {
    CORR_SIZE = 1 << 14, /* entries per side and table (a power of two) */
    CORR_TABLES = 4,     /* pawn structure, defence structure, red's and black's rooks, horses and cannons */
};

typedef struct CorrHist {
    int16_t table[CORR_TABLES][2][CORR_SIZE]; /* [structure][side to move][key slot] */
} CorrHist;

/* Slots of a position in each table (computed once per node). */
typedef struct CorrSlots {
    uint32_t slot[CORR_TABLES];
} CorrSlots;

/* Structure keys of a position, one per table (kept along the search path: a move changes one or two). */
typedef struct CorrKeys {
    uint64_t key[CORR_TABLES];
} CorrKeys;

/* The structure keys of pos, from its pieces. */
void corr_keys(const Position *pos, CorrKeys *out);
/* The structure keys after pseudo-legal move m, from those of pos (the position before m). */
void corr_keys_after(const Position *pos, const CorrKeys *before, Move m, CorrKeys *after);
/* The table slots of a position with these structure keys. */
void corr_slots(const CorrKeys *keys, CorrSlots *out);
/* The static evaluation eval corrected by what the tables learned (kept out of the mate bands). */
int corr_apply(const CorrHist *ch, const Position *pos, const CorrSlots *s, int eval);
/* Teaches the tables that a search of this depth found `diff` = search score - corrected eval. */
void corr_update(CorrHist *ch, const Position *pos, const CorrSlots *s, int diff, int depth);

#endif
