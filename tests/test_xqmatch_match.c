/*
 * test_xqmatch_match.c - short real matches run by xqmatch's match code
 * between fake engines (tests/fake_engine.c) in all three protocols, and
 * against deliberately broken ones: each failure must be ruled a loss for
 * the engine at fault, with the right reason.
 *
 * usage: test_xqmatch_match PATH_TO_FAKE_ENGINE [PATH_TO_JIANGJUN]
 * With the second argument, Jiangjun also plays itself (UCCI against UCI).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xqmatch/match.h"
#include "tbtest.h"
#include "testutil.h"

enum { FAST_HANG_MS = 300 };

/* What every test gets: the fake engine's path. */
typedef struct MatchTestEnv {
    const char *fake;
    const char *jiangjun; /* NULL: skip the self-play test */
} MatchTestEnv;

/* A config with two fake engines at fixed depth and short games. */
static MatchConfig *base_config(const MatchTestEnv *env, const char *args_a, const char *args_b)
{
    MatchConfig *cfg = calloc(1, sizeof *cfg);
    assert_non_null(cfg);
    cfg->engine_count = 2;
    const char *args[2] = { args_a, args_b };
    for (int i = 0; i < 2; i++) {
        EngineConfig *e = &cfg->engines[i];
        snprintf(e->name, sizeof e->name, "fake%c", 'A' + i);
        snprintf(e->cmd, sizeof e->cmd, "%s %s", env->fake, args[i]);
        e->proto = PROTO_UCCI;
    }
    cfg->rounds = 1;
    cfg->concurrency = 2;
    cfg->tc.kind = TC_DEPTH;
    cfg->tc.depth = 1;
    cfg->tc.hang_ms = 5000;
    cfg->tc.margin_ms = 50;
    cfg->adj.max_plies = 60;
    cfg->adj.rules = &rules_asian;
    cfg->init_timeout_ms = 3000;
    cfg->event = "test";
    cfg->quiet = true;
    assert_true(openings_default(&cfg->book));
    return cfg;
}

/* Runs a match quietly. */
static MatchResult *run(MatchConfig *cfg)
{
    MatchResult *res = calloc(1, sizeof *res);
    FILE *out = fopen("/dev/null", "w");
    assert_true(match_run(cfg, res, out));
    fclose(out);
    return res;
}

/* Frees a config and a result. */
static void done(MatchConfig *cfg, MatchResult *res)
{
    openings_free(&cfg->book);
    free(cfg);
    free(res);
}

/* Engine B misbehaves in both games; A must win both for `reason`. */
static void expect_b_loses(const MatchTestEnv *env, const char *b_args, EndReason reason, MatchConfig *cfg)
{
    if (!cfg)
        cfg = base_config(env, "--seed 1", b_args);
    MatchResult *res = run(cfg);
    const PairResult *p = &res->pairs[0];
    if (p->score.wins != 2 || p->reasons[reason] != 2)
        fail_msg("B (%s): wins %d losses %d draws %d, %s %d", b_args, p->score.wins, p->score.losses,
                 p->score.draws, end_reason_name(reason), p->reasons[reason]);
    done(cfg, res);
}

