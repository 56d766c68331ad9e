/*
 * test_xqbook.c - the book builder (tools/xqbook): books from PGN games
 * (minimum games and score per move, mirrored games counted together,
 * unusable games skipped), from the engine's analysis (moves within the
 * margin, mirror twins, deterministic output), merging, and the command
 * line (show, bench, errors).
 */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "book/book.h"
#include "board/move.h"
#include "testbook.h"
#include "testutil.h"
#include "xqbook/xqbook_pgn.h"
#include "xqbook/xqbook_table.h"
#include "xqbook/xqbook_tree.h"

static Position POS;

/* Writes text to a scratch file; returns its path in out. */
static const char *write_text(const char *name, const char *text, char *out, size_t size)
{
    tb_path(name, out, size);
    tb_write_bytes(out, text, strlen(text));
    return out;
}

/* The book moves of the position after line in a book file, as "m:w m:w" heaviest first. */
static void book_moves(const char *path, const char *line, char *out, size_t size)
{
    BookFile bf;
    XqError err;
    if (!book_open_path(&bf, path, NULL, &err))
        fail_msg("%s: %s", path, err.msg);
    tb_line(&POS, line);
    BookMove m[BOOK_MOVES_MAX];
    int n = book_file_probe(&bf, &POS, m);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT];
        len += (size_t)snprintf(out + len, size - len, "%s%s:%u", i ? " " : "", move_to_text(m[i].move, text),
                                (unsigned)m[i].weight);
    }
    book_file_close(&bf);
}

