/* test_tb_index.c - the tablebase index (tb_index.h, tb_place.h) against a straightforward enumeration:
 * every placement of a signature's pieces (kings in their palaces, advisors and elephants on their points,
 * pawns where a pawn stands, the rest anywhere; two pieces of a type once), both sides to move, the legal
 * ones kept (the side not to move not in check). Each legal position must reach an entry that sets up as
 * the position or its mirror image, its mirror image the same entry (or the twin tb_index_twin names where
 * both images are entries), its colour-swapped image the same entry read flipped; each entry must be
 * reached exactly when it sets up, and index back to itself. The defence numbering is counted the same
 * way. No table is generated. */
#include <stdlib.h>
#include <string.h>

#include "tb/tb_index.h"
#include "testutil.h"

enum {
    PIECES_MAX = 2 * (1 + 2 + 2 + TB_MAX_ATTACKERS), /* king, advisors, elephants and attackers, both sides */
    FULL_ALL = 1410,                                 /* placements of a king, two advisors and two elephants */
};

/* One piece of the enumeration: its identity and its squares. */
typedef struct Piece {
    int id, n;
    bool after_same; /* the previous piece is of the same side and type: its square comes first */
    unsigned char sq[BOARD_SIZE];
} Piece;

/* The enumeration of one signature and what it found. */
typedef struct Enum {
    const TbLayout *layout;
    Piece piece[PIECES_MAX];
    int pieces;
    Position *pos, *image, *setup;
    unsigned char *hit; /* entries reached */
    uint64_t legal;
} Enum;

/* Can a piece of this side and type stand on sq? */
static bool in_domain(int side, int type, int sq)
{
    if (!GEO->on_board[sq])
        return false;
    switch (type) {
    case KING:
        return GEO->palace[sq] && GEO->half[sq] == side;
    case ADVISOR:
        return GEO->advisor_pt[sq] && GEO->half[sq] == side;
    case ELEPHANT:
        return GEO->elephant_pt[sq] && GEO->half[sq] == side;
    case PAWN:
        return GEO->pawn_ok[side][sq];
    default:
        return true;
    }
}

/* Lists the signature's pieces with their squares. */
static void list_pieces(Enum *e, const TbSig *sig)
{
    static const unsigned char TYPES[] = { KING, ADVISOR, ELEPHANT, ROOK, HORSE, CANNON, PAWN };
    e->pieces = 0;
    for (int side = RED; side <= BLACK; side++)
        for (size_t t = 0; t < sizeof TYPES; t++)
            for (int k = 0; k < sig->count[side][TYPES[t]]; k++) {
                Piece *p = &e->piece[e->pieces++];
                p->id = side_tag(side) + TYPE_FIRST[TYPES[t]] + k;
                p->after_same = k > 0;
                p->n = 0;
                for (int sq = 0; sq < BOARD_SIZE; sq++)
                    if (in_domain(side, TYPES[t], sq))
                        p->sq[p->n++] = (unsigned char)sq;
            }
}

/* Clears pos to an empty board. */
static void clear(Position *pos)
{
    memset(pos, 0, offsetof(Position, hist));
    for (int sq = 0; sq < BOARD_SIZE; sq++)
        pos->board[sq] = GEO->on_board[sq] ? EMPTY : OFF_BOARD;
}

/* Sets out to pos seen through the transform: files reversed (mirror), ranks reversed with colours and side
 * to move swapped (swap). */
static void transformed(const Position *pos, Position *out, bool mirror, bool swap)
{
    clear(out);
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++) {
        int sq = pos->piece_sq[id];
        if (!sq)
            continue;
        int file = sq_file(sq), rank = sq_rank(sq);
        int tid = swap ? id ^ (RED_TAG | BLACK_TAG) : id;
        int tsq = sq_make(mirror ? FILES - 1 - file : file, swap ? RANKS - 1 - rank : rank);
        out->board[tsq] = (uint8_t)tid;
        out->piece_sq[tid] = (uint8_t)tsq;
    }
    out->side = (uint8_t)(pos->side ^ swap);
}

