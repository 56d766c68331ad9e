/*
 * test_strength.c - the strength limits and the win/draw/loss model: the
 * node cap grows and the noise shrinks with the level, full strength has
 * neither, UCCI randomness adds noise at full strength; UCI_Elo maps onto
 * the levels monotonically and within the table; a position's noise is
 * fixed by its key and the seed, within its amplitude, centred; WDL sums to
 * 1000, mirrors for the other side, rises with the score, gives wins for
 * mates and matches the fitted model (tools/wdl/wdl_fit.py's printout).
 */
#include <math.h>
#include <stdlib.h>

#include "eval/score.h"
#include "search/strength.h"
#include "testutil.h"
#include "eval/wdl.h"

enum { NOISE_SAMPLES = 20000, FULL = SKILL_MAX * SKILL_CENTI };

/* Levels: caps and noise move the right way; full strength is unlimited and exact. */
static void test_levels(void **state)
{
    (void)state;
    StrengthPlan full = strength_plan(FULL, 0), zero = strength_plan(0, 0);
    assert_int_equal(full.nodes, 0);
    assert_int_equal(full.noise, 0);
    assert_int_equal(zero.nodes, 32);
    assert_int_equal(zero.noise, 200);
    assert_int_equal(strength_plan(1000, 0).nodes, 1024);
    uint64_t last_nodes = 0;
    int last_noise = 1 << 20;
    for (int level = 0; level < FULL; level += 25) {
        StrengthPlan p = strength_plan(level, 0);
        assert_true(p.nodes >= last_nodes && p.nodes > 0);
        assert_true(p.noise <= last_noise && p.noise > 0);
        last_nodes = p.nodes;
        last_noise = p.noise;
    }
    assert_int_equal(strength_plan(FULL, RANDOMNESS_LEVELS - 1).noise, 160);
    assert_int_equal(strength_plan(FULL, 1).nodes, 0);
    assert_int_equal(strength_plan(0, 1).noise, 200); /* the larger amplitude counts */
}

/* UCI_Elo: monotonic, the table's ends are its range, beyond it clamped. */
static void test_elo_table(void **state)
{
    (void)state;
    assert_int_equal(strength_level_for_elo(STRENGTH_ELO_MIN), 0);
    assert_int_equal(strength_level_for_elo(STRENGTH_ELO_MIN - 500), 0);
    int top = strength_level_for_elo(STRENGTH_ELO_MAX);
    assert_true(top > 0 && top < FULL);
    assert_int_equal(strength_level_for_elo(STRENGTH_ELO_MAX + 500), top);
    int last = -1;
    for (int elo = STRENGTH_ELO_MIN; elo <= STRENGTH_ELO_MAX; elo++) {
        int level = strength_level_for_elo(elo);
        assert_true(level >= last);
        last = level;
    }
}

/* Noise: fixed per key and seed, within the amplitude, about zero on average, other seeds other values. */
static void test_noise(void **state)
{
    (void)state;
    long sum = 0;
    int differ = 0, lo = 0, hi = 0;
    for (int i = 0; i < NOISE_SAMPLES; i++) {
        uint64_t key = (uint64_t)i * 0x9E3779B97F4A7C15ULL + 12345;
        int v = strength_noise(key, 42, 50);
        assert_int_equal(v, strength_noise(key, 42, 50));
        assert_true(v >= -50 && v <= 50);
        lo += v == -50;
        hi += v == 50;
        sum += v;
        differ += v != strength_noise(key, 43, 50);
    }
    assert_true(labs(sum) < NOISE_SAMPLES * 2L); /* mean within +-2 of 0 */
    assert_true(differ > NOISE_SAMPLES * 9 / 10);
    assert_true(lo > 0 && hi > 0);
    assert_int_equal(strength_noise(99, 1, 0), 0);
}

/* WDL: per mille, mirrored, monotonic, mates decided, the fitted values. */
static void test_wdl(void **state)
{
    (void)state;
    for (int m = 0; m <= 16; m++) {
        int last_win = -1;
        for (int s = -3000; s <= 3000; s += 10) {
            Wdl w = wdl_from_score(s, m), o = wdl_from_score(-s, m);
            assert_int_equal(w.win + w.draw + w.loss, 1000);
            assert_true(w.win >= 0 && w.draw >= 0 && w.loss >= 0);
            assert_int_equal(w.win, o.loss);
            assert_true(w.win >= last_win);
            last_win = w.win;
        }
    }
    Wdl mate = wdl_from_score(SCORE_MATE - 5, 10), mated = wdl_from_score(-SCORE_MATE + 4, 10);
    assert_int_equal(mate.win, 1000);
    assert_int_equal(mated.loss, 1000);
    assert_int_equal(wdl_from_score(SCORE_BAN - 3, 10).win, 1000);
    /* The model's closed form with libm's exp, computed here independently of wdl.c's own exp: win =
     * 1000 / (1 + exp(-(s - a) / b)), loss the same at -s, a = A0 + A1 m / 16, b = B0 + B1 m / 16, with the
     * constants tools/wdl/wdl_fit.py printed for the default net's games (commit 74f5811: A0 505, A1 -310,
     * B0 67, B1 340; restate them here when the model is refitted). Every score and material, to 1 per mille. */
    enum { FIT_A0 = 505, FIT_A1 = -310, FIT_B0 = 67, FIT_B1 = 340, FIT_M_MAX = 16 };
    for (int m = 0; m <= FIT_M_MAX; m++)
        for (int s = -2000; s <= 2000; s += 25) {
            double a = FIT_A0 + (double)FIT_A1 * m / FIT_M_MAX, b = FIT_B0 + (double)FIT_B1 * m / FIT_M_MAX;
            double win = 1000.0 / (1.0 + exp(-(s - a) / b)), loss = 1000.0 / (1.0 + exp(-(-s - a) / b));
            Wdl w = wdl_from_score(s, m);
            if (fabs(w.win - win) > 1.0 || fabs(w.loss - loss) > 1.0)
                fail_msg("wdl(%d, m %d) = %d/%d, closed form %.1f/%.1f", s, m, w.win, w.loss, win, loss);
        }
    /* and wdl_fit.py's own printout at three points (442/232/326, 302/690/8, 490/409/101) */
    static const struct { int m, s, win, loss; } FIT[] = {
        { 16, 100, 442, 326 }, { 4, 300, 302, 8 }, { 10, 300, 490, 101 },
    };
    for (size_t i = 0; i < sizeof FIT / sizeof FIT[0]; i++) {
        Wdl w = wdl_from_score(FIT[i].s, FIT[i].m);
        assert_true(abs(w.win - FIT[i].win) <= 3);
        assert_true(abs(w.loss - FIT[i].loss) <= 3);
    }
    Position pos;
    test_setup(&pos, START_FEN);
    assert_int_equal(wdl_material(&pos), 16);
    test_setup(&pos, "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    assert_int_equal(wdl_material(&pos), 0);
    test_setup(&pos, "3k5/9/9/9/9/9/9/2R6/4n4/4K4 w - - 0 1");
    assert_int_equal(wdl_material(&pos), 3);
}

/* Runs the strength and WDL tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_elo_table),
        cmocka_unit_test(test_noise),
        cmocka_unit_test(test_wdl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
