/*
 * test_xqspsa.c - the SPSA tuner without an engine (tools/xqspsa): the parameter file; the schedule's end
 * points (c_k and a_k reach c_end and a_end = r_end * c_end^2 at the last pair, fishtest's formulas); the
 * update on a synthetic objective whose optimum is known (a fake game between the two probes, won by the
 * one nearer the optimum with a logistic probability), which theta must approach from far away, and must
 * not leave when it starts there; a session saved after some iterations and resumed ends in the very state
 * of an uninterrupted one; the state file's round trip and its refusals; reading xqmatch's summary; and the
 * shipped parameter file against src/search/search_params.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/book_move.h"
#include "search/search_params.h"
#include "testutil.h"
#include "xqspsa/spsa.h"
#include "xqspsa/spsa_config.h"
#include "xqspsa/spsa_match.h"
#include "xqspsa/spsa_state.h"

enum { SYNTH_PARAMS = 3, SYNTH_PAIRS = 6000 };

/* The synthetic objective: the optimum, and the Elo a unit of distance from it costs (squared). */
static const double OPTIMUM[SYNTH_PARAMS] = { 140, 30, 600 };
static const double ELO_SCALE[SYNTH_PARAMS] = { 0.04, 1.0, 0.002 }; /* Elo lost = scale * distance^2 */

/* A parameter's inputs, written as a config line would give them. */
static SpsaParam param(const char *name, double start, double min, double max, double c_end, double r_end)
{
    SpsaParam p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", name);
    p.start = p.theta = start;
    p.min = min;
    p.max = max;
    p.c_end = c_end;
    p.r_end = r_end;
    return p;
}

/* A session of SYNTH_PARAMS parameters starting at `start`. */
static void synth_session(Spsa *s, const double start[SYNTH_PARAMS], uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->count = SYNTH_PARAMS;
    s->param[0] = param("margin", start[0], 0, 400, 20, 0.002);
    s->param[1] = param("depth_limit", start[1], 0, 60, 3, 0.002);
    s->param[2] = param("divisor", start[2], 100, 1500, 50, 0.002);
    spsa_init(s, SYNTH_PAIRS, seed);
}

/* The synthetic Elo of a set of values: 0 at the optimum, less away from it. */
static double synth_elo(const int *values)
{
    double elo = 0;
    for (int i = 0; i < SYNTH_PARAMS; i++)
        elo -= ELO_SCALE[i] * (values[i] - OPTIMUM[i]) * (values[i] - OPTIMUM[i]);
    return elo;
}

/* The fake games (an SpsaPlayFn): each game is won by plus with the logistic probability of the Elo
 * difference, else lost, drawn from a generator seeded by the pair number, so a resumed session plays the
 * games an uninterrupted one plays. */
static bool synth_play(void *ctx, const Spsa *s, const SpsaProbe *probe, int pairs, SpsaGames *out, char *msg,
                       size_t msg_size)
{
    (void)ctx;
    (void)msg;
    (void)msg_size;
    double p = 1 / (1 + pow(10, -(synth_elo(probe->plus) - synth_elo(probe->minus)) / 400));
    uint64_t rng = 0x5eed0000ULL + (uint64_t)s->iter;
    for (int g = 0; g < 2 * pairs; g++) {
        if (spsa_random(&rng) < p)
            out->wins++;
        else
            out->losses++;
    }
    return true;
}

/* Runs a session to its end or for `iterations` iterations (0: to the end), one pair an iteration. */
static void run_iterations(Spsa *s, int64_t iterations)
{
    char msg[256];
    for (int64_t i = 0; !spsa_done(s) && (iterations == 0 || i < iterations); i++) {
        SpsaGames g;
        assert_int_equal(spsa_step(s, 1, synth_play, NULL, &g, msg, sizeof msg), 1);
    }
}

/* The parameter file's lines: six columns or four (c_end a twentieth of the range, r_end 0.002), commas or
 * blanks, comments; and its refusals. */