/* Asserts the book moves after line. */
static void assert_book(const char *path, const char *line, const char *want)
{
    char got[512];
    book_moves(path, line, got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("after '%s': '%s', expected '%s'", line, got, want);
}

static const char GAMES[] =
    "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 1-0\n\n"
    "[Game \"Chinese Chess\"]\n[Result \"1/2-1/2\"]\n\n1. B2-E2 B9-C7 2. B0-C2 1/2-1/2\n\n"
    "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n\n1. H2-E2 H9-G7 2. C3-C4 0-1\n\n"
    "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n1. H2-E2 H7-E7 0-1\n\n"
    "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. H2-E2 H7-E2 1-0\n\n"
    "[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. H2-E2 H7-E7 *\n";

/* PGN: counts with results for the mover, mirrored games together, the minimums, skipped games. */
static void test_pgn(void **state)
{
    (void)state;
    char pgn[512], out[512];
    write_text("test_xqbook.pgn", GAMES, pgn, sizeof pgn);
    BookTable t = { 0 };
    PgnBookOptions opt = { 20, 2, 40 };
    PgnBookStats st = { 0 };
    assert_true(pgn_book_read(&t, pgn, &opt, &st));
    assert_int_equal(st.games, 3);
    assert_int_equal(st.skipped, 3); /* the time forfeit, the illegal move, the unfinished game */
    assert_int_equal(st.moves, 4 + 3 + 3);
    /* h2e2: won and lost (2 half-points of 4: 50%); b2e2: one draw (1 game: too few); the black reply after
     * either cannon move, counted together: h9g7 lost, b9c7 (its mirror) drew, h9g7 won (3 of 6); red's next
     * move there: h0g2 won, b0c2 (its mirror) drew (3 of 4); c3c4 and i9h9: one game each */
    size_t kept = pgn_book_weigh(&t, &opt);
    size_t written;
    XqError err;
    assert_true(book_table_write(&t, tb_path("test_xqbook_pgn.xqb", out, sizeof out), &written, &err));
    assert_int_equal(written, kept);
    assert_book(out, "", "h2e2:2");
    assert_book(out, "h2e2", "h9g7:3");
    assert_book(out, "b2e2", "b9c7:3");
    assert_book(out, "h2e2 h9g7", "h0g2:3");
    assert_book(out, "b2e2 b9c7", "b0c2:3");
    assert_book(out, "h2e2 h9g7 h0g2", "");
    /* no minimums: every counted move, a lost one weighing 1 */
    opt.min_games = 1;
    opt.min_score = 0;
    pgn_book_weigh(&t, &opt);
    assert_true(book_table_write(&t, out, &written, &err));
    assert_int_equal(written, t.n);
    assert_book(out, "", "h2e2:2 b2e2:1");
    assert_book(out, "h2e2 h9g7", "h0g2:3 c3c4:1");
    assert_book(out, "h2e2 h9g7 h0g2", "i9h9:1");
    book_table_free(&t);
    /* a ply limit: the game with an illegal second move now counts (only moves up to the limit are replayed) */
    opt.max_plies = 1;
    memset(&st, 0, sizeof st);
    assert_true(pgn_book_read(&t, pgn, &opt, &st));
    assert_int_equal(st.games, 4);
    assert_int_equal(st.moves, 4);
    book_table_free(&t);
    assert_false(pgn_book_read(&t, tb_path("test_xqbook_missing.pgn", out, sizeof out), &opt, &st));
}

/* Merging: weights of a move in several books add up; a BOOK.DAT cannot be merged. */
static void test_merge(void **state)
{
    (void)state;
    static const BookSpec A[] = { { "", "h2e2", 3 }, { "h2e2", "h9g7", 1 } };
    static const BookSpec B[] = { { "", "h2e2", 4 }, { "", "c3c4", 2 }, { "b2e2", "b9c7", 2 } };
    char a[512], b[512], out[512];
    tb_write_xqb(tb_path("test_xqbook_a.xqb", a, sizeof a), A, 2);
    tb_write_xqb(tb_path("test_xqbook_b.xqb", b, sizeof b), B, 3);
    BookTable t = { 0 };
    XqError err;
    assert_true(book_table_add_file(&t, a, &err));
    assert_true(book_table_add_file(&t, b, &err));
    size_t written;
    assert_true(book_table_write(&t, tb_path("test_xqbook_merged.xqb", out, sizeof out), &written, &err));
    assert_int_equal(written, 3);
    assert_book(out, "", "h2e2:7 c3c4:2");
    assert_book(out, "h2e2", "h9g7:3");
    tb_write_eleeye(tb_path("test_xqbook_ee.dat", b, sizeof b), B, 3);
    assert_false(book_table_add_file(&t, b, &err));
    assert_non_null(strstr(err.msg, "only .xqb books can be merged"));
    book_table_free(&t);
}

/* The analysis: legal moves weighted by their distance to the best, mirror twins at the start, a bounded
 * tree, the same file twice. */
static void test_analysis(void **state)
{
    (void)state;
    assert_int_equal(tree_book_weight(0, 30), 100);
    assert_int_equal(tree_book_weight(30, 30), 50);
    assert_int_equal(tree_book_weight(15, 30), 75);
    assert_int_equal(tree_book_weight(5, 0), 100);
    TreeOptions opt = { NULL, NULL, 0, 2, 4, 0, 40, 3, 4, NULL, NULL, 1 };
    char path[2][512];
    for (int run = 0; run < 2; run++) {
        BookTable t = { 0 };
        TreeStats st;
        XqError err;
        assert_true(tree_book_build(&t, &opt, &st, &err));
        assert_true(st.positions >= 2 && st.searches >= st.positions);
        assert_int_equal(st.moves, (long)t.n);
        size_t written;
        char name[64];
        snprintf(name, sizeof name, "test_xqbook_tree%d.xqb", run);
        assert_true(book_table_write(&t, tb_path(name, path[run], sizeof path[run]), &written, &err));
        book_table_free(&t);
    }
    char first[512], second[512];
    book_moves(path[0], "", first, sizeof first);
    book_moves(path[1], "", second, sizeof second);
    assert_string_equal(first, second);
    /* the start (its own mirror): the best weighs 100, each move comes with its mirror twin at the same
     * weight, at most three searches' moves (a twin not counted), all within the margin */
    BookFile bf;
    XqError err;
    assert_true(book_open_path(&bf, path[0], NULL, &err));
    tb_line(&POS, "");
    BookMove m[BOOK_MOVES_MAX];
    int n = book_file_probe(&bf, &POS, m);
    assert_true(n >= 1 && n <= 6);
    assert_int_equal(m[0].weight, 100);
    for (int i = 0; i < n; i++) {
        assert_true(m[i].weight >= 50 && m[i].weight <= 100);
        int twin = 0;
        while (twin < n && m[twin].move != book_mirror_move(m[i].move))
            twin++;
        assert_true(twin < n && m[twin].weight == m[i].weight);
    }
    /* the second ply has book moves after the best first move; the third has none (2 plies analysed) */
    tb_line(&POS, "");
    pos_make(&POS, m[0].move);
    BookMove reply[BOOK_MOVES_MAX];
    int nr = book_file_probe(&bf, &POS, reply);
    assert_true(nr >= 1);
    pos_make(&POS, reply[0].move);
    assert_int_equal(book_file_probe(&bf, &POS, reply), 0);
    book_file_close(&bf);
    /* a bad root */
    BookTable t = { 0 };
    TreeStats st;
    opt.fen = "not a fen";
    assert_false(tree_book_build(&t, &opt, &st, &err));
    book_table_free(&t);
}

/* Runs a command; returns its exit status and its output in out. */
static int run_cmd(const char *cmd, char *out, size_t size)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The command line: show and bench on a book, usage errors, a missing file. */
static void test_command_line(void **state)
{
    (void)state;
    static const BookSpec A[] = { { "", "h2e2", 3 }, { "", "c3c4", 1 }, { "h2e2", "h9g7", 1 } };
    char book[512], cmd[2048], out[4096];
    tb_write_xqb(tb_path("test_xqbook_cli.xqb", book, sizeof book), A, 3);
    snprintf(cmd, sizeof cmd, "%s show %s 2>&1", XQBOOK_BIN, book);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "Jiangjun book (.xqb), 3 records\n"));
    assert_non_null(strstr(out, "h2e2      3  75.0%\nc3c4      1  25.0%\n"));
    snprintf(cmd, sizeof cmd, "%s show %s -moves 'h2e2 h9g7' 2>&1", XQBOOK_BIN, book);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "no book moves\n"));
    snprintf(cmd, sizeof cmd, "%s show %s -moves 'h2e2 h2e3' 2>&1", XQBOOK_BIN, book);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 1);
    assert_non_null(strstr(out, "error: "));
    snprintf(cmd, sizeof cmd, "%s bench %s -probes 1000 2>&1", XQBOOK_BIN, book);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "1000 probes along "));
    assert_non_null(strstr(out, " us per probe"));
    snprintf(cmd, sizeof cmd, "%s show %s/test_xqbook_none.xqb 2>&1", XQBOOK_BIN, XQ_TEST_TMP);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 1);
    assert_non_null(strstr(out, "cannot open (No such file or directory)"));
    snprintf(cmd, sizeof cmd, "%s analyse -plies 0 -o x.xqb 2>&1", XQBOOK_BIN);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "-plies must be a number from 1 to 40"));
    snprintf(cmd, sizeof cmd, "%s frobnicate 2>&1", XQBOOK_BIN);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "usage: xqbook"));
    snprintf(cmd, sizeof cmd, "%s merge -o %s/test_xqbook_cli_merged.xqb %s %s 2>&1", XQBOOK_BIN, XQ_TEST_TMP, book,
             book);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "3 book moves (2 books merged)"));
}

/* Runs the book builder's tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pgn),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_analysis),
        cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
