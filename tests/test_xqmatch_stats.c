/*
 * test_xqmatch_stats.c - Elo, error bar, LOS and SPRT arithmetic against
 * known values (Elo table values such as 75% = +190.85; LOS = Phi((W-L)/sqrt(W+L));
 * Wald bounds ln(beta/(1-alpha)); LLR values worked out by hand from the
 * documented formula).
 */
#include <math.h>

#include "stats.h"
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

/* SPRT bounds, LLR and decisions. */
static void test_sprt(void **state)
{
    (void)state;
    SprtParams p = { 0.0, 10.0, 0.05, 0.05 };
    SprtStatus st = stats_sprt((Score){ 0, 0, 0 }, &p);
    assert_float_equal(st.lower, -2.9444, 1e-4);
    assert_float_equal(st.upper, 2.9444, 1e-4);
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
