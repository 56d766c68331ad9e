/*
 * test_tt.c - the transposition table: the size it reports is the size it
 * uses; mate scores come back relative to the probing ply and never outside
 * their band; repetition-ban scores are never stored as values.
 */
#include "score.h"
#include "testutil.h"
#include "tt.h"

enum { BYTES_PER_MB = 1 << 20 };

/* A size that is not a power of two is rounded down, and the table says so in tt.mb. */
static void test_resize_reports_real_size(void **state)
{
    (void)state;
    static const struct { size_t asked, used; } CASES[] = {
        { 1, 1 }, { 2, 2 }, { 3, 2 }, { 16, 16 }, { 100, 64 }, { 127, 64 }, { 128, 128 },
    };
    TT tt = { 0 };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        assert_true(tt_resize(&tt, CASES[i].asked));
        assert_int_equal(tt.mb, CASES[i].used);
        assert_int_equal(tt.buckets * sizeof(TTBucket), CASES[i].used * BYTES_PER_MB);
    }
    assert_false(tt_resize(&tt, 0));
    assert_int_equal(tt.mb, 128); /* a failed resize keeps the old table */
    tt_free(&tt);
}

/* Stores score at store_ply as an exact result and probes it back at probe_ply. */
static int round_trip(TT *tt, int score, int store_ply, int probe_ply)
{
    static const uint64_t KEY = 0x123456789abcdef1ULL;
    TTEntry e;
    tt_clear(tt);
    tt_store(tt, KEY, store_ply, MOVE_NONE, score, 0, 10, BOUND_EXACT);
    assert_true(tt_probe(tt, KEY, probe_ply, &e));
    assert_int_equal(e.gen_bound & 3, BOUND_EXACT);
    return e.score;
}

/* Mate scores move with the ply; one read deeper than the band reaches is clamped to the band's edge. */
static void test_mate_scores(void **state)
{
    (void)state;
    TT tt = { 0 };
    assert_true(tt_resize(&tt, 1));
    assert_int_equal(round_trip(&tt, 100, 5, 50), 100);
    assert_int_equal(round_trip(&tt, SCORE_MATE - 10, 4, 6), SCORE_MATE - 12);
    assert_int_equal(round_trip(&tt, -SCORE_MATE + 10, 4, 6), -SCORE_MATE + 12);
    for (int mate = 1; mate < MAX_PLY; mate++)
        for (int ply = 0; ply < MAX_PLY; ply += 7) {
            /* a mate in `mate` plies from the node, found at ply 0, read back at `ply` */
            int win = round_trip(&tt, SCORE_MATE - mate, 0, ply), loss = round_trip(&tt, -SCORE_MATE + mate, 0, ply);
            int expected = mate + ply <= MAX_PLY ? SCORE_MATE - mate - ply : SCORE_MATE_MIN;
            assert_int_equal(win, expected);
            assert_int_equal(loss, -expected);
            assert_true(score_is_mate(win) && score_is_mate(loss));
        }
    tt_free(&tt);
}

/* A repetition-ban score keeps its move but is never stored as a value. */
static void test_ban_scores(void **state)
{
    (void)state;
    TT tt = { 0 };
    TTEntry e;
    assert_true(tt_resize(&tt, 1));
    tt_store(&tt, 42, 3, (Move)0x1234, SCORE_BAN - 3, 0, 8, BOUND_EXACT);
    assert_true(tt_probe(&tt, 42, 3, &e));
    assert_int_equal(e.move, 0x1234);
    assert_int_equal(e.gen_bound & 3, BOUND_NONE);
    assert_false(score_is_ban(e.score));
    tt_free(&tt);
}

/* Runs the transposition table tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resize_reports_real_size),
        cmocka_unit_test(test_mate_scores),
        cmocka_unit_test(test_ban_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
