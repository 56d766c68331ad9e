/* correction.c - correction history of the static evaluation (see correction.h). */
#include "correction.h"

#include "eval/score.h"
#include "board/zobrist.h"

enum {
    CORR_LIMIT = 1024,     /* bound of an entry */
    CORR_GRAIN = 32,       /* entry units per centipawn, over the four tables (their sum reaches 128 cp, as two did) */
    CORR_BONUS_MAX = 256,  /* largest step of one update */
    CORR_DEPTH_DIV = 4,    /* an update moves an entry by diff * depth / this */
    CORR_EVAL_MAX = SCORE_KNOWN_WIN - 1,
};

/* v limited to [-bound, bound]. */
static int clamp_abs(int v, int bound) { return v > bound ? bound : (v < -bound ? -bound : v); }

/* Hashes the squares of one side's pieces with identities [first, last). */
static uint64_t side_key(const Position *pos, int side, int first, int last)
{
    uint64_t k = 0;
    const int tag = side_tag(side);
    for (int i = first; i < last; i++) {
        int sq = pos->piece_sq[tag + i];
        if (sq)
            k ^= ZOB->piece[side][ID_TYPE[i]][sq];
    }
    return k;
}

/* Hashes the squares of the pieces with identities [first, last) of both sides. */
static uint64_t structure_key(const Position *pos, int first, int last)
{
    return side_key(pos, RED, first, last) ^ side_key(pos, BLACK, first, last);
}

/* the tables: pawns; king, advisors and elephants; red's rooks, horses and cannons; black's */
enum { CORR_PAWNS, CORR_DEFENCE, CORR_MAJORS };

/* The table whose structure a piece type of a side belongs to. */
static int structure_of(int type, int side)
{
    return type == PAWN ? CORR_PAWNS : (type < HORSE ? CORR_DEFENCE : CORR_MAJORS + side);
}

/* The structure keys of pos, from its pieces. */
void corr_keys(const Position *pos, CorrKeys *out)
{
    out->key[CORR_PAWNS] = structure_key(pos, TYPE_FIRST[PAWN], SIDE_PIECES);
    out->key[CORR_DEFENCE] = structure_key(pos, 0, TYPE_FIRST[HORSE]);
    for (int side = 0; side < 2; side++)
        out->key[CORR_MAJORS + side] = side_key(pos, side, TYPE_FIRST[HORSE], TYPE_FIRST[PAWN]);
}

/* The structure keys after pseudo-legal move m, from those of pos (the position before m). */
void corr_keys_after(const Position *pos, const CorrKeys *before, Move m, CorrKeys *after)
{
    const int from = move_from(m), to = move_to(m), side = pos->side;
    const int type = piece_type(pos->board[from]), captured = pos->board[to];
    *after = *before;
    after->key[structure_of(type, side)] ^= ZOB->piece[side][type][from] ^ ZOB->piece[side][type][to];
    if (captured) {
        const int ct = piece_type(captured);
        after->key[structure_of(ct, side ^ 1)] ^= ZOB->piece[side ^ 1][ct][to];
    }
}

/* The table slots of a position with these structure keys. */
void corr_slots(const CorrKeys *keys, CorrSlots *out)
{
    for (int t = 0; t < CORR_TABLES; t++)
        out->slot[t] = (uint32_t)(keys->key[t] >> 32) & (CORR_SIZE - 1);
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
