/*
 * tb_index.h - the compact index of a tablebase (file version 3): every
 * placement of a signature's pieces, both sides to move, numbered densely.
 *
 * A table is stored with the stronger side red (tb_sig.h). An entry is
 *   index = stm * half + pair * attack + sum over groups of group number * stride
 * with stm 0 for red to move.
 *   pair: both sides' defences (king, advisors and elephants: one code each,
 *     tb_place.h) as one number. The left-right mirror is taken out here:
 *     red's code is canonical (not above its mirror image's). With red's code
 *     asymmetric (its rank r < asym), pair = r * B + b, b black's rank among
 *     all its placements (B of them); with red's code symmetric, pair =
 *     asym * B + (r - asym) * Bc + c, c black's rank among its canonical
 *     placements (Bc). So a bare king against advisors and elephants counts
 *     3 x 1410 + 3 x 714 = 6372 pairs (the old index: 6 x 9 x 25 x 49 = 66150).
 *     Only where both codes are symmetric do both mirror images stay entries
 *     (each solved; they agree: tb_index_twin).
 *   groups: red's attacking pieces, then black's, a group per type (rooks,
 *     horses, cannons, pawns): one piece's domain position, or two pieces of
 *     one type as an unordered pair (tb_pair). The domain of a rook, horse or
 *     cannon is the 90 squares, of a pawn the 55 squares a pawn of its side can
 *     stand on, numbered in square order; the first group is the slowest.
 * A "broken" entry is one no legal position has: two pieces on one square, or
 * the side not to move in check (the kings facing included). The generator
 * needs them marked; files store them as don't-cares.
 * Colour swap: a position whose stronger side is black is indexed as its
 * colour-swapped image (ranks flipped, colours and side to move swapped); an
 * ending with equal sides (KR-KR) holds both colours' positions as they are.
 */
#ifndef XQ_TB_INDEX_H
#define XQ_TB_INDEX_H

#include "tb_place.h"
#include "tb_sig.h"

enum {
    TB_GROUPS_MAX = 2 * TB_MAX_ATTACKERS, /* attacking groups of a table: at most two types a side */
    TB_DOMAIN_MAX = 90,                   /* largest domain: the whole board */
};

#define TB_NO_INDEX UINT64_MAX

/* One side's attacking pieces of one type (one, or two as an unordered pair) in the index. */
typedef struct TbGroup {
    unsigned char side, type, count;
    unsigned char n;                     /* squares in the domain */
    unsigned char square[TB_DOMAIN_MAX]; /* domain position -> square */
    signed char pos[BOARD_SIZE];         /* square -> domain position, -1 outside */
    uint64_t size;                       /* n, or n(n-1)/2 for a pair */
    uint64_t stride;
} TbGroup;

/* The index of one (canonical) signature. */
typedef struct TbLayout {
    TbSig sig;
    int kind[2];          /* each side's defence kind (tb_place.h) */
    uint64_t red_asym;    /* red's asymmetric canonical placements */
    uint64_t red_sym;     /* red's symmetric placements */
    uint64_t black_all;   /* black's placements (B) */
    uint64_t black_canon; /* black's canonical placements (Bc) */
    uint64_t pairs;       /* red_asym * black_all + red_sym * black_canon */
    int groups;
    TbGroup group[TB_GROUPS_MAX];
    uint64_t attack; /* the product of the groups' sizes */
    uint64_t half;   /* entries per side to move: pairs * attack */
    uint64_t size;   /* all entries: 2 * half */
} TbLayout;

/* Builds the layout of a canonical signature (sig as tb_sig_canonical returns it). */
void tb_layout_init(TbLayout *layout, const TbSig *sig);
/* Index of pos in the layout; flip reads it colour-swapped. The caller checks that pos has the
 * layout's material (tb_sig_of_pos). TB_NO_INDEX if a piece is off its domain (an advisor off its five
 * points, a pawn where no pawn stands) or the material differs. */
uint64_t tb_index_of(const TbLayout *layout, const Position *pos, bool flip);
/* The entry of pos's mirror image when both sides' defences are symmetric (both images are entries there;
 * pos in the table's colours), else TB_NO_INDEX. */
uint64_t tb_index_twin(const TbLayout *layout, const Position *pos);
/* Sets pos to the position of entry idx; false for a broken entry (pos is then unusable). */
bool tb_setup(const TbLayout *layout, uint64_t idx, Position *pos);

#endif
