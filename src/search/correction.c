/* correction.c - correction history of the static evaluation (see correction.h). */
#include "correction.h"

#include "eval/score.h"
#include "board/zobrist.h"

enum {
    CORR_LIMIT = 1024,     /* bound of an entry */
    CORR_GRAIN = 16,       /* entry units per centipawn, over both tables */
    CORR_BONUS_MAX = 256,  /* largest step of one update */
    CORR_DEPTH_DIV = 4,    /* an update moves an entry by diff * depth / this */
    CORR_EVAL_MAX = SCORE_KNOWN_WIN - 1,
};

/* v limited to [-bound, bound]. */
static int clamp_abs(int v, int bound) { return v > bound ? bound : (v < -bound ? -bound : v); }

/* Hashes the squares of the pieces with identities [first, last) of both sides. */
static uint64_t structure_key(const Position *pos, int first, int last)
{
    uint64_t k = 0;
    for (int side = 0; side < 2; side++) {
        const int tag = side_tag(side);
        for (int i = first; i < last; i++) {
            int sq = pos->piece_sq[tag + i];
            if (sq)
                k ^= ZOB->piece[side][ID_TYPE[i]][sq];
        }
    }
    return k;
}

/* Finds the slots of pos's pawn and defence structures. */
void corr_slots(const Position *pos, CorrSlots *out)
{
    out->slot[0] = (uint32_t)(structure_key(pos, TYPE_FIRST[PAWN], SIDE_PIECES) >> 32) & (CORR_SIZE - 1);
    out->slot[1] = (uint32_t)(structure_key(pos, 0, TYPE_FIRST[HORSE]) >> 32) & (CORR_SIZE - 1);
}

/* The static evaluation eval corrected by what the tables learned (kept out of the mate bands). */
int corr_apply(const CorrHist *ch, const Position *pos, const CorrSlots *s, int eval)
{
    int sum = 0;
    for (int t = 0; t < CORR_TABLES; t++)
        sum += ch->table[t][pos->side][s->slot[t]];
    return clamp_abs(eval + sum / CORR_GRAIN, CORR_EVAL_MAX);
}

/* Teaches the tables that a search of this depth found `diff` = search score - corrected eval. */
void corr_update(CorrHist *ch, const Position *pos, const CorrSlots *s, int diff, int depth)
{
    const int bonus = clamp_abs(diff * depth / CORR_DEPTH_DIV, CORR_BONUS_MAX);
    const int mag = bonus < 0 ? -bonus : bonus;
    for (int t = 0; t < CORR_TABLES; t++) {
        int16_t *e = &ch->table[t][pos->side][s->slot[t]];
        *e = (int16_t)clamp_abs(*e + bonus - *e * mag / CORR_LIMIT, CORR_LIMIT);
    }
}
