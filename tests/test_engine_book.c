/*
 * test_engine_book.c - the engine's book moves (engine_book.c) through the
 * facade: a go answered from the book (its moves reported before bestmove,
 * the choice by weight, a ponder move from the book), the book off or
 * without files, searchmoves and banmoves that exclude book moves, the
 * searches that never take a book move (ponder, infinite, mate, an offered
 * draw, depth 0), a book move that would repeat the game, and the seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "board/move.h"
#include "testbook.h"
#include "testutil.h"

enum { CHOICES = 400, SEEDED_CHOICES = 24 };

/* What the callbacks saw (search thread; read after engine_wait). */
typedef struct Seen {
    EngineResult res;
    int bestmoves, books, n;
    BookMove moves[BOOK_MOVES_MAX];
    Move chosen;
} Seen;

/* Records a result. */
static void on_bestmove(void *ctx, const EngineResult *res)
{
    Seen *s = ctx;
    s->res = *res;
    s->bestmoves++;
}

/* Records a book report. */
static void on_book(void *ctx, const Position *root, const BookMove *moves, int n, Move chosen)
{
    (void)root;
    Seen *s = ctx;
    s->books++;
    s->n = n;
    memcpy(s->moves, moves, (size_t)n * sizeof *moves);
    s->chosen = chosen;
}

static const BookSpec SPECS[] = {
    { "", "h2e2", 3 }, { "", "c3c4", 1 }, { "h2e2", "h9g7", 5 }, { "h2e2", "h7e7", 0 }, { "", "h0g2", 0 },
};

/* An engine with the test book open, the book on or off. */
static Engine *book_engine(Seen *seen, bool use)
{
    char path[512];
    tb_write_xqb(tb_path("test_engine_book.xqb", path, sizeof path), SPECS, 5);
    EngineCallbacks cb = { NULL, on_bestmove, seen, NULL, on_book, NULL, NULL };
    Engine *e = engine_new(&cb);
    assert_non_null(e);
    XqError err;
    if (!engine_set_book_files(e, path, &err))
        fail_msg("%s", err.msg);
    engine_set_use_book(e, use);
    return e;
}

/* A go of the given depth. */
static EngineGo go_depth(int depth)
{
    EngineGo g;
    memset(&g, 0, sizeof g);
    tm_input_init(&g.time);
    g.depth = depth;
    return g;
}

/* Runs a go to its end; the callbacks' record is reset first. */
static void run(Engine *e, Seen *seen, const EngineGo *g)
{
    memset(seen, 0, sizeof *seen);
    assert_true(engine_go(e, g));
    engine_wait(e);
    assert_int_equal(seen->bestmoves, 1);
}

/* Parses a move text. */
static Move mv(const char *text)
{
    Move m;
    assert_true(move_from_text(text, &m));
    return m;
}

/* Sets the engine's position to the start after a move list. */
static void set_line(Engine *e, char **moves, int n)
{
    XqError err;
    assert_true(engine_set_position(e, NULL, moves, n, &err));
}

/* A go from the book: its moves reported heaviest first (weight 0 listed), the choice by weight, the
 * heaviest book reply as the ponder move, nothing searched. */
static void test_book_move(void **state)
{
    (void)state;
    Seen seen;
    Engine *e = book_engine(&seen, true);
    EngineGo g = go_depth(3);
    int heavy = 0;
    for (int i = 0; i < CHOICES; i++) {
        run(e, &seen, &g);
        assert_true(seen.res.book);
        assert_false(seen.res.searched);
        assert_int_equal(seen.res.nodes, 0);
        assert_int_equal(seen.books, 1);
        assert_int_equal(seen.n, 3);
        assert_true(seen.moves[0].move == mv("h2e2") && seen.moves[1].move == mv("c3c4")
                    && seen.moves[2].move == mv("h0g2") && seen.moves[2].weight == 0);
        assert_int_equal(seen.chosen, seen.res.best);
        assert_true(seen.res.best == mv("h2e2") || seen.res.best == mv("c3c4"));
        if (seen.res.best == mv("h2e2")) {
            heavy++;
            assert_int_equal(seen.res.ponder, mv("h9g7"));
        } else {
            assert_int_equal(seen.res.ponder, MOVE_NONE);
        }
    }
    assert_in_range(heavy, 255, 345); /* 3:1 of 400: 300 +/- 8.7 per standard deviation */
    /* out of the book: a search */
    set_line(e, (char *[]){ "c3c4" }, 1);
    run(e, &seen, &g);
    assert_false(seen.res.book);
    assert_true(seen.res.searched);
    assert_int_equal(seen.books, 0);
    engine_free(e);
}

/* The book off, or on without files, or after a refused list: the engine searches. */
static void test_book_off(void **state)
{
    (void)state;
    Seen seen;
    Engine *e = book_engine(&seen, false);
    EngineGo g = go_depth(2);
    run(e, &seen, &g);
    assert_false(seen.res.book);
    assert_true(seen.res.searched);
    engine_set_use_book(e, true);
    run(e, &seen, &g);
    assert_true(seen.res.book);
    XqError err;
    char path[512];
    assert_false(engine_set_book_files(e, tb_path("test_engine_book_missing.xqb", path, sizeof path), &err));
    run(e, &seen, &g);
    assert_false(seen.res.book);
    assert_true(engine_set_book_files(e, "", &err));
    run(e, &seen, &g);
    assert_false(seen.res.book);
    engine_free(e);
}