/* Random movers in UCCI, UCI and UCI ranks 1-10, round robin, with PGN output. */
static void test_three_protocols(void **state)
{
    const MatchTestEnv *env = *state;
    MatchConfig *cfg = base_config(env, "--seed 3", "--seed 4");
    cfg->engine_count = 3;
    cfg->engines[1].proto = PROTO_UCI;
    EngineConfig *c = &cfg->engines[2];
    snprintf(c->name, sizeof c->name, "fakeC");
    snprintf(c->cmd, sizeof c->cmd, "%s --seed 5 --ranks10", env->fake);
    c->proto = PROTO_UCI10;
    cfg->tournament = TOURNAMENT_ROUND_ROBIN;
    char pgn[] = "/tmp/xqmatch_test_XXXXXX";
    int fd = mkstemp(pgn);
    assert_true(fd >= 0);
    cfg->pgn_path = pgn;
    MatchResult *res = run(cfg);
    assert_int_equal(res->pair_count, 3);
    assert_int_equal(res->games_played, 6);
    assert_int_equal(res->errors, 0);
    for (int i = 0; i < 3; i++) {
        const PairResult *p = &res->pairs[i];
        int clean = p->reasons[END_MATE] + p->reasons[END_STALEMATE] + p->reasons[END_MAX_LENGTH] +
                    p->reasons[END_REPETITION] + p->reasons[END_PERPETUAL] + p->reasons[END_RULE60];
        assert_int_equal(clean, 2);
    }
    FILE *f = fopen(pgn, "r");
    assert_non_null(f);
    char line[512];
    int games = 0, iccs = 0, annotated = 0;
    while (fgets(line, sizeof line, f)) {
        games += strncmp(line, "[Game \"Chinese Chess\"]", 22) == 0;
        iccs += strncmp(line, "[Format \"ICCS\"]", 15) == 0;
        annotated +=
            strcmp(line, "[Annotator \"xqmatch (Jiangjun) " XQ_TEST_VERSION "\"]\n") == 0; /* CMake's version */
    }
    fclose(f);
    close(fd);
    unlink(pgn);
    assert_int_equal(games, 6);
    assert_int_equal(iccs, 6);
    assert_int_equal(annotated, 6);
    done(cfg, res);
}

/* An illegal move loses. */
static void test_illegal_move(void **state)
{
    expect_b_loses(*state, "--illegal-at 3", END_ILLEGAL_MOVE, NULL);
}

/* A crash loses. */
static void test_crash(void **state)
{
    expect_b_loses(*state, "--crash-at 2", END_CRASH, NULL);
}

/* A hang at fixed depth loses after the hang timeout. */
static void test_hang(void **state)
{
    MatchConfig *cfg = base_config(*state, "--seed 1", "--hang-at 2");
    cfg->tc.hang_ms = FAST_HANG_MS;
    expect_b_loses(*state, "--hang-at 2", END_HANG, cfg);
}

/* A slow engine loses on time under a clock; a hang under a clock is a time loss too. */
static void test_time_loss(void **state)
{
    MatchConfig *cfg = base_config(*state, "--seed 1", "--slow 150");
    cfg->tc.kind = TC_CLOCK;
    cfg->tc.base_ms = 400;
    cfg->tc.inc_ms = 0;
    cfg->tc.margin_ms = 30;
    expect_b_loses(*state, "--slow 150", END_TIME, cfg);
    cfg = base_config(*state, "--seed 1", "--hang-at 1");
    cfg->tc.kind = TC_MOVETIME;
    cfg->tc.movetime_ms = 100;
    expect_b_loses(*state, "--hang-at 1", END_TIME, cfg);
}

/* "No move" with legal moves on the board loses (a UCCI resignation); so does `bestmove m resign`. */
static void test_nomove_and_resign(void **state)
{
    expect_b_loses(*state, "--nomove-at 2", END_RESIGN, NULL); /* UCCI nobestmove = resignation */
    MatchConfig *cfg = base_config(*state, "--seed 1", "--nomove-at 2");
    cfg->engines[1].proto = PROTO_UCI;
    expect_b_loses(*state, "--nomove-at 2 (uci)", END_NO_MOVE, cfg);
    expect_b_loses(*state, "--resign-at 2", END_RESIGN, NULL);
}

/* A UCCI draw offer goes to the opponent as `go draw`; accepting it ends the game drawn, ignoring it does not. */
static void test_draw_offer(void **state)
{
    MatchConfig *cfg = base_config(*state, "--seed 1 --offer-at 2", "--seed 2 --accept-draw");
    MatchResult *res = run(cfg);
    const PairResult *p = &res->pairs[0];
    assert_int_equal(p->score.draws, 2);
    assert_int_equal(p->reasons[END_DRAW_AGREED], 2);
    done(cfg, res);
    cfg = base_config(*state, "--seed 1 --offer-at 2", "--seed 2");
    res = run(cfg);
    assert_int_equal(res->pairs[0].reasons[END_DRAW_AGREED], 0);
    done(cfg, res);
}

/* An engine that cannot start, or fails the handshake, loses. */
static void test_start_failure(void **state)
{
    expect_b_loses(*state, "--no-handshake", END_START_FAILURE, NULL);
    MatchConfig *cfg = base_config(*state, "--seed 1", "");
    snprintf(cfg->engines[1].cmd, sizeof cfg->engines[1].cmd, "/nonexistent/engine");
    expect_b_loses(*state, "(missing)", END_START_FAILURE, cfg);
}

