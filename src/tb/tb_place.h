/*
 * tb_place.h - the numbering the tablebase index (tb_index.h) is built from:
 * a side's king, advisors and elephants as one number, and two pieces of one
 * type as one unordered pair.
 *
 * A side's defence (its king, its advisors and its elephants) is a code,
 * king point << 12 | advisor mask << 7 | elephant mask, over the side's own
 * points counted from its back rank: the king's nine palace points, the five
 * advisor points and the seven elephant points, each list in square order
 * (red's view: d0 e0 f0 d1 e1 f1 d2 e2 f2; d0 f0 e1 d2 f2; c0 g0 a2 e2 i2 c4
 * g4; black's points are the same with ranks counted from rank 9). A code is
 * a placement when no two pieces share a point (the king on an advisor point
 * or on e2 excludes that piece). The placements of one kind (a number of
 * advisors 0..2 and of elephants 0..2; kind = advisors * 3 + elephants) are
 * numbered in code order ("all" ranks: 9 for a bare king, 1410 for two
 * advisors and two elephants, against 9 x 25 x 49 = 11025 squares before).
 * The left-right mirror maps codes to codes; a code is canonical when it is
 * not above its mirror image's, and the canonical ones are numbered with the
 * asymmetric first ("canon" ranks: 0..asym-1 asymmetric, asym..canon-1 the
 * codes equal to their mirror image).
 * A pair of pieces of one type on domain positions lo < hi is the number
 * hi * (hi - 1) / 2 + lo, whatever the domain's size (n(n-1)/2 pairs).
 */
#ifndef XQ_TB_PLACE_H
#define XQ_TB_PLACE_H

#include "board/position.h"

enum {
    TB_PLACE_CODES = 9 << 12, /* defence codes: king point (0..8) << 12 | advisor mask << 7 | elephant mask */
    TB_PLACE_KINDS = 9,       /* advisors 0..2 x elephants 0..2 */
    TB_PLACE_MAX = 1410,      /* placements of the largest kind (two advisors, two elephants) */
    TB_PLACE_NONE = 0xFFFF,   /* no rank: not a placement, or not canonical */
    TB_KING_POINTS = 9,
    TB_ADVISOR_POINTS = 5,
    TB_ELEPHANT_POINTS = 7,
    TB_PAIR_DOMAIN = 90,                                      /* the largest domain a pair is numbered in */
    TB_PAIRS_MAX = TB_PAIR_DOMAIN * (TB_PAIR_DOMAIN - 1) / 2, /* 4005 */
    TB_ADVISOR_SHIFT = 7,
    TB_KING_SHIFT = 12,
};

/* The placements of one kind of defence. */
typedef struct TbPlaceKind {
    int all;   /* placements */
    int asym;  /* canonical placements that differ from their mirror image */
    int canon; /* canonical placements (asym of them asymmetric, then the symmetric ones) */
    uint16_t code_of_all[TB_PLACE_MAX];
    uint16_t code_of_canon[TB_PLACE_MAX];
} TbPlaceKind;

/* The numbering tables (filled once, read-only after). */
typedef struct TbPlaces {
    uint16_t all_rank[TB_PLACE_CODES];   /* code -> rank among its kind's placements, or TB_PLACE_NONE */
    uint16_t canon_rank[TB_PLACE_CODES]; /* code -> rank among its kind's canonical placements, or TB_PLACE_NONE */
    uint16_t mirror[TB_PLACE_CODES];     /* code -> its mirror image's code */
    TbPlaceKind kind[TB_PLACE_KINDS];
    signed char king_pt[2][BOARD_SIZE];  /* a side's square -> its king point, or -1 */
    uint8_t advisor_bit[2][BOARD_SIZE];  /* a side's square -> its advisor point's bit, or 0 */
    uint8_t elephant_bit[2][BOARD_SIZE]; /* a side's square -> its elephant point's bit, or 0 */
    uint8_t king_sq[2][TB_KING_POINTS];  /* a side's points -> squares */
    uint8_t advisor_sq[2][TB_ADVISOR_POINTS];
    uint8_t elephant_sq[2][TB_ELEPHANT_POINTS];
    uint8_t pair_lo[TB_PAIRS_MAX], pair_hi[TB_PAIRS_MAX]; /* pair number -> its two domain positions */
} TbPlaces;

/* The tables, filled on the first call (safe from any thread). */
const TbPlaces *tb_places(void);
/* The kind of a defence: advisors * 3 + elephants. */
static inline int tb_place_kind(int advisors, int elephants) { return advisors * 3 + elephants; }
/* The number of the pair of domain positions a != b (unordered). */
static inline unsigned tb_pair(unsigned a, unsigned b) { return a > b ? a * (a - 1) / 2 + b : b * (b - 1) / 2 + a; }

#endif
