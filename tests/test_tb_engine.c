/* test_tb_engine.c - the endgame tablebases in the engine: the root plays the table's best move (games
 * from a won position end in exactly the table's DTM, both sides searched with the tables, 1 and 2
 * threads), interior probes count tbhits, and without tables (or with useegtb off) nothing is probed.
 * A win that rests on the perpetual-check rule is played into the cycle the rules module scores as the
 * checker's loss. KR-K, KH-K, KP-K and KR-KH are generated into build/tests/tb_engine at the start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board/movegen.h"
#include "engine/engine.h"
#include "eval/score.h"
#include "rules/rules.h"
#include "tbtest.h"
#include "testutil.h"

enum { SEARCH_DEPTH = 4, TEXT_MAX = 512, GAME_PLIES_MAX = 200 };

static const char *const SIGS[] = { "KR-K", "KH-K", "KP-K", "KR-KH" };
static char tb_dir[TEXT_MAX / 2];
static TbSet *set;

/* What the callbacks saw (search thread; read after engine_wait). */
typedef struct Seen {
    EngineResult res;
    uint64_t tbhits; /* of the last report */
    int reports, results;
} Seen;

/* Records a report's tbhits. */
static void on_info(void *ctx, const Position *root, const SearchReport *r)
{
    (void)root;
    Seen *s = ctx;
    s->tbhits = r->tbhits;
    s->reports++;
}

/* Records the result. */
static void on_bestmove(void *ctx, const EngineResult *res)
{
    Seen *s = ctx;
    s->res = *res;
    s->results++;
}

/* Counts refused files (ctx: an int). */
static void count_error(void *ctx, const char *msg)
{
    (void)msg;
    ++*(int *)ctx;
}

/* Generates the tables into a fresh tb_dir. */
static int setup_tables(void **state)
{
    (void)state;
    snprintf(tb_dir, sizeof tb_dir, "%s/tb_engine", XQ_TEST_TMP);
    set = tbtest_generate(tb_dir, SIGS, (int)(sizeof SIGS / sizeof *SIGS), 1);
    return set ? 0 : -1;
}

/* Frees the tables. */
static int teardown_tables(void **state)
{
    (void)state;
    tbtest_free(set);
    return 0;
}

/* An engine with the test tables loaded on `threads` threads. */
static Engine *tb_engine(Seen *seen, int threads)
{
    EngineCallbacks cb = { .info = on_info, .bestmove = on_bestmove, .ctx = seen };
    Engine *e = engine_new(&cb);
    assert_non_null(e);
    int errors = 0;
    assert_int_equal(engine_set_tb_path(e, tb_dir, count_error, &errors), (int)(sizeof SIGS / sizeof *SIGS));
    assert_int_equal(errors, 0);
    assert_int_equal(engine_set_threads(e, threads), threads);
    return e;
}

/* Searches the engine's game to SEARCH_DEPTH; returns the result. */
static EngineResult search(Engine *e, Seen *seen)
{
    EngineGo go;
    memset(&go, 0, sizeof go);
    go.depth = SEARCH_DEPTH;
    seen->results = 0;
    assert_true(engine_go(e, &go));
    engine_wait(e);
    assert_int_equal(seen->results, 1);
    return seen->res;
}

/* The table's value of the engine's game position. */
static TbValue table_value(const Engine *e)
{
    static Position pos;
    memcpy(&pos, engine_root(e), sizeof pos);
    TbValue v;
    XqError err;
    assert_true(tb_probe(set, &pos, &v, &err));
    return v;
}

/* Plays the engine against itself from fen until the side to move has no move: a win of DTM d ends
 * after exactly d plies (the winner mates fastest, the loser holds out longest), every move keeps the
 * table's value one ply on, and the searches count tablebase hits. */
static void play_out(const char *fen, int threads)
{
    Seen seen = { 0 };
    Engine *e = tb_engine(&seen, threads);
    XqError err;
    assert_true(engine_set_position(e, fen, NULL, 0, &err));
    TbValue start = table_value(e);
    assert_int_equal(start.wdl, TB_WIN);
    int plies = 0;
    for (TbValue v = start; v.dtm > 0; plies++) {
        assert_true(plies < GAME_PLIES_MAX);
        EngineResult r = search(e, &seen);
        assert_true(seen.tbhits > 0);
        /* the tables' distances are exact mate scores (not a tablebase band for all alike) */
        assert_int_equal(r.score, v.wdl == TB_WIN ? SCORE_MATE - v.dtm : -(SCORE_MATE - v.dtm));
        assert_true(engine_play_move(e, r.best));
        TbValue next = table_value(e);
        if (next.wdl != -v.wdl || next.dtm != v.dtm - 1)
            fail_msg("%s, ply %d (%d threads): %d/%d then %d/%d", fen, plies, threads, v.wdl, v.dtm, next.wdl,
                     next.dtm);
        v = next;
    }
    assert_int_equal(plies, start.dtm);
    static Position end;
    memcpy(&end, engine_root(e), sizeof end);
    assert_int_equal(count_legal(&end), 0);
    engine_free(e);
}