static void test_config_lines(void **state)
{
    (void)state;
    SpsaParam p;
    char msg[256];
    assert_int_equal(spsa_config_line("rfp_margin, 90, 20, 300, 12, 0.002 # a comment", &p, msg, sizeof msg), 1);
    assert_string_equal(p.name, "rfp_margin");
    assert_true(p.start == 90 && p.min == 20 && p.max == 300 && p.c_end == 12 && p.r_end == 0.002 && p.theta == 90);
    assert_int_equal(spsa_config_line("lmr_base 75 0 200", &p, msg, sizeof msg), 1);
    assert_true(p.c_end == 10 && p.r_end == 0.002);
    assert_int_equal(spsa_config_line("   # only a comment", &p, msg, sizeof msg), 0);
    assert_int_equal(spsa_config_line("", &p, msg, sizeof msg), 0);
    static const char *const BAD[][2] = {
        { "rfp_margin, 90, 20", "got 3 fields" },
        { "rfp_margin, 90, 20, 300, 12", "got 5 fields" },
        { "a 1 0 2 1 0.1 7", "got more than 6 fields" },
        { "rfp margin, 90, 20, 300", "fields" },
        { "rfp-margin, 90, 20, 300", "bad name 'rfp-margin'" },
        { "rfp_margin, ninety, 20, 300", "start 'ninety' is not a number" },
        { "rfp_margin, 90, 300, 20", "want min < max and start within them" },
        { "rfp_margin, 10, 20, 300", "want min < max and start within them" },
        { "rfp_margin, 90, 20, 300, 0, 0.002", "c_end and r_end must be above 0" },
        { "rfp_margin, 90, 20, 300, 12, -1", "c_end and r_end must be above 0" },
        { "rfp_margin, nan, 20, 300", "is not a number" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        msg[0] = '\0';
        assert_int_equal(spsa_config_line(BAD[i][0], &p, msg, sizeof msg), -1);
        if (!strstr(msg, BAD[i][1]))
            fail_msg("'%s': got '%s', want '%s'", BAD[i][0], msg, BAD[i][1]);
    }
}

/* Writes text to a scratch file and returns its path. */
static const char *scratch(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/test_xqspsa_%s", XQ_TEST_TMP, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* A whole parameter file, and files refused with their line number. */
static void test_config_file(void **state)
{
    (void)state;
    Spsa *s = calloc(1, sizeof *s);
    char msg[512];
    assert_true(
        spsa_config_load(scratch("ok.spsa", "# tune two\nrfp_margin, 90, 20, 300, 12, 0.002\n\nlmr_base 75 0 200\n"), s,
                         msg, sizeof msg));
    assert_int_equal(s->count, 2);
    assert_string_equal(s->param[1].name, "lmr_base");
    assert_false(spsa_config_load(scratch("twice.spsa", "a 1 0 2\nb 1 0 2\na 1 0 2\n"), s, msg, sizeof msg));
    assert_non_null(strstr(msg, "twice.spsa:3: a is given twice"));
    assert_false(spsa_config_load(scratch("empty.spsa", "# nothing\n"), s, msg, sizeof msg));
    assert_non_null(strstr(msg, "no parameter"));
    assert_false(spsa_config_load(scratch("bad.spsa", "a 1 0 2\nb 1 0\n"), s, msg, sizeof msg));
    assert_non_null(strstr(msg, "bad.spsa:2: want 'name, start, min, max[, c_end, r_end]', got 3 fields"));
    assert_false(spsa_config_load("/nonexistent/x.spsa", s, msg, sizeof msg));
    free(s);
}

/* fishtest's schedule: c_k = c / k^gamma and a_k = a / (A + k)^alpha are c_end and r_end * c_end^2 at the
 * last pair (k = N), larger before; A is a tenth of N. */
static void test_schedule(void **state)
{
    (void)state;
    Spsa s;
    memset(&s, 0, sizeof s);
    s.count = 1;
    s.param[0] = param("x", 50, 0, 100, 4, 0.002);
    spsa_init(&s, 1000, 1);
    const SpsaParam *p = &s.param[0];
    assert_float_equal(s.big_a, 100, 1e-12);
    assert_float_equal(p->c / pow(1000, SPSA_GAMMA), 4, 1e-9);
    assert_float_equal(p->a / pow(100 + 1000, SPSA_ALPHA), 0.002 * 16, 1e-12);
    SpsaProbe probe;
    spsa_probe(&s, &probe); /* k = 1 */
    assert_float_equal(probe.ck[0], p->c, 1e-12);
    assert_float_equal(probe.step[0], p->a / pow(101, SPSA_ALPHA) / p->c, 1e-12);
    assert_true(probe.flip[0] == 1 || probe.flip[0] == -1);
    /* the engines' values straddle theta by c_k, rounded down or up */
    assert_true(abs(probe.plus[0] - (int)floor(50 + probe.ck[0] * probe.flip[0])) <= 1);
    assert_true(abs(probe.minus[0] - (int)floor(50 - probe.ck[0] * probe.flip[0])) <= 1);
    /* a won pair moves theta by 2 * a_k / c_k in the plus side's direction */
    SpsaGames won = { 2, 0, 0, "" };
    spsa_update(&s, &probe, 1, &won);
    assert_float_equal(p->theta, 50 + 2 * probe.step[0] * probe.flip[0], 1e-12);
    assert_int_equal(s.iter, 1);
    assert_int_equal(s.wins, 2);
}

/* Rounding at random keeps the mean: 10.3 gives 10 seven times in ten and 11 three times. */
static void test_random_rounding_mean(void **state)
{
    (void)state;
    Spsa s;
    memset(&s, 0, sizeof s);
    s.count = 1;
    s.param[0] = param("x", 10.3, 0, 20, 0.001, 0.002); /* c_k tiny: both values round from about 10.3 */
    spsa_init(&s, 1, 7);
    double sum = 0;
    enum { DRAWS = 20000 };
    for (int i = 0; i < DRAWS; i++) {
        SpsaProbe probe;
        spsa_probe(&s, &probe);
        assert_true(probe.plus[0] == 10 || probe.plus[0] == 11);
        sum += probe.plus[0] + probe.minus[0];
    }
    assert_float_equal(sum / (2 * DRAWS), 10.3, 0.01);
}

/* theta approaches a known optimum from far away, every parameter at once: a quarter of the distance or less
 * is left (about a sixth for the divisor, a twentieth for the others, with these seeds). */
static void test_moves_toward_optimum(void **state)
{
    (void)state;
    static const double START[SYNTH_PARAMS] = { 60, 10, 1100 };
    Spsa *s = malloc(sizeof *s);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        synth_session(s, START, seed);
        run_iterations(s, 0);
        for (int i = 0; i < SYNTH_PARAMS; i++) {
            double before = fabs(START[i] - OPTIMUM[i]), after = fabs(s->param[i].theta - OPTIMUM[i]);
            if (!(after < 0.25 * before))
                fail_msg("seed %d, %s: from %g to %g, the optimum is %g", (int)seed, s->param[i].name, START[i],
                         s->param[i].theta, OPTIMUM[i]);
        }
    }
    free(s);
}

/* Started at the optimum, theta stays near it (within a few c_end). */
static void test_stays_at_optimum(void **state)
{
    (void)state;
    Spsa *s = malloc(sizeof *s);
    synth_session(s, OPTIMUM, 5);
    run_iterations(s, 0);
    for (int i = 0; i < SYNTH_PARAMS; i++)
        assert_true(fabs(s->param[i].theta - OPTIMUM[i]) < 2 * s->param[i].c_end);
    free(s);
}

/* A run of the synthetic session with settings, for the state tests. */
static void synth_run(SpsaRun *run)
{
    static const double START[SYNTH_PARAMS] = { 60, 10, 1100 };
    memset(run, 0, sizeof *run);
    run->set.engine_count = 2;
    snprintf(run->set.engine[0], SETTING_TEXT_MAX, "cmd=build/tests/jiangjun_tune -x");
    snprintf(run->set.engine[1], SETTING_TEXT_MAX, "proto=uci");
    snprintf(run->set.limit, sizeof run->set.limit, "nodes");
    snprintf(run->set.limit_value, sizeof run->set.limit_value, "2000");
    snprintf(run->set.openings, sizeof run->set.openings, "tools/xqmatch/openings/openings.txt");
    run->set.concurrency = 2;
    run->set.batch = 1;
    run->set.seed = 9;
    run->set.extra_count = 2;
    snprintf(run->set.extra[0], SETTING_TEXT_MAX, "-maxplies");
    snprintf(run->set.extra[1], SETTING_TEXT_MAX, "300");
    synth_session(&run->spsa, START, run->set.seed);
}

/* Reads a whole file into a malloc'd string. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = calloc(1, 1 << 16);
    size_t n = fread(text, 1, (1 << 16) - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* Fails unless the two files hold the same bytes; returns the first file's text (free it). */
static char *assert_same_files(const char *path1, const char *path2)
{
    char *x = slurp(path1), *y = slurp(path2);
    assert_string_equal(x, y);
    free(y);
    return x;
}

/* A synthetic run played for `iterations` iterations (0: to its end) and saved to path (test_xqspsa_NAME.state
 * in the test folder); free it. */
static SpsaRun *saved_run(const char *name, int64_t iterations, char *path, size_t size)
{
    char msg[512];
    snprintf(path, size, "%s/test_xqspsa_%s.state", XQ_TEST_TMP, name);
    SpsaRun *run = malloc(sizeof *run);
    synth_run(run);
    run_iterations(&run->spsa, iterations);
    assert_true(spsa_state_save(path, run, msg, sizeof msg));
    return run;
}

/* A session saved after some iterations and resumed from its file ends exactly as an uninterrupted one:
 * the same state file, byte for byte. */
static void test_resume_equals_uninterrupted(void **state)
{
    (void)state;
    char whole[512], parted[512], msg[512];
    SpsaRun *a = saved_run("whole", 0, whole, sizeof whole), *b = saved_run("parted", 1234, parted, sizeof parted);
    memset(b, 0xa5, sizeof *b); /* nothing but the file carries over */
    assert_true(spsa_state_load(parted, b, msg, sizeof msg));
    assert_int_equal(b->spsa.iter, 1234);
    run_iterations(&b->spsa, 0);
    assert_true(spsa_state_save(parted, b, msg, sizeof msg));

    char *text = assert_same_files(whole, parted);
    assert_non_null(strstr(text, "\niter 6000\n"));
    free(text);
    free(a);
    free(b);
}

/* A state file read back is the state written (save, load, save: the same bytes; the schedule recomputed
 * equals the one computed). */
static void test_state_round_trip(void **state)
{
    (void)state;
    char path[512], again[600], msg[512];
    SpsaRun *a = saved_run("trip", 77, path, sizeof path), *b = malloc(sizeof *b);
    snprintf(again, sizeof again, "%s.again", path);
    assert_true(spsa_state_load(path, b, msg, sizeof msg));
    assert_string_equal(b->set.engine[0], "cmd=build/tests/jiangjun_tune -x");
    assert_string_equal(b->set.extra[1], "300");
    assert_int_equal(b->set.seed, 9);
    for (int i = 0; i < SYNTH_PARAMS; i++) {
        assert_true(b->spsa.param[i].theta == a->spsa.param[i].theta);
        assert_true(b->spsa.param[i].a == a->spsa.param[i].a && b->spsa.param[i].c == a->spsa.param[i].c);
    }
    assert_true(b->spsa.rng == a->spsa.rng);
    assert_true(spsa_state_save(again, b, msg, sizeof msg));
    free(assert_same_files(path, again));
    free(a);
    free(b);
}

/* Broken state files are refused with the line that breaks them. */
static void test_state_refusals(void **state)
{
    (void)state;
    char path[512], msg[512];
    SpsaRun *run = saved_run("good", 3, path, sizeof path);
    char *good = slurp(path);
    /* each: a line replaced (from -> to), and the error wanted */
    static const char *const CASES[][3] = {
        { "xqspsa-state 1", "xqspsa-state 2", ":1: not an xqspsa state" },
        { "\niter 3\n", "\niter 3001\n", "pairs_total, iter and the results do not agree" },
        { "\nwins ", "\nwins 1", "pairs_total, iter and the results do not agree" },
        { "\nseed 9\n", "\n", "the state is not whole" },
        { "\nrng ", "\nrnd ", "unknown key 'rnd'" },
        { "param margin 60 0 400 20 0.002 ", "param margin 60 0 400 20 0.002 9", "not a number within min and max" },
        { "param depth_limit 10 0 60 3 0.002", "param depth_limit 10 0 60 3", "want 'param NAME start min max" },
        { "\nconcurrency 2\n", "\nconcurrency 0\n", "bad concurrency '0'" },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *at = strstr(good, CASES[i][0]);
        assert_non_null(at);
        char *bad = calloc(1, strlen(good) + 64);
        memcpy(bad, good, (size_t)(at - good));
        strcat(bad, CASES[i][1]);
        strcat(bad, at + strlen(CASES[i][0]));
        msg[0] = '\0';
        assert_false(spsa_state_load(scratch("bad.state", bad), run, msg, sizeof msg));
        if (!strstr(msg, CASES[i][2]))
            fail_msg("case %d: got '%s', want '%s'", (int)i, msg, CASES[i][2]);
        free(bad);
    }
    free(good);
    free(run);
}

/* xqmatch's summary read back: the result, a start failure refused, a short count refused, abnormal endings
 * noted. */
static void test_match_parse(void **state)
{
    (void)state;
    SpsaGames g;
    char msg[256];
    static const char OK[] = "Score of plus vs minus: 1 - 0 - 1  [0.750] 2  Elo 190.8 +/- inf  (2/2 games)\n\n"
                             "=== xqmatch summary: 4 games played of 4 scheduled, time control nodes 300 ===\n"
                             "plus vs minus: 4 games, W 2 L 1 D 1, score 62.5%\n"
                             "  Elo difference: 88.7 +/- 400.0 (95%), LOS 70.0%\n"
                             "  endings: mate 2, crash 1, max length 1\n";
    assert_true(spsa_match_parse(OK, 2, &g, msg, sizeof msg));
    assert_true(g.wins == 2 && g.losses == 1 && g.draws == 1);
    assert_string_equal(g.note, "crash 1");
    assert_false(spsa_match_parse(OK, 3, &g, msg, sizeof msg));
    assert_non_null(strstr(msg, "xqmatch played 4 games of 6"));
    static const char START_FAILURE[] = "\nplus vs minus: 2 games, W 0 L 2 D 0, score 0.0%\n"
                                        "  endings: start failure 2\n";
    assert_false(spsa_match_parse(START_FAILURE, 1, &g, msg, sizeof msg));
    assert_non_null(strstr(msg, "an engine did not start"));
    assert_false(spsa_match_parse("xqmatch: bad time control\n", 1, &g, msg, sizeof msg));
    assert_non_null(strstr(msg, "xqmatch printed no result"));
}

/* The shipped parameter file is the table of src/search/search_params.h: every constant, in order, its
 * default as start, its range, its step as c_end, r_end 0.002. */
static void test_shipped_config_matches_table(void **state)
{
    (void)state;
    Spsa *s = malloc(sizeof *s);
    char msg[512];
    assert_true(spsa_config_load(XQ_SPSA_PARAMS, s, msg, sizeof msg));
    assert_int_equal(s->count, SEARCH_PARAM_COUNT);
    for (int i = 0; i < SEARCH_PARAM_COUNT; i++) {
        const SearchParamInfo *info = &SEARCH_PARAM_INFO[i];
        const SpsaParam *p = &s->param[i];
        assert_string_equal(p->name, info->name);
        assert_true(p->start == info->def && p->min == info->min && p->max == info->max);
        assert_true(p->c_end == info->step && p->r_end == SPSA_R_END);
    }
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_lines),
        cmocka_unit_test(test_config_file),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_random_rounding_mean),
        cmocka_unit_test(test_moves_toward_optimum),
        cmocka_unit_test(test_stays_at_optimum),
        cmocka_unit_test(test_resume_equals_uninterrupted),
        cmocka_unit_test(test_state_round_trip),
        cmocka_unit_test(test_state_refusals),
        cmocka_unit_test(test_match_parse),
        cmocka_unit_test(test_shipped_config_matches_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
