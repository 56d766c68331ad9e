/*
 * tb_table.h - one tablebase in memory: its layout and one 16-bit value per
 * entry, with the version-1 semantics.
 *
 * Version-1 semantics (TB_RULES_V1): the side to move with no legal move
 * loses (checkmate and stalemate alike); a position where neither side has a
 * rook, horse, cannon or pawn is a draw; a position that never resolves is a
 * draw; the 60-move rule and the repetition rules are not applied. Values are
 * from the side to move's view: win, draw or loss, and DTM in plies (win: the
 * fewest plies to a position where the loser has no move; loss: the most).
 *
 * Entry encoding: 0 = draw (or not yet resolved while generating), 0xFFFF =
 * broken (no legal position, see tb_index.h), otherwise DTM + 1. A win's DTM
 * is odd and a loss's even (the winner makes the last move), so the parity
 * tells the result.
 */
#ifndef XQ_TB_TABLE_H
#define XQ_TB_TABLE_H

#include <stdatomic.h>

#include "tb_index.h"

enum {
    TB_V_DRAW = 0,
    TB_V_BROKEN = 0xFFFF,
    TB_DTM_MAX = 0xFFFD,  /* longest distance an entry holds */
    TB_RULES_V1 = 1,      /* the semantics above */
};

enum { TB_LOSS = -1, TB_DRAW = 0, TB_WIN = 1 };

/* A probe's answer: result for the side to move and DTM in plies (0 for a draw). */
typedef struct TbValue {
    int wdl;
    int dtm;
} TbValue;

/* Counts over a table's legal entries. */
typedef struct TbStats {
    uint64_t positions, wins, draws, losses;
    unsigned longest_win, longest_loss; /* plies */
} TbStats;

/* A table: entries are atomics because the generator's threads read what others write (relaxed order). */
typedef struct TbTable {
    TbLayout layout;
    char name[TB_SIG_TEXT];
    _Atomic uint16_t *val;
    TbStats stats;
    int passes; /* passes the generator ran, pass 0 included (0 for a table read from a file) */
} TbTable;

/* The value an entry holds (an entry not broken). */
static inline TbValue tb_decode(unsigned v)
{
    if (v == TB_V_DRAW)
        return (TbValue){ TB_DRAW, 0 };
    int dtm = (int)v - 1;
    return (TbValue){ dtm & 1 ? TB_WIN : TB_LOSS, dtm };
}
/* The entry holding a win or loss at dtm plies. */
static inline unsigned tb_encode_dtm(int dtm) { return (unsigned)dtm + 1; }
/* Reads entry idx. */
static inline unsigned tb_get(const TbTable *t, uint64_t idx)
{
    return atomic_load_explicit(&t->val[idx], memory_order_relaxed);
}

/* A zeroed table for sig (red attacking); NULL if memory is short. */
TbTable *tb_table_new(const TbSig *sig);
/* Frees a table (NULL is fine). */
void tb_table_free(TbTable *t);
/* Counts wins, draws, losses and the longest distances into t->stats. */
void tb_table_count(TbTable *t);

#endif