/* Do a and b hold the same pieces (side and type) on the same squares, the same side to move? */
static bool same_position(const Position *a, const Position *b)
{
    if (a->side != b->side)
        return false;
    for (int sq = 0; sq < BOARD_SIZE; sq++) {
        int x = a->board[sq], y = b->board[sq];
        bool px = x != EMPTY && x != OFF_BOARD, py = y != EMPTY && y != OFF_BOARD;
        if (px != py || (px && (piece_side(x) != piece_side(y) || piece_type(x) != piece_type(y))))
            return false;
    }
    return true;
}

/* Checks one legal position of the enumeration (e->pos, side to move set). */
static void check_position(Enum *e)
{
    const TbLayout *L = e->layout;
    Position *pos = e->pos;
    uint64_t idx = tb_index_of(L, pos, false);
    if (idx >= L->size) {
        char fen[FEN_MAX];
        fail_msg("%s: no entry", pos_to_fen(pos, fen, sizeof fen));
    }
    assert_true(tb_setup(L, idx, e->setup));
    transformed(pos, e->image, true, false);
    if (!same_position(e->setup, pos))
        assert_true(same_position(e->setup, e->image)); /* stored as its mirror image */
    uint64_t twin = tb_index_twin(L, pos), mirrored = tb_index_of(L, e->image, false);
    assert_int_equal(mirrored, twin == TB_NO_INDEX ? idx : twin);
    transformed(pos, e->image, false, true);
    assert_int_equal(tb_index_of(L, e->image, true), idx);
    e->hit[idx] = 1;
    e->legal++;
}

/* Places pieces k.. on every square combination, then checks both sides to move. */
static void place(Enum *e, int k)
{
    Position *pos = e->pos;
    if (k == e->pieces) {
        for (int stm = RED; stm <= BLACK; stm++) {
            pos->side = (uint8_t)stm;
            if (!side_in_check(pos, stm ^ 1))
                check_position(e);
        }
        return;
    }
    const Piece *p = &e->piece[k];
    const int after = p->after_same ? pos->piece_sq[p->id - 1] : -1;
    for (int i = 0; i < p->n; i++) {
        int sq = p->sq[i];
        if (sq <= after || pos->board[sq] != EMPTY)
            continue;
        pos->board[sq] = (uint8_t)p->id;
        pos->piece_sq[p->id] = (uint8_t)sq;
        place(e, k + 1);
        pos->board[sq] = EMPTY;
        pos->piece_sq[p->id] = 0;
    }
}

/* Enumerates a signature's placements against its layout; every entry reached must set up, and only those. */
static void check_signature(const char *name)
{
    TbSig sig;
    XqError err;
    assert_true(tb_sig_parse(name, &sig, &err));
    sig = tb_sig_canonical(&sig);
    TbLayout *layout = malloc(sizeof *layout);
    Enum *e = calloc(1, sizeof *e);
    assert_non_null(layout);
    assert_non_null(e);
    tb_layout_init(layout, &sig);
    e->layout = layout;
    e->pos = malloc(sizeof *e->pos);
    e->image = malloc(sizeof *e->image);
    e->setup = malloc(sizeof *e->setup);
    e->hit = calloc((size_t)layout->size, 1);
    assert_true(e->pos && e->image && e->setup && e->hit);
    list_pieces(e, &sig);
    clear(e->pos);
    place(e, 0);
    uint64_t entries = 0;
    for (uint64_t i = 0; i < layout->size; i++) {
        bool ok = tb_setup(layout, i, e->setup);
        if (ok != (e->hit[i] != 0))
            fail_msg("%s: entry %llu sets up %d, reached %d", name, (unsigned long long)i, ok, e->hit[i]);
        if (ok)
            assert_int_equal(tb_index_of(layout, e->setup, false), i);
        entries += ok;
    }
    /* every entry holds one or two positions (a position and its mirror image) */
    assert_true(entries <= e->legal && e->legal <= 2 * entries);
    print_message("%s: %llu entries, %llu legal, %llu legal positions\n", name, (unsigned long long)layout->size,
                  (unsigned long long)entries, (unsigned long long)e->legal);
    free(e->hit);
    free(e->setup);
    free(e->image);
    free(e->pos);
    free(e);
    free(layout);
}