/* Mate in one from an opening FEN: red mates in both games. */
static void test_mate_from_opening(void **state)
{
    MatchConfig *cfg = base_config(*state, "--greedy", "--greedy");
    char msg[256];
    openings_free(&cfg->book);
    cfg->book.items = calloc(1, sizeof *cfg->book.items);
    cfg->book.count = 1;
    assert_true(opening_parse("3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1", &cfg->book.items[0], msg, sizeof msg));
    MatchResult *res = run(cfg);
    const PairResult *p = &res->pairs[0];
    assert_int_equal(p->score.wins, 1);
    assert_int_equal(p->score.losses, 1);
    assert_int_equal(p->reasons[END_MATE], 2);
    done(cfg, res);
}

/* With KR-K loaded (-tb), a game reaching it ends by the table's value at once: both games of the pair
 * 1-0 with Termination "tablebase" in the PGN; without the tables the same games are played out. */
static void test_tablebase_adjudication(void **state)
{
    static const char *const names[] = { "KR-K" };
    char dir[256], msg[256];
    snprintf(dir, sizeof dir, "%s/tb_match", XQ_TEST_TMP);
    TbSet *set = tbtest_generate(dir, names, 1, 1);
    assert_non_null(set);
    for (int with_tb = 0; with_tb < 2; with_tb++) {
        MatchConfig *cfg = base_config(*state, "--seed 3", "--seed 4");
        openings_free(&cfg->book);
        cfg->book.items = calloc(1, sizeof *cfg->book.items);
        cfg->book.count = 1;
        /* the opening's last move, the rook taking the horse, reaches KR-K with black to move */
        assert_true(opening_parse("4k4/9/9/9/n8/9/9/9/9/R4K3 w - - 0 1 moves a0a5", &cfg->book.items[0], msg,
                                  sizeof msg));
        cfg->adj.tb = with_tb ? set : NULL;
        char pgn[] = "/tmp/xqmatch_tb_XXXXXX";
        int fd = mkstemp(pgn);
        assert_true(fd >= 0);
        cfg->pgn_path = pgn;
        MatchResult *res = run(cfg);
        const PairResult *p = &res->pairs[0];
        FILE *f = fdopen(fd, "r");
        static char text[1 << 16];
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        remove(pgn);
        if (with_tb) {
            assert_int_equal(p->reasons[END_TABLEBASE], 2);
            assert_int_equal(p->score.wins + p->score.losses, 2);
            assert_non_null(strstr(text, "[Termination \"tablebase\"]"));
            assert_non_null(strstr(text, "tablebase KR-K: red mates in"));
            assert_null(strstr(text, "[Result \"0-1\"]"));
            assert_null(strstr(text, "[Result \"1/2-1/2\"]"));
        } else {
            assert_int_equal(p->reasons[END_TABLEBASE], 0);
            assert_null(strstr(text, "tablebase"));
        }
        done(cfg, res);
    }
    tbtest_free(set);
}

/* Both engines' scores agree: resign and draw adjudication. */
static void test_score_adjudication(void **state)
{
    MatchConfig *cfg = base_config(*state, "--score 600", "--score -600");
    cfg->adj.resign_moves = 3;
    cfg->adj.resign_score = 500;
    expect_b_loses(*state, "--score -600", END_ADJ_RESIGN, cfg);
    cfg = base_config(*state, "--score 5", "--score -5");
    cfg->adj.draw_movenumber = 2;
    cfg->adj.draw_moves = 3;
    cfg->adj.draw_score = 10;
    MatchResult *res = run(cfg);
    assert_int_equal(res->pairs[0].score.draws, 2);
    assert_int_equal(res->pairs[0].reasons[END_ADJ_DRAW], 2);
    done(cfg, res);
}

/* SPRT stops the match once it is decided. */
static void test_sprt_stop(void **state)
{
    MatchConfig *cfg = base_config(*state, "--seed 1", "--crash-at 1");
    cfg->rounds = 50;
    cfg->sprt = true;
    cfg->sprt_params = (SprtParams){ 0.0, 20.0, 0.05, 0.05 };
    MatchResult *res = run(cfg);
    assert_true(res->sprt_stopped);
    assert_int_equal(res->sprt.state, SPRT_ACCEPT_H1);
    assert_true(res->games_played < 100);
    assert_int_equal(res->pairs[0].score.losses, 0);
    done(cfg, res);
}

