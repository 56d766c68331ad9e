/*
 * test_xqmatch_stats.c - Elo, error bar, LOS and SPRT arithmetic against
 * known values (Elo table values such as 75% = +190.85; LOS = Phi((W-L)/sqrt(W+L));
 * Wald bounds ln(beta/(1-alpha)); LLR values worked out by hand from the
 * documented formula).
 */
#include <math.h>

#include "xqmatch/stats.h"
#include "testutil.h"

static const double EPS = 0.01;

/* Logistic Elo of well-known scores. */
static void test_elo_of_score(void **state)
{
    (void)state;
    assert_float_equal(stats_elo_from_score(0.5), 0.0, 1e-9);
    assert_float_equal(stats_elo_from_score(0.75), 190.85, EPS);
    assert_float_equal(stats_elo_from_score(0.25), -190.85, EPS);
    assert_float_equal(stats_elo_from_score(0.64), 99.95, EPS);
    assert_float_equal(stats_score_from_elo(400.0), 10.0 / 11.0, 1e-9);
    assert_true(isinf(stats_elo_from_score(1.0)));
}

/* Elo, 95% error bar and LOS of whole results. */
static void test_elo_estimate(void **state)
{
    (void)state;
    EloEstimate e = stats_elo((Score){ 60, 40, 100 });
    assert_float_equal(e.score, 0.55, 1e-9);
    assert_float_equal(e.elo, 34.86, EPS);
    assert_float_equal(e.error95, 34.16, EPS);
    assert_float_equal(e.los, 0.97725, 1e-4);
    e = stats_elo((Score){ 30, 10, 10 });
    assert_float_equal(e.elo, 147.19, EPS);
    assert_float_equal(e.error95, 95.14, EPS);
    assert_float_equal(e.los, 0.99922, 1e-4);
    e = stats_elo((Score){ 10, 10, 0 });
    assert_float_equal(e.elo, 0.0, 1e-9);
    assert_float_equal(e.los, 0.5, 1e-9);
    e = stats_elo((Score){ 2, 0, 0 });
    assert_true(isinf(e.elo) && e.elo > 0);
    assert_true(isinf(e.error95));
    e = stats_elo((Score){ 0, 0, 0 });
    assert_float_equal(e.elo, 0.0, 1e-9);
}

/* The SPRT's LLR written out again from its definition in stats.c's header (a second implementation, for
 * the values below): LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var), s the mean score, s0 and s1 the scores of
 * elo0 and elo1 (1 / (1 + 10^(-elo/400))), var the per-game variance of the results with one pseudo-game of
 * each kind added. For 600/500/900 at 0/10: s = 0.525, s1 = 0.514387, var = 0.136921, LLR 3.74208. */
static double llr_by_hand(int wins, int losses, int draws, double elo0, double elo1)
{
    double n = wins + losses + draws, mean = (wins + 0.5 * draws) / n;
    double s0 = 1.0 / (1.0 + pow(10.0, -elo0 / 400.0)), s1 = 1.0 / (1.0 + pow(10.0, -elo1 / 400.0));
    double w = wins + 1.0, l = losses + 1.0, d = draws + 1.0, t = w + l + d, pm = (w + 0.5 * d) / t;
    double var = (w * (1 - pm) * (1 - pm) + l * pm * pm + d * (0.5 - pm) * (0.5 - pm)) / t;
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
}

/* SPRT bounds, LLR and decisions. */
static void test_sprt(void **state)
{
    (void)state;
    SprtParams p = { 0.0, 10.0, 0.05, 0.05 };
    SprtStatus st = stats_sprt((Score){ 0, 0, 0 }, &p);
    assert_float_equal(st.lower, log(0.05 / 0.95), 1e-12); /* Wald: ln(beta / (1 - alpha)), -2.9444 */
    assert_float_equal(st.upper, log(0.95 / 0.05), 1e-12); /* ln((1 - beta) / alpha), 2.9444 */
    assert_int_equal(st.state, SPRT_CONTINUE);
    st = stats_sprt((Score){ 600, 500, 900 }, &p);
    assert_float_equal(st.llr, 3.7421, 1e-3);
    assert_int_equal(st.state, SPRT_ACCEPT_H1);
    st = stats_sprt((Score){ 500, 600, 900 }, &p);
    assert_float_equal(st.llr, -6.7656, 1e-3);
    assert_int_equal(st.state, SPRT_ACCEPT_H0);
    st = stats_sprt((Score){ 55, 50, 95 }, &p);
    assert_int_equal(st.state, SPRT_CONTINUE);
    SprtParams q = { 0.0, 5.0, 0.1, 0.2 };
    st = stats_sprt((Score){ 0, 0, 1 }, &q);
    assert_float_equal(st.lower, log(0.2 / 0.9), 1e-9);
    assert_float_equal(st.upper, log(0.8 / 0.1), 1e-9);
    /* One game decides nothing (a single loss once gave -3.03 with elo1 40: H0 after one game) */
    SprtParams wide = { 0.0, 40.0, 0.05, 0.05 };
    st = stats_sprt((Score){ 0, 1, 0 }, &wide);
    assert_float_equal(st.llr, -0.1763, 1e-3);
    assert_int_equal(st.state, SPRT_CONTINUE);
    st = stats_sprt((Score){ 0, 1, 1 }, &wide);
    assert_float_equal(st.llr, -0.2281, 1e-3);
    assert_int_equal(st.state, SPRT_CONTINUE);
    /* the library against the definition over a grid of results */
    for (int w = 0; w <= 60; w += 6)
        for (int l = 0; l <= 60; l += 6)
            for (int d = 0; d <= 60; d += 12) {
                if (w + l + d == 0)
                    continue;
                assert_float_equal(stats_sprt((Score){ w, l, d }, &wide).llr, llr_by_hand(w, l, d, 0.0, 40.0), 1e-9);
                assert_float_equal(stats_sprt((Score){ w, l, d }, &p).llr, llr_by_hand(w, l, d, 0.0, 10.0), 1e-9);
            }
    assert_float_equal(llr_by_hand(600, 500, 900, 0.0, 10.0), 3.7421, 1e-3);
    assert_float_equal(llr_by_hand(500, 600, 900, 0.0, 10.0), -6.7656, 1e-3);
    assert_float_equal(llr_by_hand(0, 1, 0, 0.0, 40.0), -0.1763, 1e-3);
    assert_float_equal(llr_by_hand(0, 1, 1, 0.0, 40.0), -0.2281, 1e-3);
    /* One-sided runs still decide (the prior's spread): all wins decide after 21 games */
    int n = 0;
    do {
        st = stats_sprt((Score){ ++n, 0, 0 }, &p);
    } while (st.state == SPRT_CONTINUE && n < 1000);
    assert_int_equal(st.state, SPRT_ACCEPT_H1);
    assert_int_equal(n, 21);
}

/* Runs the statistics tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_of_score),
        cmocka_unit_test(test_elo_estimate),
        cmocka_unit_test(test_sprt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
