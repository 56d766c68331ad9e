/*
 * tb_index.h - the compact index of a tablebase: every placement of a
 * signature's pieces, both sides to move, numbered densely.
 *
 * A table is stored with the stronger side red (tb_sig.h). Each piece has a domain,
 * the squares it may stand on, numbered in square order:
 *   red king       6 squares (files d and e of red's palace: the left-right
 *                  mirror puts the red king on files a..e, see below)
 *   black king     9 squares (its palace)
 *   advisor        5 squares (its side's five advisor points)
 *   elephant       7 squares (its side's seven elephant points)
 *   rook, horse, cannon, pawn   90 squares (every square; a pawn's unreachable
 *                  squares are unused entries)
 * index = stm * half + sum over pieces of domain_position * stride, the red
 * king slowest, then red's pieces (rooks, horses, cannons, pawns, advisors,
 * elephants), then the black king and black's pieces, side to move slowest
 * (stm 0 = red). Two pieces of one type are stored in square order (the
 * first's domain position below the second's); other orders, two pieces on
 * one square, a pawn where no pawn can stand and a position whose side not to
 * move is in check (the kings facing included) are "broken" entries.
 * Symmetry: xiangqi is symmetric left-right, so a position whose red king is
 * on files f..i is indexed as its mirror image; positions with the red king
 * on the e-file keep both images (each is solved, they agree).
 * Colour swap: a position whose stronger side is black is indexed as its
 * colour-swapped image (ranks flipped, colours and side to move swapped); an
 * ending with equal sides (KR-KR) holds both colours' positions as they are.
 */
#ifndef XQ_TB_INDEX_H
#define XQ_TB_INDEX_H

#include "tb_sig.h"

enum {
    TB_SLOTS_MAX = 16,        /* pieces of a table, kings included */
    TB_DOMAIN_MAX = 90,       /* largest domain: the whole board */
    TB_RED_KING_SQUARES = 6,  /* the red king's canonical squares */
};

#define TB_NO_INDEX UINT64_MAX

/* One piece's place in the index. */
typedef struct TbSlot {
    unsigned char side, type;
    unsigned char size;                /* squares in its domain */
    bool after_same;                   /* the previous slot holds a piece of the same side and type */
    unsigned char square[TB_DOMAIN_MAX]; /* domain position -> square */
    signed char pos[BOARD_SIZE];       /* square -> domain position, -1 outside */
    uint64_t stride;
} TbSlot;

/* The index of one (canonical) signature. */
typedef struct TbLayout {
    TbSig sig;
    int slots;
    TbSlot slot[TB_SLOTS_MAX];
    uint64_t half;  /* entries per side to move */
    uint64_t size;  /* all entries: 2 * half */
} TbLayout;

/* Builds the layout of a canonical signature (sig as tb_sig_canonical returns it). */
void tb_layout_init(TbLayout *layout, const TbSig *sig);
/* Index of pos in the layout; flip reads it colour-swapped. The caller checks that pos has the
 * layout's material (tb_sig_of_pos). TB_NO_INDEX if a piece is off its domain
 * (an advisor off its five points) or the material differs. */
uint64_t tb_index_of(const TbLayout *layout, const Position *pos, bool flip);
/* The entry of pos's mirror image when the red king stands on the e-file (both images are entries there;
 * pos in the table's colours), else TB_NO_INDEX. */
uint64_t tb_index_twin(const TbLayout *layout, const Position *pos);
/* Sets pos to the position of entry idx; false for a broken entry (pos is then unusable). */
bool tb_setup(const TbLayout *layout, uint64_t idx, Position *pos);

#endif
