/*
 * test_engine.c - the engine facade's game functions (what CECP needs):
 * playing moves onto the game one by one, taking them back, the rules'
 * status of the game, and a search on the game as it stands. Each change is
 * all or nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "board/move.h"
#include "search/strength.h"
#include "testnet.h"
#include "testutil.h"

/* What the bestmove callback saw. */
typedef struct Seen {
    EngineResult res;
    int calls;
} Seen;

/* Records a result (search thread; read after engine_wait). */
static void on_bestmove(void *ctx, const EngineResult *res)
{
    Seen *s = ctx;
    s->res = *res;
    s->calls++;
}

/* Compares the engine's root with a FEN and move list played on a fresh position. */
static void assert_root_is(const Engine *e, const char *fen, const char *moves)
{
    static Position want;
    test_setup_moves(&want, fen, moves);
    const Position *root = engine_root(e);
    assert_int_equal(root->key, want.key);
    assert_int_equal(root->ply, want.ply);
    assert_int_equal(root->rule60, want.rule60);
    assert_int_equal(root->fullmove, want.fullmove);
}

/* Moves one by one, illegal ones refused with nothing changed, undo back to the start and no further. */
static void test_play_and_undo(void **state)
{
    (void)state;
    Seen seen = { 0 };
    EngineCallbacks cb = { NULL, on_bestmove, &seen, NULL, NULL, NULL, NULL };
    Engine *e = engine_new(&cb);
    assert_non_null(e);
    XqError err;
    Move m;
    assert_true(engine_play(e, "h2e2", &m, &err));
    assert_true(engine_play(e, "H9G7", NULL, &err)); /* case-insensitive like every move text */
    assert_false(engine_play(e, "h2e2", NULL, &err)); /* the cannon is gone from h2 */
    assert_non_null(strstr(err.msg, "illegal"));
    assert_false(engine_play(e, "zz99", NULL, &err));
    assert_root_is(e, START_FEN, "h2e2 h9g7");
    assert_int_equal(engine_undo_depth(e), 2);
    assert_true(engine_undo(e));
    assert_root_is(e, START_FEN, "h2e2");
    assert_true(engine_undo(e));
    assert_root_is(e, START_FEN, "");
    assert_false(engine_undo(e)); /* past the start: refused, nothing changed */
    assert_root_is(e, START_FEN, "");
    /* a capture and back: the counters return too */
    assert_true(engine_set_position(e, NULL, (char *[]){ "h2e2", "h9g7", "e2e6" }, 3, &err));
    assert_int_equal(engine_root(e)->rule60, 0);
    assert_true(engine_undo(e));
    assert_root_is(e, START_FEN, "h2e2 h9g7");
    /* a search result is played only if it is legal */
    assert_false(engine_play_move(e, MOVE_NONE));
    assert_false(engine_play_move(e, move_make(sq_make(0, 0), sq_make(0, 9))));
    assert_root_is(e, START_FEN, "h2e2 h9g7");
    engine_free(e);
}

/* Without a valid position nothing is played or taken back. */
static void test_no_position(void **state)
{
    (void)state;
    EngineCallbacks cb = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    Engine *e = engine_new(&cb);
    XqError err;
    assert_false(engine_set_position(e, "foobar", NULL, 0, &err));
    assert_false(engine_play(e, "h2e2", NULL, &err));
    assert_non_null(strstr(err.msg, "no valid position"));
    assert_false(engine_undo(e));
    assert_int_equal(engine_undo_depth(e), 0);
    engine_free(e);
}

/* The facade's option setters: what they store, clamped, and engine_parse_root_move on the root. */
static void test_option_setters(void **state)
{
    (void)state;
    EngineCallbacks cb = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    Engine *e = engine_new(&cb);
    engine_set_multipv(e, 0);
    assert_int_equal(engine_options(e)->multipv, 1);
    engine_set_multipv(e, ENGINE_MULTIPV_MAX + 5);
    assert_int_equal(engine_options(e)->multipv, ENGINE_MULTIPV_MAX);
    engine_set_move_overhead(e, -3);
    assert_int_equal(engine_options(e)->move_overhead_ms, 0);
    engine_set_rules(e, NULL);
    assert_ptr_equal(engine_options(e)->rules, rules_default());
    engine_set_strength(e, 500, 3);
    assert_int_equal(engine_options(e)->level_centi, 500);
    assert_int_equal(engine_options(e)->randomness, 3);
    engine_set_ponder(e, true);
    assert_true(engine_options(e)->ponder);
    Move m;
    XqError err;
    assert_true(engine_parse_root_move(e, "h2e2", &m, &err));
    assert_false(engine_parse_root_move(e, "h9g7", &m, &err)); /* black's move, red to move */
    engine_invalidate_position(e);
    assert_false(engine_parse_root_move(e, "h2e2", &m, &err));
    assert_non_null(strstr(err.msg, "no valid position"));
    engine_free(e);
}