/* Jiangjun against itself, UCCI against UCI, at a fixed node count: every game ends by a rule
 * of the game (never by an illegal move, crash, hang, no move or start failure). */
static void test_jiangjun_self_play(void **state)
{
    const MatchTestEnv *env = *state;
    if (!env->jiangjun)
        skip();
    MatchConfig *cfg = base_config(env, "", "");
    for (int i = 0; i < 2; i++) {
        EngineConfig *e = &cfg->engines[i];
        snprintf(e->name, sizeof e->name, "jiangjun-%s", i ? "uci" : "ucci");
        snprintf(e->cmd, sizeof e->cmd, "%s", env->jiangjun);
        e->proto = i ? PROTO_UCI : PROTO_UCCI;
    }
    cfg->tc.kind = TC_NODES;
    cfg->tc.nodes = 3000;
    cfg->adj.max_plies = 160;
    cfg->rounds = 2;
    MatchResult *res = run(cfg);
    const PairResult *p = &res->pairs[0];
    assert_int_equal(res->games_played, 4);
    assert_int_equal(res->errors, 0);
    static const EndReason faults[] = {
        END_ILLEGAL_MOVE, END_CRASH, END_HANG, END_NO_MOVE, END_START_FAILURE, END_TIME
    };
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        if (p->reasons[faults[i]])
            fail_msg("self-play game ended by %s", end_reason_name(faults[i]));
    assert_int_equal(p->score.wins + p->score.losses + p->score.draws, 4);
    done(cfg, res);
}

/* The summary lists the endings separated by commas, with none after the last. */
static void test_summary_endings(void **state)
{
    (void)state;
    static MatchConfig cfg;
    static MatchResult res;
    cfg.engine_count = 2;
    snprintf(cfg.engines[0].name, sizeof cfg.engines[0].name, "A");
    snprintf(cfg.engines[1].name, sizeof cfg.engines[1].name, "B");
    cfg.tc.kind = TC_DEPTH;
    cfg.tc.depth = 3;
    res.pair_count = 1;
    res.pairs[0] = (PairResult){ .a = 0, .b = 1, .score = { .wins = 2, .losses = 1, .draws = 0 } };
    res.pairs[0].reasons[1] = 2;
    res.pairs[0].reasons[END_REASONS - 1] = 1;
    res.games_played = res.games_scheduled = 3;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    match_print_summary(&cfg, &res, f);
    fclose(f);
    char want[160];
    snprintf(want, sizeof want, "  endings: %s 2, %s 1\n", end_reason_name((EndReason)1),
             end_reason_name((EndReason)(END_REASONS - 1)));
    assert_non_null(strstr(text, want));
    free(text);
}

/* Runs the match tests with the fake engine given as the first argument. */
int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FAKE_ENGINE\n", argv[0]);
        return 2;
    }
    tables_init();
    /* as xqmatch's main does: writing to an engine that already exited must fail, not kill us
       (test_start_failure died of SIGPIPE now and then) */
    signal(SIGPIPE, SIG_IGN);
    MatchTestEnv env = { argv[1], argc > 2 ? argv[2] : NULL };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_three_protocols, &env),
        cmocka_unit_test_prestate(test_illegal_move, &env),
        cmocka_unit_test_prestate(test_crash, &env),
        cmocka_unit_test_prestate(test_hang, &env),
        cmocka_unit_test_prestate(test_time_loss, &env),
        cmocka_unit_test_prestate(test_nomove_and_resign, &env),
        cmocka_unit_test_prestate(test_draw_offer, &env),
        cmocka_unit_test_prestate(test_start_failure, &env),
        cmocka_unit_test_prestate(test_mate_from_opening, &env),
        cmocka_unit_test_prestate(test_score_adjudication, &env),
        cmocka_unit_test_prestate(test_tablebase_adjudication, &env),
        cmocka_unit_test_prestate(test_sprt_stop, &env),
        cmocka_unit_test_prestate(test_jiangjun_self_play, &env),
        cmocka_unit_test(test_summary_endings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