/* searchmoves and banmoves: only the book moves they allow are played; none allowed, the engine searches. */
static void test_searchmoves_banmoves(void **state)
{
    (void)state;
    Seen seen;
    Engine *e = book_engine(&seen, true);
    EngineGo g = go_depth(2);
    g.n_searchmoves = 2;
    g.searchmoves[0] = mv("c3c4");
    g.searchmoves[1] = mv("b0c2");
    for (int i = 0; i < 20; i++) {
        run(e, &seen, &g);
        assert_true(seen.res.book);
        assert_int_equal(seen.res.best, mv("c3c4"));
        assert_int_equal(seen.n, 1);
    }
    g.n_searchmoves = 1;
    g.searchmoves[0] = mv("b0c2");
    run(e, &seen, &g);
    assert_false(seen.res.book);
    assert_int_equal(seen.res.best, mv("b0c2"));
    g = go_depth(2);
    XqError err;
    assert_true(engine_set_banmoves(e, (char *[]){ "h2e2" }, 1, &err));
    for (int i = 0; i < 20; i++) {
        run(e, &seen, &g);
        assert_true(seen.res.book);
        assert_int_equal(seen.res.best, mv("c3c4"));
    }
    assert_true(engine_set_banmoves(e, (char *[]){ "h2e2", "c3c4" }, 2, &err));
    run(e, &seen, &g);
    assert_false(seen.res.book);
    assert_true(seen.res.best != mv("h2e2") && seen.res.best != mv("c3c4"));
    engine_free(e);
}

/* Pondering, infinite analysis, a mate search, an offered draw and UCCI's depth 0 never take a book move. */
static void test_searches_without_book(void **state)
{
    (void)state;
    Seen seen;
    Engine *e = book_engine(&seen, true);
    EngineGo g = go_depth(2);
    g.ponder = true;
    memset(&seen, 0, sizeof seen);
    assert_true(engine_go(e, &g));
    engine_ponderhit(e, false);
    engine_wait(e);
    assert_false(seen.res.book);
    assert_true(seen.res.searched);
    g = go_depth(0);
    g.infinite = true;
    memset(&seen, 0, sizeof seen);
    assert_true(engine_go(e, &g));
    engine_stop(e);
    engine_wait(e);
    assert_false(seen.res.book);
    assert_true(seen.res.searched);
    g = go_depth(0);
    g.mate = 2;
    g.nodes = 2000;
    run(e, &seen, &g);
    assert_false(seen.res.book);
    g = go_depth(2);
    g.draw_offered = true;
    run(e, &seen, &g);
    assert_false(seen.res.book);
    g = go_depth(-1);
    run(e, &seen, &g);
    assert_false(seen.res.book);
    assert_int_equal(seen.res.best, MOVE_NONE);
    engine_free(e);
}

/* A book move that would bring back a position the game had is not played. */
static void test_repetition_skipped(void **state)
{
    (void)state;
    static const BookSpec ONE[] = { { "", "h2e2", 1 } }, TWO[] = { { "", "h2e2", 1000 }, { "", "h0g2", 1 } };
    char one[512], two[512];
    tb_write_xqb(tb_path("test_engine_book_rep1.xqb", one, sizeof one), ONE, 1);
    tb_write_xqb(tb_path("test_engine_book_rep2.xqb", two, sizeof two), TWO, 2);
    Seen seen;
    EngineCallbacks cb = { NULL, on_bestmove, &seen, NULL, on_book, NULL, NULL };
    Engine *e = engine_new(&cb);
    XqError err;
    assert_true(engine_set_book_files(e, one, &err));
    engine_set_use_book(e, true);
    EngineGo g = go_depth(2);
    run(e, &seen, &g);
    assert_true(seen.res.book);
    assert_int_equal(seen.res.best, mv("h2e2"));
    /* the cannons out and back: the start again, where h2e2 would repeat the position after the first move */
    set_line(e, (char *[]){ "h2e2", "h9g7", "e2h2", "g7h9" }, 4);
    run(e, &seen, &g);
    assert_false(seen.res.book);
    assert_true(engine_set_book_files(e, two, &err));
    for (int i = 0; i < 10; i++) {
        run(e, &seen, &g);
        assert_true(seen.res.book);
        assert_int_equal(seen.n, 1);
        assert_int_equal(seen.res.best, mv("h0g2"));
    }
    engine_free(e);
}

/* A fixed seed repeats the choices, in every engine and after each new game. */
static void test_seed(void **state)
{
    (void)state;
    Seen seen;
    Engine *a = book_engine(&seen, true), *b = book_engine(&seen, true);
    engine_set_book_seed(a, 77);
    engine_set_book_seed(b, 77);
    EngineGo g = go_depth(2);
    Move first[SEEDED_CHOICES];
    int heavy = 0;
    for (int i = 0; i < SEEDED_CHOICES; i++) {
        run(a, &seen, &g);
        first[i] = seen.res.best;
        heavy += first[i] == mv("h2e2");
        run(b, &seen, &g);
        assert_int_equal(seen.res.best, first[i]);
    }
    assert_true(heavy > 0 && heavy < SEEDED_CHOICES); /* both moves came: the seed does not fix one move */
    engine_new_game(a);
    for (int i = 0; i < SEEDED_CHOICES; i++) {
        run(a, &seen, &g);
        assert_int_equal(seen.res.best, first[i]);
    }
    engine_free(a);
    engine_free(b);
}

/* Runs the engine's book tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_book_move),           cmocka_unit_test(test_book_off),
        cmocka_unit_test(test_searchmoves_banmoves), cmocka_unit_test(test_searches_without_book),
        cmocka_unit_test(test_repetition_skipped),  cmocka_unit_test(test_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
