/*
 * test_protocol_analysis.c - threads, MultiPV, analysis output and strength
 * limits through the real binary, in both dialects: the options are
 * advertised with honest ranges and out-of-range values are clamped with an
 * info string; MultiPV prints N distinct legal lines (fewer with searchmoves,
 * banmoves or few legal moves); UCI_ShowWDL adds per-mille triples; currmove
 * is announced in a long search; probe is answered during a four-thread
 * search; stop, quit, ponderhit and end of input end a four-thread search at
 * once with one bestmove and nothing after it;
 * Threads and Hash sent during a search wait for its end; UCI_LimitStrength /
 * UCI_Elo in UCCI form cap the search. CI runs it under ThreadSanitizer too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enginepipe.h"
#include "board/move.h"
#include "testutil.h"

enum { T_FAST = 5000, PONDERHIT_ALLOWED_MS = 1500, QUIET_MS = 300, LINES = 3, MAX_LINES = 8, WDL_SUM = 1000,
       PROBES = 20 };

static Position POS;
static char reply[1 << 16];

/* Sets POS to the start position plus moves. */
static void track(const char *moves) { test_setup_moves(&POS, NULL, moves); }

/* The integer after " key " in line, or -1. */
static long field(const char *line, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s ", key);
    const char *p = strstr(line, pat);
    return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

/* The first pv move of an info line into out (empty if none). */
static void first_pv(const char *line, char out[8])
{
    const char *p = strstr(line, " pv ");
    out[0] = '\0';
    if (p)
        sscanf(p + 4, "%7s", out);
}

/* The exact lines of the deepest iteration of a search, by multipv number (1-based). */
typedef struct Lines {
    int depth, count;
    char first[MAX_LINES + 1][8];
} Lines;

/* Reads until bestmove, checking PVs; keeps the exact lines of the deepest depth (UCI or UCCI). */
static void read_lines(EnginePipe *ep, Lines *l)
{
    memset(l, 0, sizeof *l);
    int64_t deadline = ep_now_ms() + T_FAST;
    while (ep_read_line(ep, (int)(deadline - ep_now_ms() > 0 ? deadline - ep_now_ms() : 0))) {
        const char *s = ep->last;
        if (strncmp(s, "bestmove", 8) == 0) {
            ep_check_bestmove(s, &POS, false);
            return;
        }
        if (strncmp(s, "info depth", 10) != 0 || strstr(s, "bound") || !strstr(s, " pv "))
            continue;
        ep_check_pv(s, &POS);
        long depth = field(s, "depth"), k = field(s, "multipv");
        if (k < 0)
            k = 1;
        assert_true(k >= 1 && k <= MAX_LINES);
        if (depth > l->depth) {
            l->depth = (int)depth;
            l->count = 0;
        }
        if (depth == l->depth) {
            first_pv(s, l->first[k]);
            if (k > l->count)
                l->count = (int)k;
        }
    }
    fail_msg("no bestmove");
}

/* The first moves of lines 1..count differ from one another. */
static void assert_distinct(const Lines *l)
{
    for (int i = 1; i <= l->count; i++) {
        assert_true(l->first[i][0]);
        for (int j = 1; j < i; j++)
            assert_string_not_equal(l->first[i], l->first[j]);
    }
}

/* The options of this issue, advertised in both dialects with their ranges. */
static void test_options_advertised(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    static const char *const UCI[] = {
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 128",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default ",
        "option name Skill Level type spin default 20 min 0 max 20",
    };
    for (size_t i = 0; i < sizeof UCI / sizeof UCI[0]; i++)
        if (!strstr(ep->transcript, UCI[i]))
            fail_msg("missing '%s'", UCI[i]);
    ep_send(ep, "ucci");
    ep_must(ep, "ucciok", T_FAST);
    static const char *const UCCI[] = {
        "option threads type spin min 1 max 256 default 1", "option multipv type spin min 1 max 128 default 1",
        "option limitstrength type check default false", "option skilllevel type spin min 0 max 20 default 20",
        "option randomness type combo var none var tiny",
    };
    for (size_t i = 0; i < sizeof UCCI / sizeof UCCI[0]; i++)
        if (!strstr(ep->transcript, UCCI[i]))
            fail_msg("missing '%s'", UCCI[i]);
    /* out of range: clamped, said so */
    static const struct { const char *set, *said; } CLAMP[] = {
        { "setoption name Skill Level value -3", "info string skilllevel -3 is out of range 0..20: using 0" },
        { "setoption Skill Level 99", "info string skilllevel 99 is out of range 0..20: using 20" },
        { "setoption UCI_Elo 5", "info string elo 5 is out of range " },
        { "setoption UCI_Elo 999999999999999999999", "is out of range " },
        { "setoption multipv -1", "info string multipv -1 is out of range 1..128: using 1" },
        { "setoption threads 0", "info string threads 0 is out of range 1..256: using 1" },
#if !defined(__SANITIZE_THREAD__) /* 256 threads take ThreadSanitizer over ten seconds to start */
        { "setoption threads 100000000000000000000000",
          "threads 100000000000000000000000 is out of range 1..256: using 256" },
        { "setoption threads 1", "" },
#endif
    };
    for (size_t i = 0; i < sizeof CLAMP / sizeof CLAMP[0]; i++) {
        ep_send(ep, "%s", CLAMP[i].set);
        ep_reply(ep, reply, sizeof reply, T_FAST);
        if (!strstr(reply, CLAMP[i].said))
            fail_msg("'%s' answered '%s'", CLAMP[i].set, reply);
    }
    ep_close(ep, NULL, T_FAST);
}

/* MultiPV in UCI: N distinct lines; with searchmoves only those; with two threads too. */
static void test_multipv_uci(void **state)
{
    (void)state;
    EnginePipe *ep = malloc(sizeof *ep);
    Lines l;
    ep_start(ep);
    ep_send(ep, "uci");
    ep_send(ep, "setoption name MultiPV value %d", LINES);
    ep_send(ep, "setoption name UCI_ShowWDL value true");
    ep_send(ep, "position startpos moves h2e2");
    ep_send(ep, "go depth 8");
    track("h2e2");
    read_lines(ep, &l);
    assert_int_equal(l.depth, 8);
    assert_int_equal(l.count, LINES);
    assert_distinct(&l);
    char best[8];
    sscanf(ep->last, "bestmove %7s", best);
    assert_string_equal(best, l.first[1]);
    /* every line had a wdl triple summing to 1000 */
    int wdl = 0;
    for (const char *p = ep->transcript; (p = strstr(p, " wdl ")) != NULL; p++, wdl++) {
        int w, d, lo;
        assert_int_equal(sscanf(p, " wdl %d %d %d", &w, &d, &lo), 3);
        assert_int_equal(w + d + lo, WDL_SUM);
    }
    assert_true(wdl >= LINES * 8);
    /* searchmoves with two moves: two lines, those two */
    ep_send(ep, "setoption name Threads value 2");
    ep_send(ep, "setoption name MultiPV value 5");
    ep_send(ep, "go depth 7 searchmoves h9g7 b9c7");
    read_lines(ep, &l);
    assert_int_equal(l.count, 2);
    assert_distinct(&l);
    for (int i = 1; i <= 2; i++)
        assert_true(strcmp(l.first[i], "h9g7") == 0 || strcmp(l.first[i], "b9c7") == 0);
    ep_close(ep, NULL, T_FAST);
}

/* MultiPV in UCCI: "multipv k" lines, banned moves never among them, one legal move gives one line. */
static void test_multipv_ucci(void **state)
{
    (void)state;
    EnginePipe *ep = malloc(sizeof *ep);
    Lines l;
    ep_start(ep);
    ep_send(ep, "ucci");
    ep_send(ep, "setoption multipv 4");
    ep_send(ep, "position startpos");
    ep_send(ep, "banmoves h2e2 b2e2");
    ep_send(ep, "go depth 7");
    track("");
    read_lines(ep, &l);
    assert_int_equal(l.count, 4);
    assert_distinct(&l);
    for (int i = 1; i <= 4; i++)
        assert_true(strcmp(l.first[i], "h2e2") != 0 && strcmp(l.first[i], "b2e2") != 0);
    assert_non_null(strstr(ep->transcript, "info depth 7 score "));
    assert_non_null(strstr(ep->transcript, " multipv 4 pv "));
    ep_send(ep, "position fen 4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    ep_send(ep, "go depth 4");
    test_setup(&POS, "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    read_lines(ep, &l);
    assert_int_equal(l.count, 1);
    ep_close(ep, "bye", T_FAST);
}

/* Reads lines until bestmove (in time, legal), then nothing more may come: no late info, no second bestmove. */
static void one_bestmove_then_quiet(EnginePipe *ep)
{
    assert_true(ep_wait_bestmove(ep, &POS, PONDERHIT_ALLOWED_MS + EP_LOAD_SLACK_MS));
    assert_true(ep_quiet_for(ep, "", QUIET_MS));
}

/* Four threads: stop, ponderhit, quit and end of input each end the search at once; currmove shows. */
static void test_four_threads_end_cleanly(void **state)
{
    (void)state;
    EnginePipe *ep = malloc(sizeof *ep);
    ep_start(ep);
    ep_send(ep, "uci");
    ep_send(ep, "setoption name Threads value 4");
    ep_send(ep, "position startpos");
    ep_send(ep, "go infinite");
    track("");
    ep_must(ep, "info currmove ", T_FAST); /* once the search is a second old */
    assert_non_null(strstr(ep->last, " currmovenumber "));
    assert_null(strstr(ep->transcript, "bestmove"));
    /* probe while four threads write the table: answered (by the main thread), no race (TSan) */
    for (int i = 0; i < PROBES; i++) {
        ep_send(ep, "probe startpos moves h2e2");
        ep_must(ep, "pophash", T_FAST);
    }
    /* Threads and Hash during the search wait for its end */
    ep_send(ep, "setoption name Threads value 3");
    ep_send(ep, "setoption name Hash value 8");
    ep_send(ep, "isready");
    ep_must(ep, "readyok", T_FAST);
    assert_true(ep_quiet_for(ep, "bestmove", 100));
    int64_t t0 = ep_now_ms();
    ep_send(ep, "stop");
    one_bestmove_then_quiet(ep);
    assert_true(ep_within(t0, 0)); /* only stop, quit or the end of input ends it */
    /* ponder, then ponderhit: the clock runs from ponderhit, the move comes in time */
    ep_send(ep, "position startpos moves h2e2 h9g7");
    track("h2e2 h9g7");
    ep_send(ep, "go ponder wtime 2000 btime 2000");
    assert_true(ep_quiet_for(ep, "bestmove", 200));
    t0 = ep_now_ms();
    ep_send(ep, "ponderhit");
    one_bestmove_then_quiet(ep);
    assert_true(ep_within(t0, PONDERHIT_ALLOWED_MS)); /* 2 s on the clock from ponderhit */
    /* quit during a search */
    ep_send(ep, "go infinite");
    assert_true(ep_quiet_for(ep, "bestmove", 200));
    t0 = ep_now_ms();
    ep_send(ep, "quit");
    assert_int_equal(ep_finish(ep, T_FAST), 0);
    assert_true(ep_within(t0, 0)); /* only stop, quit or the end of input ends it */
    /* end of input during an infinite search */
    ep_start(ep);
    ep_send(ep, "ucci");
    ep_send(ep, "setoption threads 4");
    ep_send(ep, "position startpos");
    ep_send(ep, "go infinite");
    assert_true(ep_quiet_for(ep, "bestmove", 200));
    t0 = ep_now_ms();
    assert_int_equal(ep_finish(ep, T_FAST), 0);
    assert_true(ep_within(t0, 0)); /* only stop, quit or the end of input ends it */
    const char *first = strstr(ep->transcript, "bestmove"), *second = first ? strstr(first + 1, "bestmove") : NULL;
    assert_non_null(first);
    assert_null(second);
    free(ep);
}

/* The node count of the last line of the transcript with one. */
static long last_nodes(const char *t)
{
    long nodes = -1;
    for (const char *p = t; (p = strstr(p, " nodes ")) != NULL; p++)
        nodes = strtol(p + 7, NULL, 10);
    return nodes;
}

/* UCI_LimitStrength + UCI_Elo sent in UCCI form (Fairy-Stockfish's clients) cap the nodes of go nodes;
 * randomness at full strength keeps the search whole; Skill Level 0 still plays a searched move. */
static void test_strength_limits(void **state)
{
    (void)state;
    EnginePipe *ep = malloc(sizeof *ep);
    ep_start(ep);
    ep_send(ep, "ucci");
    ep_send(ep, "setoption UCI_LimitStrength true");
    ep_send(ep, "setoption UCI_Elo 1000");
    ep_send(ep, "position startpos");
    ep_send(ep, "go nodes 30000");
    track("");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    long limited = last_nodes(ep->transcript);
    assert_true(limited > 0 && limited < 5000);
    ep->t_len = 0;
    ep->transcript[0] = '\0';
    ep_send(ep, "setoption UCI_LimitStrength false");
    ep_send(ep, "setoption randomness small");
    ep_send(ep, "go nodes 30000");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_non_null(strstr(ep->transcript, "info depth 6 score ")); /* the whole budget: deeper */
    ep_send(ep, "setoption Skill Level 0");
    ep_send(ep, "go nodes 30000");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_non_null(strstr(ep->transcript, "info depth 1 score "));
    ep_close(ep, "bye", T_FAST);
}

/* Runs the analysis dialogs. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_advertised),
        cmocka_unit_test(test_multipv_uci),
        cmocka_unit_test(test_multipv_ucci),
        cmocka_unit_test(test_four_threads_end_cleanly),
        cmocka_unit_test(test_strength_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