/* One-attacker tables, a pair of pawns (55 squares) and of rooks, two types on one side, attackers on both
 * sides, defences on both sides. */
static void test_index_against_enumeration(void **state)
{
    (void)state;
    static const char *const SIGS[] = { "KR-K",  "KC-KA", "KH-KAE", "KP-KAAEE", "KPP-KA",
                                        "KRR-K", "KRP-K", "KR-KR",  "KCA-KEE",  "KRA-KP" };
    for (size_t i = 0; i < sizeof SIGS / sizeof *SIGS; i++)
        check_signature(SIGS[i]);
}

/* The defence numbering (tb_place.h): each kind's placements and canonical placements, counted over every
 * king point and set of advisor and elephant points; the full defence's 1410. */
static void test_defence_counts(void **state)
{
    (void)state;
    const TbPlaces *P = tb_places();
    int all[TB_PLACE_KINDS] = { 0 }, sym[TB_PLACE_KINDS] = { 0 };
    for (int k = 0; k < TB_KING_POINTS; k++)
        for (int am = 0; am < 1 << TB_ADVISOR_POINTS; am++)
            for (int em = 0; em < 1 << TB_ELEPHANT_POINTS; em++) {
                int ksq = P->king_sq[RED][k], na = __builtin_popcount((unsigned)am),
                    ne = __builtin_popcount((unsigned)em);
                bool clash = false, symmetric = sq_file(ksq) == FILES / 2;
                for (int a = 0; a < TB_ADVISOR_POINTS; a++)
                    clash |= (am >> a & 1) && P->advisor_sq[RED][a] == ksq;
                for (int x = 0; x < TB_ELEPHANT_POINTS; x++)
                    clash |= (em >> x & 1) && P->elephant_sq[RED][x] == ksq;
                if (na > 2 || ne > 2 || clash)
                    continue;
                for (int a = 0; a < TB_ADVISOR_POINTS; a++) { /* each point's mirror point holds the same */
                    int sq = P->advisor_sq[RED][a], m = sq_make(FILES - 1 - sq_file(sq), sq_rank(sq));
                    symmetric &= (am >> a & 1) == ((am & P->advisor_bit[RED][m]) != 0);
                }
                for (int x = 0; x < TB_ELEPHANT_POINTS; x++) {
                    int sq = P->elephant_sq[RED][x], m = sq_make(FILES - 1 - sq_file(sq), sq_rank(sq));
                    symmetric &= (em >> x & 1) == ((em & P->elephant_bit[RED][m]) != 0);
                }
                int kind = tb_place_kind(na, ne), code = k << TB_KING_SHIFT | am << TB_ADVISOR_SHIFT | em;
                assert_int_equal(P->all_rank[code], all[kind]);
                assert_int_equal(P->mirror[code] == code, symmetric);
                all[kind]++;
                sym[kind] += symmetric;
            }
    for (int kind = 0; kind < TB_PLACE_KINDS; kind++) {
        assert_int_equal(P->kind[kind].all, all[kind]);
        assert_int_equal(P->kind[kind].canon, (all[kind] + sym[kind]) / 2);
        assert_int_equal(P->kind[kind].canon - P->kind[kind].asym, sym[kind]);
    }
    assert_int_equal(all[tb_place_kind(2, 2)], FULL_ALL);
}

int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defence_counts),
        cmocka_unit_test(test_index_against_enumeration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
