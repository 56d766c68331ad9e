/*
 * test_search_params.c - the search's tunable constants (src/search/search_params.h): the table itself, and
 * the engine binary through its protocols. Built twice: against the normal engine (JIANGJUN_BIN = jiangjun:
 * no option, setoption changes nothing) and, with XQ_EXPECT_TUNABLE, against the tuning build
 * (jiangjun_tune: every constant is a spin option in UCI and UCCI with the table's range and default, a value
 * out of range is refused with an info string error, and a changed margin changes the node count of a search
 * to a fixed depth; every constant at its min and at its max still searches and answers a legal move).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enginepipe.h"
#include "search/search_params.h"
#include "testutil.h"

#ifndef XQ_EXPECT_TUNABLE
#define XQ_EXPECT_TUNABLE 0
#endif

enum { T_FAST = 5000, NODES_DEPTH = 8, EXTREME_DEPTH = 5 };

static const char MOVES[] = "h2e2 h9g7 h0g2"; /* a position after the book's first moves, searched by the tests */

/* The table: defaults inside their ranges, steps of at least 1 within the range, distinct lower-case names
 * (one UCCI word), the defaults struct and the constants agree, and get/set/find by index work. */
static void test_table(void **state)
{
    (void)state;
    SearchParams p;
    search_params_default(&p);
    assert_int_equal(SEARCH_PARAM_COUNT, 31);
    for (int i = 0; i < SEARCH_PARAM_COUNT; i++) {
        const SearchParamInfo *info = &SEARCH_PARAM_INFO[i];
        assert_true(info->min <= info->def && info->def <= info->max);
        assert_true(info->step >= 1 && info->step <= info->max - info->min);
        for (const char *c = info->name; *c; c++)
            assert_true(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_');
        for (int j = 0; j < i; j++)
            assert_string_not_equal(info->name, SEARCH_PARAM_INFO[j].name);
        assert_int_equal(search_param_get(&p, i), info->def);
        assert_int_equal(search_param_find(info->name), i);
        assert_false(search_param_set(&p, i, info->max + 1));
        assert_false(search_param_set(&p, i, info->min - 1));
        assert_int_equal(search_param_get(&p, i), info->def);
        assert_true(search_param_set(&p, i, info->min));
        assert_int_equal(search_param_get(&p, i), info->min);
    }
    assert_int_equal(search_param_find("no_such_param"), -1);
    search_params_default(&p);
    assert_int_equal(p.rfp_margin, SPD_rfp_margin);
    assert_int_equal(p.lmr_base, 80);
    assert_int_equal(p.lmr_divisor, 232);
    assert_int_equal(p.aspiration_window, SPD_aspiration_window);
}

/* The handshake's option lines list every constant with the table's range and default (a tuning build), or
 * none of them (a normal build). */
static void test_options_listed(void **state)
{
    (void)state;
    for (int dialect = 0; dialect < 2; dialect++) {
        EnginePipe *ep = dialect == 0 ? ep_open("uci", "uciok", T_FAST) : ep_open("ucci", "ucciok", T_FAST);
        for (int i = 0; i < SEARCH_PARAM_COUNT; i++) {
            const SearchParamInfo *info = &SEARCH_PARAM_INFO[i];
            char want[256], name[80];
            if (dialect == 0)
                snprintf(want, sizeof want, "option name %s type spin default %d min %d max %d\n", info->name,
                         info->def, info->min, info->max);
            else
                snprintf(want, sizeof want, "option %s type spin min %d max %d default %d\n", info->name, info->min,
                         info->max, info->def);
            snprintf(name, sizeof name, " %s ", info->name);
            if (XQ_EXPECT_TUNABLE)
                assert_non_null(strstr(ep->transcript, want));
            else
                assert_null(strstr(ep->transcript, name));
        }
        ep_close(ep, dialect == 0 ? NULL : "bye", T_FAST);
    }
}

/* The nodes of a UCI search of MOVES' position to depth (after ucinewgame: nothing learned before counts). */
static long nodes_at_depth(EnginePipe *ep, int depth)
{
    Position pos;
    ep_send(ep, "ucinewgame");
    ep_send(ep, "position startpos moves %s", MOVES);
    ep_send(ep, "go depth %d", depth);
    test_setup_moves(&pos, NULL, MOVES);
    long nodes = -1;
    while (ep_read_line(ep, T_FAST)) {
        const char *n = strstr(ep->last, " nodes ");
        if (strncmp(ep->last, "info", 4) == 0 && n)
            nodes = atol(n + 7);
        if (strncmp(ep->last, "bestmove", 8) == 0) {
            ep_check_bestmove(ep->last, &pos, false);
            return nodes;
        }
    }
    fail_msg("no bestmove");
    return -1;
}

/* A changed margin changes the search (a tuning build) or nothing (a normal build); setting the default back
 * gives the default's search again. */
static void test_option_changes_search(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    long base = nodes_at_depth(ep, NODES_DEPTH);
    assert_true(base > 0);
    static const char *const CHANGES[][2] = { { "rfp_margin", "40" },         { "futility_per_depth", "30" },
                                              { "lmr_base", "150" },          { "null_base_reduction", "1" },
                                              { "history_bonus_max", "300" }, { "aspiration_window", "8" } };
    for (size_t i = 0; i < sizeof CHANGES / sizeof CHANGES[0]; i++) {
        ep_send(ep, "setoption name %s value %s", CHANGES[i][0], CHANGES[i][1]);
        long changed = nodes_at_depth(ep, NODES_DEPTH);
        if (XQ_EXPECT_TUNABLE)
            assert_true(changed != base);
        else
            assert_int_equal(changed, base);
        ep_send(ep, "setoption name %s value %d", CHANGES[i][0],
                SEARCH_PARAM_INFO[search_param_find(CHANGES[i][0])].def);
        assert_int_equal(nodes_at_depth(ep, NODES_DEPTH), base);
    }
    ep_close(ep, NULL, T_FAST);
}

#if XQ_EXPECT_TUNABLE
/* A value outside the range gets one info string error (in either dialect's form of setoption), keeps the
 * old value and so the old search. */
static void test_out_of_range_refused(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    long base = nodes_at_depth(ep, NODES_DEPTH);
    ep_send(ep, "setoption name rfp_margin value 301");
    ep_must(ep, "info string error: bad value '301' for option rfp_margin (allowed 20..300); kept 82", T_FAST);
    ep_send(ep, "setoption name RFP_Margin value 19");
    ep_must(ep, "info string error: bad value '19' for option rfp_margin (allowed 20..300); kept 82", T_FAST);
    ep_send(ep, "setoption name lmr_divisor value ten");
    ep_must(ep, "info string error: bad value 'ten' for option lmr_divisor (allowed 100..400); kept 232", T_FAST);
    assert_int_equal(nodes_at_depth(ep, NODES_DEPTH), base);
    ep_close(ep, NULL, T_FAST);

    ep = ep_open("ucci", "ucciok", T_FAST);
    ep_send(ep, "setoption aspiration_window 0");
    ep_must(ep, "info string error: bad value '0' for option aspiration_window (allowed 5..100); kept 25", T_FAST);
    ep_close(ep, "bye", T_FAST);
}

/* Every constant at its min, then at its max (one at a time), still searches and answers a legal move. */
static void test_extremes_search(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    for (int i = 0; i < SEARCH_PARAM_COUNT; i++) {
        const SearchParamInfo *info = &SEARCH_PARAM_INFO[i];
        int values[2] = { info->min, info->max };
        for (int k = 0; k < 2; k++) {
            ep_send(ep, "setoption name %s value %d", info->name, values[k]);
            assert_true(nodes_at_depth(ep, EXTREME_DEPTH) > 0);
        }
        ep_send(ep, "setoption name %s value %d", info->name, info->def);
    }
    char out[4096];
    ep_reply(ep, out, sizeof out, T_FAST);
    assert_null(strstr(out, "error"));
    ep_close(ep, NULL, T_FAST);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_options_listed),
        cmocka_unit_test(test_option_changes_search),
#if XQ_EXPECT_TUNABLE
        cmocka_unit_test(test_out_of_range_refused),
        cmocka_unit_test(test_extremes_search),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
