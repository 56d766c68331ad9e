/*
 * test_correction.c - correction history: no correction before learning, a
 * learned offset in the direction of the search results and bounded, kept out
 * of the mate bands, per side to move and per structure; structure keys kept
 * move by move equal the keys computed from the pieces.
 */
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "search/correction.h"
#include "eval/score.h"
#include "testutil.h"

static const char *const START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/* The same pieces, but a red pawn pushed: another pawn structure, the same defence structure. */
static const char *const PUSHED = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";

/* The slots of pos, from its structure keys. */
static void slots_of(const Position *pos, CorrSlots *s)
{
    CorrKeys keys;
    corr_keys(pos, &keys);
    corr_slots(&keys, s);
}

/* A new empty table, pos set to the start position and s to its slots. */
static CorrHist *fresh_at_start(Position *pos, CorrSlots *s)
{
    CorrHist *ch = calloc(1, sizeof *ch);
    assert_non_null(ch);
    test_setup(pos, START);
    slots_of(pos, s);
    return ch;
}

/* An empty table leaves the evaluation as it is. */
static void test_untrained(void **state)
{
    (void)state;
    Position pos;
    CorrSlots s;
    CorrHist *ch = fresh_at_start(&pos, &s);
    assert_int_equal(corr_apply(ch, &pos, &s, 37), 37);
    assert_int_equal(corr_apply(ch, &pos, &s, -1234), -1234);
    free(ch);
}

/* Results above the eval raise it, below lower it, by a bounded amount, for the side that learned. */
static void test_learns_bounded(void **state)
{
    (void)state;
    Position pos;
    CorrSlots s;
    CorrHist *ch = fresh_at_start(&pos, &s);
    corr_update(ch, &pos, &s, 60, 8);
    int once = corr_apply(ch, &pos, &s, 0);
    assert_true(once > 0 && once <= 60);
    for (int i = 0; i < 1000; i++)
        corr_update(ch, &pos, &s, 5000, 20);
    int many = corr_apply(ch, &pos, &s, 0);
    assert_true(many >= once && many <= 200);
    /* Black to move in the same structures has its own entries. */
    Position other;
    CorrSlots so;
    test_setup(&other, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    slots_of(&other, &so);
    assert_int_equal(corr_apply(ch, &other, &so, 0), 0);
    for (int i = 0; i < 1000; i++)
        corr_update(ch, &pos, &s, -5000, 20);
    assert_true(corr_apply(ch, &pos, &s, 0) < 0);
    free(ch);
}

/* A corrected evaluation never reaches the known-win or mate bands. */
static void test_stays_out_of_mate_band(void **state)
{
    (void)state;
    Position pos;
    CorrSlots s;
    CorrHist *ch = fresh_at_start(&pos, &s);
    for (int i = 0; i < 1000; i++)
        corr_update(ch, &pos, &s, 5000, 20);
    assert_true(corr_apply(ch, &pos, &s, SCORE_KNOWN_WIN - 2) < SCORE_KNOWN_WIN);
    for (int i = 0; i < 2000; i++)
        corr_update(ch, &pos, &s, -5000, 20);
    assert_true(corr_apply(ch, &pos, &s, -SCORE_KNOWN_WIN + 2) > -SCORE_KNOWN_WIN);
    free(ch);
}

/* A pawn move changes the pawn slot and keeps the defence slot. */
static void test_slots_follow_structure(void **state)
{
    (void)state;
    Position a, b;
    CorrSlots sa, sb;
    test_setup(&a, START);
    test_setup(&b, PUSHED);
    slots_of(&a, &sa);
    slots_of(&b, &sb);
    assert_int_not_equal(sa.slot[0], sb.slot[0]);
    assert_int_equal(sa.slot[1], sb.slot[1]);
}

/* Keys of pos after every legal move, kept from pos's keys, equal the keys computed after the move; recursing
 * depth more plies. */
static void check_keys_after(Position *pos, const CorrKeys *keys, int depth)
{
    Move moves[MAX_MOVES];
    const int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        CorrKeys kept, fresh;
        corr_keys_after(pos, keys, moves[i], &kept);
        pos_make(pos, moves[i]);
        corr_keys(pos, &fresh);
        assert_memory_equal(&kept, &fresh, sizeof fresh);
        if (depth > 0)
            check_keys_after(pos, &kept, depth - 1);
        pos_unmake(pos);
    }
}

/* The keys kept along a path (pawn, king, advisor and elephant moves and captures among them) stay exact. */
static void test_keys_kept_move_by_move(void **state)
{
    (void)state;
    TestLines lines;
    test_read_lines("perft.epd", &lines);
    for (int i = 0; i < lines.count; i++) {
        char fen[LINE_MAX_TEST];
        Position pos;
        CorrKeys keys;
        epd_fen(lines.line[i], fen, sizeof fen);
        test_setup(&pos, fen);
        corr_keys(&pos, &keys);
        check_keys_after(&pos, &keys, 1);
    }
    test_free_lines(&lines);
}

/* Runs the correction-history tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_untrained),
        cmocka_unit_test(test_learns_bounded),
        cmocka_unit_test(test_stays_out_of_mate_band),
        cmocka_unit_test(test_slots_follow_structure),
        cmocka_unit_test(test_keys_kept_move_by_move),
    };
    tables_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
