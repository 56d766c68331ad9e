/*
 * correction.h - correction history: what the search learned about how far
 * the static evaluation misses in positions with the same pawn structure, or
 * the same king, advisor and elephant structure. The search adds the learned
 * offset to the static evaluation before it prunes on it. Per search thread.
 */
#ifndef XQ_CORRECTION_H
#define XQ_CORRECTION_H

#include "board/position.h"

enum {
    CORR_SIZE = 1 << 14, /* entries per side and table (a power of two) */
    CORR_TABLES = 2,     /* pawn structure, defence structure */
};

typedef struct CorrHist {
    int16_t table[CORR_TABLES][2][CORR_SIZE]; /* [structure][side to move][key slot] */
} CorrHist;

/* Slots of a position in each table (computed once per node). */
typedef struct CorrSlots {
    uint32_t slot[CORR_TABLES];
} CorrSlots;

/* Finds the slots of pos's pawn and defence structures. */
void corr_slots(const Position *pos, CorrSlots *out);
/* The static evaluation eval corrected by what the tables learned (kept out of the mate bands). */
int corr_apply(const CorrHist *ch, const Position *pos, const CorrSlots *s, int eval);
/* Teaches the tables that a search of this depth found `diff` = search score - corrected eval. */
void corr_update(CorrHist *ch, const Position *pos, const CorrSlots *s, int diff, int depth);

#endif