/* Won KR-K, KH-K and KP-K positions are played out in their DTM, on one thread and on two. */
static void test_games_end_in_dtm(void **state)
{
    (void)state;
    const char *fens[] = {
        "9/4k4/9/9/9/9/9/9/9/R2K5 w",  /* KR-K, DTM 3 */
        "9/4k4/9/9/9/9/9/9/9/H2K5 w",  /* KH-K, DTM 13 */
        "9/4k4/9/9/9/9/4P4/9/9/3K5 w", /* KP-K, DTM 9 */
        "h2k5/9/9/9/9/9/9/9/9/4K4 b",  /* KH-K with black attacking: the table read colour-swapped */
    };
    for (int threads = 1; threads <= 2; threads++)
        for (size_t i = 0; i < sizeof fens / sizeof *fens; i++)
            play_out(fens[i], threads);
}

/* A check for the side to move in the engine's game (the first in generation order), or MOVE_NONE. */
static Move first_check(const Engine *e)
{
    static Position pos;
    memcpy(&pos, engine_root(e), sizeof pos);
    Move moves[MAX_MOVES];
    int n = gen_legal(&pos, moves);
    for (int i = 0; i < n; i++) {
        pos_make(&pos, moves[i]);
        bool check = pos.in_check;
        pos_unmake(&pos);
        if (check)
            return moves[i];
    }
    return MOVE_NONE;
}

/* KR-KH, red in check from the horse: red wins only by the perpetual-check rule (the table's rule flag).
 * The engine plays red (1 and 2 threads), the test plays black's horse checking on every move: red's
 * moves keep the table's win, the engine scores it in the tablebase band, or in the repetition band once
 * its own search sees black's perpetual check (never as a mate), and the game ends at the third occurrence
 * with the rules module (the engine's rule set, asian) ruling that black loses by perpetual check. */
static void test_rule_win_played(void **state)
{
    (void)state;
    for (int threads = 1; threads <= 2; threads++) {
        Seen seen = { 0 };
        Engine *e = tb_engine(&seen, threads);
        XqError err;
        assert_true(engine_set_position(e, "9/4k4/9/9/9/9/9/9/1n7/R2K5 w", NULL, 0, &err));
        RulesReport report = { 0 };
        static Position pos;
        int plies = 0;
        for (;; plies++) {
            assert_true(plies < GAME_PLIES_MAX);
            memcpy(&pos, engine_root(e), sizeof pos);
            if (rules_game_status(&pos, e->opt.rules, &report) != RULES_ONGOING)
                break;
            TbValue v = table_value(e);
            assert_int_equal(v.wdl, pos.side == RED ? TB_WIN : TB_LOSS);
            assert_true(v.rule);
            Move m;
            if (pos.side == RED) {
                EngineResult r = search(e, &seen);
                if (r.score <= 0 || (!score_is_tb(r.score) && !score_is_ban(r.score)))
                    fail_msg("ply %d: score %d is neither a tablebase win nor a repetition verdict", plies, r.score);
                m = r.best;
            } else {
                m = first_check(e);
                assert_int_not_equal(m, MOVE_NONE);
            }
            assert_true(engine_play_move(e, m));
        }
        assert_int_equal(report.verdict, RULES_BLACK_LOSES);
        assert_int_equal(report.reason, REASON_PERPETUAL_CHECK);
        assert_true(plies >= 8);
        engine_free(e);
    }
}

/* Without tables, or with useegtb off, the search probes nothing; a directory without tables loads
 * none, and a refused file is reported. */
static void test_off_without_tables(void **state)
{
    (void)state;
    Seen seen = { 0 };
    Engine *e = tb_engine(&seen, 1);
    XqError err;
    assert_true(engine_set_position(e, "9/4k4/9/9/9/9/9/9/9/H2K5 w", NULL, 0, &err));
    search(e, &seen);
    assert_true(seen.tbhits > 0);
    e->opt.tb_use = false;
    search(e, &seen);
    assert_int_equal(seen.tbhits, 0);
    e->opt.tb_use = true;
    assert_int_equal(engine_set_tb_path(e, "<empty>", NULL, NULL), 0);
    assert_null(e->tb);
    search(e, &seen);
    assert_int_equal(seen.tbhits, 0);
    int errors = 0;
    assert_int_equal(engine_set_tb_path(e, XQ_TEST_DATA, count_error, &errors), 0);
    assert_int_equal(errors, 0);
    assert_null(e->tb);
    char dir[TEXT_MAX], path[TEXT_MAX];
    snprintf(dir, sizeof dir, "%s/bad", tb_dir);
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%.400s/KR-K.jjtb", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("not a table\n", f);
    fclose(f);
    assert_int_equal(engine_set_tb_path(e, dir, count_error, &errors), 0);
    assert_int_equal(errors, 1);
    /* the engine plays on without tables */
    EngineResult r = search(e, &seen);
    assert_int_not_equal(r.best, MOVE_NONE);
    assert_int_equal(seen.tbhits, 0);
    engine_free(e);
}

/* Runs the tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_games_end_in_dtm),
        cmocka_unit_test(test_rule_win_played),
        cmocka_unit_test(test_off_without_tables),
    };
    return cmocka_run_group_tests(tests, setup_tables, teardown_tables);
}
