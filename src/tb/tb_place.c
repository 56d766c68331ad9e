/* tb_place.c - the defence codes and pair numbers of the tablebase index (see tb_place.h). */
#include "tb_place.h"

#include <pthread.h>
#include <string.h>

static TbPlaces places;

/* A square seen from `side`'s back rank: red's as it is, black's with the ranks reversed. */
static int own_square(int side, int sq) { return side == RED ? sq : sq_flip(sq); }

/* The square of a point (file, rank counted from the side's back rank). */
static int point_square(int side, int file, int rank) { return own_square(side, sq_make(file, rank)); }

/* Fills the point lists and the square -> point tables of both sides. */
static void fill_points(void)
{
    static const unsigned char ADVISOR_PT[TB_ADVISOR_POINTS][2] = { { 3, 0 }, { 5, 0 }, { 4, 1 }, { 3, 2 }, { 5, 2 } };
    static const unsigned char ELEPHANT_PT[TB_ELEPHANT_POINTS][2] = { { 2, 0 }, { 6, 0 }, { 0, 2 }, { 4, 2 },
                                                                      { 8, 2 }, { 2, 4 }, { 6, 4 } };
    memset(places.king_pt, -1, sizeof places.king_pt);
    for (int side = RED; side <= BLACK; side++) {
        for (int k = 0; k < TB_KING_POINTS; k++) { /* d0 e0 f0 d1 e1 f1 d2 e2 f2 */
            int sq = point_square(side, 3 + k % 3, k / 3);
            places.king_sq[side][k] = (uint8_t)sq;
            places.king_pt[side][sq] = (signed char)k;
        }
        for (int a = 0; a < TB_ADVISOR_POINTS; a++) {
            int sq = point_square(side, ADVISOR_PT[a][0], ADVISOR_PT[a][1]);
            places.advisor_sq[side][a] = (uint8_t)sq;
            places.advisor_bit[side][sq] = (uint8_t)(1u << a);
        }
        for (int e = 0; e < TB_ELEPHANT_POINTS; e++) {
            int sq = point_square(side, ELEPHANT_PT[e][0], ELEPHANT_PT[e][1]);
            places.elephant_sq[side][e] = (uint8_t)sq;
            places.elephant_bit[side][sq] = (uint8_t)(1u << e);
        }
    }
}

/* Is code a placement (no two pieces on one point)? Its king may not share an advisor's or elephant's point. */
static bool is_placement(int code)
{
    int k = code >> TB_KING_SHIFT, ksq = places.king_sq[RED][k];
    int am = (code >> TB_ADVISOR_SHIFT) & 31, em = code & 127;
    return !(places.advisor_bit[RED][ksq] & am) && !(places.elephant_bit[RED][ksq] & em);
}

/* The code of a placement's mirror image. */
static int mirror_code(int code)
{
    int k = code >> TB_KING_SHIFT, am = (code >> TB_ADVISOR_SHIFT) & 31, em = code & 127;
    int mk = places.king_pt[RED][sq_mirror(places.king_sq[RED][k])], mam = 0, mem = 0;
    for (int a = 0; a < TB_ADVISOR_POINTS; a++)
        if (am >> a & 1)
            mam |= places.advisor_bit[RED][sq_mirror(places.advisor_sq[RED][a])];
    for (int e = 0; e < TB_ELEPHANT_POINTS; e++)
        if (em >> e & 1)
            mem |= places.elephant_bit[RED][sq_mirror(places.elephant_sq[RED][e])];
    return mk << TB_KING_SHIFT | mam << TB_ADVISOR_SHIFT | mem;
}

/* The number of bits set in m. */
static int bits(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* The kind of a code: its advisors * 3 + elephants, or -1 with more than two of either. */
static int code_kind(int code)
{
    int a = bits((unsigned)(code >> TB_ADVISOR_SHIFT) & 31), e = bits((unsigned)code & 127);
    return a <= 2 && e <= 2 ? tb_place_kind(a, e) : -1;
}

/* Numbers every placement of each kind: all ranks in code order, then the canonical ones (asymmetric first). */
static void fill_codes(void)
{
    for (int code = 0; code < TB_PLACE_CODES; code++) {
        places.all_rank[code] = places.canon_rank[code] = TB_PLACE_NONE;
        places.mirror[code] = (uint16_t)mirror_code(code);
        int kind = code_kind(code);
        if (kind < 0 || !is_placement(code))
            continue;
        TbPlaceKind *k = &places.kind[kind];
        k->code_of_all[k->all] = (uint16_t)code;
        places.all_rank[code] = (uint16_t)k->all++;
    }
    for (int sym = 0; sym <= 1; sym++) /* the asymmetric canonical codes first, then the symmetric ones */
        for (int code = 0; code < TB_PLACE_CODES; code++) {
            int m = places.mirror[code], kind = code_kind(code);
            if (places.all_rank[code] == TB_PLACE_NONE || m < code || (m == code) != sym)
                continue;
            TbPlaceKind *k = &places.kind[kind];
            k->code_of_canon[k->canon] = (uint16_t)code;
            places.canon_rank[code] = (uint16_t)k->canon++;
            k->asym += !sym;
        }
}

/* Fills the pair numbers' inverse. */
static void fill_pairs(void)
{
    for (unsigned hi = 1; hi < TB_PAIR_DOMAIN; hi++)
        for (unsigned lo = 0; lo < hi; lo++) {
            unsigned p = tb_pair(lo, hi);
            places.pair_lo[p] = (uint8_t)lo;
            places.pair_hi[p] = (uint8_t)hi;
        }
}

/* Fills every table (once). */
static void fill_places(void)
{
    tables_init();
    fill_points();
    fill_codes();
    fill_pairs();
}

/* The tables, filled on the first call. */
const TbPlaces *tb_places(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_places);
    return &places;
}