/* The rules' status of the game: mate, a repetition, an ongoing game. */
static void test_game_status(void **state)
{
    (void)state;
    EngineCallbacks cb = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    Engine *e = engine_new(&cb);
    XqError err;
    RulesReport r;
    assert_int_equal(engine_game_status(e, &r), RULES_ONGOING);
    assert_true(engine_set_position(e, "3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1", NULL, 0, &err));
    assert_int_equal(engine_game_status(e, &r), RULES_BLACK_LOSES);
    assert_int_equal(r.reason, REASON_NO_LEGAL_MOVE);
    /* horses out and back twice: the start position a third time is a draw */
    assert_true(engine_set_position(e, NULL, NULL, 0, &err));
    static const char *const SHUFFLE[] = { "h0g2", "h9g7", "g2h0", "g7h9" };
    for (int i = 0; i < 8; i++) {
        assert_int_equal(engine_game_status(e, &r), RULES_ONGOING);
        assert_true(engine_play(e, SHUFFLE[i % 4], NULL, &err));
    }
    assert_int_equal(engine_game_status(e, &r), RULES_DRAW);
    assert_int_equal(r.reason, REASON_REPETITION);
    assert_root_is(e, START_FEN, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9"); /* the status changed nothing */
    engine_free(e);
}

/* A search thinks on the game as played move by move, and the game stays untouched by it. */
static void test_think_on_game(void **state)
{
    (void)state;
    Seen seen = { 0 };
    EngineCallbacks cb = { NULL, on_bestmove, &seen, NULL, NULL, NULL, NULL };
    Engine *e = engine_new(&cb);
    XqError err;
    /* red mates in one (b1b9) after two moves played onto the game */
    assert_true(engine_set_position(e, "3k5/9/R8/9/9/9/8p/9/1R7/4K4 w - - 0 1", NULL, 0, &err));
    assert_true(engine_play(e, "a7a8", NULL, &err));
    assert_true(engine_play(e, "i3i2", NULL, &err));
    EngineGo go;
    memset(&go, 0, sizeof go);
    tm_input_init(&go.time);
    go.depth = 4;
    assert_true(engine_go(e, &go));
    XqError busy;
    assert_false(engine_play(e, "b1b9", NULL, &busy)); /* not while the search runs */
    assert_false(engine_undo(e));
    engine_wait(e);
    assert_int_equal(seen.calls, 1);
    assert_true(score_is_mate(seen.res.score) && seen.res.score > 0);
    assert_true(engine_play_move(e, seen.res.best));
    RulesReport r;
    assert_int_equal(engine_game_status(e, &r), RULES_BLACK_LOSES);
    engine_free(e);
}

/* Searches the start position to 2000 nodes; returns the main thread's network work. */
static uint64_t net_work_of_search(Engine *e)
{
    EngineGo go;
    memset(&go, 0, sizeof go);
    tm_input_init(&go.time);
    go.nodes = 2000;
    assert_true(engine_go(e, &go));
    engine_wait(e);
    return pool_thread_stats(e->pool, 0).nnue_evals;
}

/* With a net in use, full strength evaluates with it; a limited level with the hand-crafted evaluation
 * (its Elo table was measured with that one). */
static void test_limited_strength_is_hce(void **state)
{
    (void)state;
    Seen seen = { 0 };
    EngineCallbacks cb = { NULL, on_bestmove, &seen, NULL, NULL, NULL, NULL };
    Engine *e = engine_new(&cb);
    XqError err;
    Network *net = test_net(1);
    const Network *had = e->net;
    e->net = net; /* as engine_set_eval_file would */
    e->opt.use_nnue = true;
    assert_true(engine_set_position(e, NULL, NULL, 0, &err));
    assert_true(net_work_of_search(e) > 0);
    e->opt.level_centi = 10 * SKILL_CENTI;
    assert_int_equal(net_work_of_search(e), 0);
    e->opt.level_centi = SKILL_MAX * SKILL_CENTI;
    assert_true(net_work_of_search(e) > 0);
    e->net = had;
    engine_free(e);
    nnue_net_free(net);
}

/* Runs the facade tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_and_undo),
        cmocka_unit_test(test_limited_strength_is_hce),
        cmocka_unit_test(test_no_position),
        cmocka_unit_test(test_game_status),
        cmocka_unit_test(test_option_setters),
        cmocka_unit_test(test_think_on_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
