/*
 * test_protocol_book.c - the opening book through the real binary in all
 * three dialects: the options (UCCI usebook, bookfiles, bookseed; UCI
 * OwnBook, BookFile, Book Seed; CECP's feature options and bk), book moves
 * reported as "info depth 0 score W pv M" (UCCI), "info depth 0 score cp W
 * pv M" (UCI) and thinking lines "0 W 0 0 0 0 0<TAB>M" (CECP) before the
 * move, several files (the first that knows the position answers), missing
 * and malformed files (an error, then no book), searchmoves and banmoves
 * that exclude book moves, and ponder and infinite searches that search
 * instead. Every move and PV printed is checked for legality.
 *
 * test_real_eleeye_book reads records of ElephantEye's own BOOK.DAT
 * (tests/data/eleeye_book_records.txt; with XQ_ELEEYE_BOOK set, the whole
 * file it names): its start position as ElephantEye reports it (16 moves,
 * b2e2 and h2e2 weighing 1473) and the reply to h2e2 through the mirror.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enginepipe.h"
#include "board/move.h"
#include "testbook.h"
#include "testutil.h"

enum { T_FAST = 5000 };

#ifdef XQ_EXPECT_EMBEDDED_BOOK
#define BOOKFILES_DEFAULT "<embedded>"
#else
#define BOOKFILES_DEFAULT "<empty>"
#endif

static Position POS;
static char XQB[512], EE[512], BAD[512];
static char reply[1 << 16];

/* Writes the test books: a .xqb and a BOOK.DAT with a few opening lines, and a malformed file. */
static int write_books(void **state)
{
    (void)state;
    static const BookSpec X[] = {
        { "", "h2e2", 30 }, { "", "c3c4", 10 }, { "h2e2", "h9g7", 7 }, { "h2e2 h9g7", "h0g2", 3 },
    };
    static const BookSpec E[] = { { "", "b0c2", 5 }, { "c3c4", "c6c5", 9 }, { "h2e2 h9g7 h0g2", "i9h9", 4 } };
    tb_write_xqb(tb_path("test_protocol_book.xqb", XQB, sizeof XQB), X, 4);
    tb_write_eleeye(tb_path("test_protocol_book.dat", EE, sizeof EE), E, 3);
    tb_write_bytes(tb_path("test_protocol_book.bad", BAD, sizeof BAD), "1234567", 7);
    return 0;
}

/* Sends position + go, reads to the bestmove (checking every PV and the move) and returns the lines between. */
static const char *go_and_read(EnginePipe *ep, const char *line, const char *go)
{
    tb_line(&POS, line);
    ep_send(ep, "position startpos%s%s", *line ? " moves " : "", line);
    size_t from = ep->t_len;
    ep_send(ep, "%s", go);
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    snprintf(reply, sizeof reply, "%s", ep->transcript + from);
    return reply;
}

/* Is the bestmove of a reply one of the moves listed ("h2e2 c3c4")? */
static bool best_in(const char *r, const char *moves)
{
    const char *b = strstr(r, "bestmove ");
    char m[8];
    return b && sscanf(b, "bestmove %7s", m) == 1 && strstr(moves, m) != NULL;
}

/* Counts lines of a reply that start with prefix. */
static int count_lines(const char *r, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *l = r; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
        n += strncmp(l, prefix, len) == 0;
    return n;
}

/* BookFile keeps the value as typed: book files named with two spaces or a tab open by those names in UCI
 * and UCCI (before the fix, "two sp.xqb" was tried); blanks around a list's entries are still trimmed. */
static void test_book_names_as_typed(void **state)
{
    (void)state;
    static const char *const NAMES[] = { "test_protocol_book two  sp.xqb", "test_protocol_book\ttab.xqb" };
    static const BookSpec X[] = { { "", "h2e2", 30 } };
    char path[600];
    for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++)
        tb_write_xqb(tb_path(NAMES[i], path, sizeof path), X, 1);
    EnginePipe *ep = ep_open("ucci", "ucciok", T_FAST);
    for (int uci = 0; uci < 2; uci++)
        for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++) {
            ep_send(ep, uci ? "setoption name BookFile value %s/%s" : "setoption bookfiles %s/%s", XQ_TEST_TMP,
                    NAMES[i]);
            ep_reply(ep, reply, sizeof reply, T_FAST);
            if (!strstr(reply, "info string book opened: ") || strstr(reply, "error"))
                fail_msg("'%s' answered '%s'", NAMES[i], reply);
        }
    ep_close(ep, NULL, T_FAST);
    for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++)
        remove(tb_path(NAMES[i], path, sizeof path));
}

/* UCCI: the options, book lines before the move, the ponder move from the book, out of the book a search. */
static void test_ucci(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("ucci", "ucciok", T_FAST);
    assert_non_null(strstr(ep->transcript, "option usebook type check default false\n"));
    assert_non_null(strstr(ep->transcript, "option bookfiles type string default " BOOKFILES_DEFAULT "\n"));
    assert_non_null(strstr(ep->transcript, "option bookseed type spin min 0 max 2147483647 default 0\n"));
    ep_send(ep, "setoption bookfiles %s", XQB);
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "info string book opened: "));
    assert_non_null(strstr(reply, "(2 book moves in the current position); it is used once usebook is true"));
    /* off: a search even in the book */
    const char *r = go_and_read(ep, "", "go depth 3");
    assert_int_equal(count_lines(r, "info depth 0"), 0);
    assert_true(count_lines(r, "info depth 3 ") >= 1);
    ep_send(ep, "setoption usebook true");
    r = go_and_read(ep, "", "go time 2000 increment 0");
    assert_non_null(strstr(r, "info depth 0 score 30 pv h2e2\ninfo depth 0 score 10 pv c3c4\nbestmove "));
    assert_int_equal(count_lines(r, "info depth 1 "), 0); /* nothing searched */
    assert_true(best_in(r, "h2e2 c3c4"));
    if (strstr(r, "bestmove h2e2"))
        assert_non_null(strstr(r, "bestmove h2e2 ponder h9g7\n"));
    r = go_and_read(ep, "h2e2", "go depth 3");
    assert_non_null(strstr(r, "info depth 0 score 7 pv h9g7\nbestmove h9g7 ponder h0g2\n"));
    /* the mirror of a stored line is found, its moves mirrored */
    r = go_and_read(ep, "b2e2 b9c7", "go depth 3");
    assert_non_null(strstr(r, "info depth 0 score 3 pv b0c2\nbestmove b0c2\n"));
    r = go_and_read(ep, "a3a4", "go depth 3");
    assert_int_equal(count_lines(r, "info depth 0"), 0);
    assert_true(count_lines(r, "info depth 3 ") >= 1);
    ep_close(ep, NULL, T_FAST);
}

/* Several files in order, missing and malformed files (an error, then no book), an empty list. */
static void test_files(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("ucci", "ucciok", T_FAST);
    ep_send(ep, "setoption usebook true");
    ep_send(ep, "setoption bookfiles %s;%s", XQB, EE);
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_int_equal(count_lines(reply, "info string error"), 0);
    const char *r = go_and_read(ep, "", "go depth 3");
    assert_true(best_in(r, "h2e2 c3c4")); /* the first file knows the start position: the second is not asked */
    r = go_and_read(ep, "c3c4", "go depth 3");
    assert_non_null(strstr(r, "info depth 0 score 9 pv c6c5\nbestmove c6c5\n"));
    r = go_and_read(ep, "h2e2 h9g7 h0g2", "go depth 3");
    assert_non_null(strstr(r, "bestmove i9h9"));
    ep_send(ep, "setoption bookfiles %s;%s/test_protocol_book.none", XQB, XQ_TEST_TMP);
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "info string error: book file '"));
    assert_non_null(strstr(reply, "test_protocol_book.none': cannot open (No such file or directory); playing "
                                  "without a book\n"));
    r = go_and_read(ep, "", "go depth 3");
    assert_int_equal(count_lines(r, "info depth 0"), 0); /* all or nothing: not even the good file */
    ep_send(ep, "setoption bookfiles %s", BAD);
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "info string error: book file '"));
    assert_non_null(strstr(reply, "test_protocol_book.bad': not a .xqb book nor a BOOK.DAT (7 bytes: no whole "
                                  "8-byte records); playing without a book\n"));
    ep_send(ep, "setoption bookfiles %s", EE);
    r = go_and_read(ep, "", "go depth 3");
    assert_non_null(strstr(r, "info depth 0 score 5 pv b0c2\nbestmove b0c2\n"));
    ep_send(ep, "setoption bookfiles");
    r = go_and_read(ep, "", "go depth 3");
    assert_int_equal(count_lines(r, "info depth 0"), 0);
    ep_close(ep, NULL, T_FAST);
}

/* searchmoves and banmoves exclude book moves; ponder and infinite search; depth 0 answers nothing. */
static void test_go_kinds(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("ucci", "ucciok", T_FAST);
    ep_send(ep, "setoption usebook true");
    ep_send(ep, "setoption bookfiles %s", XQB);
    const char *r = go_and_read(ep, "", "go depth 3 searchmoves c3c4 b0c2");
    assert_non_null(strstr(r, "info depth 0 score 10 pv c3c4\nbestmove c3c4"));
    r = go_and_read(ep, "", "go depth 3 searchmoves b0c2");
    assert_int_equal(count_lines(r, "info depth 0"), 0);
    assert_true(best_in(r, "b0c2"));
    tb_line(&POS, "");
    ep_send(ep, "position startpos");
    ep_send(ep, "banmoves h2e2");
    size_t from = ep->t_len;
    ep_send(ep, "go depth 3");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_non_null(strstr(ep->transcript + from, "info depth 0 score 10 pv c3c4\nbestmove c3c4"));
    /* ponder: no move before ponderhit, and a search */
    ep_send(ep, "position startpos");
    from = ep->t_len;
    ep_send(ep, "go ponder time 1000 increment 0");
    assert_true(ep_quiet_for(ep, "bestmove", 300));
    ep_send(ep, "ponderhit");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_null(strstr(ep->transcript + from, "info depth 0"));
    assert_non_null(strstr(ep->transcript + from, "info depth 1 "));
    /* infinite: a search until stop */
    from = ep->t_len;
    ep_send(ep, "go infinite");
    assert_true(ep_quiet_for(ep, "bestmove", 300));
    ep_send(ep, "stop");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_null(strstr(ep->transcript + from, "info depth 0 score 30"));
    r = go_and_read(ep, "", "go depth 0");
    assert_non_null(strstr(r, "nobestmove"));
    ep_close(ep, NULL, T_FAST);
}

/* UCI: OwnBook, BookFile, Book Seed; "info depth 0 score cp W pv M" lines. */
static void test_uci(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    assert_non_null(strstr(ep->transcript, "option name OwnBook type check default false\n"));
    assert_non_null(strstr(ep->transcript, "option name BookFile type string default " BOOKFILES_DEFAULT "\n"));
    assert_non_null(strstr(ep->transcript, "option name Book Seed type spin default 0 min 0 max 2147483647\n"));
    ep_send(ep, "setoption name BookFile value %s", XQB);
    ep_send(ep, "setoption name OwnBook value true");
    ep_send(ep, "setoption name Book Seed value 5");
    const char *r = go_and_read(ep, "h2e2", "go wtime 2000 btime 2000");
    assert_non_null(strstr(r, "info depth 0 score cp 7 pv h9g7\nbestmove h9g7 ponder h0g2\n"));
    ep_send(ep, "setoption name OwnBook value false");
    r = go_and_read(ep, "h2e2", "go depth 2");
    assert_int_equal(count_lines(r, "info depth 0"), 0);
    ep_close(ep, NULL, T_FAST);
}

/* CECP: the feature options, bk, thinking lines for a book move, the move played. */
static void test_cecp(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open(EP_CECP_HELLO, EP_CECP_OK, T_FAST);
    assert_non_null(strstr(ep->transcript, "feature option=\"OwnBook -check 0\"\n"));
    assert_non_null(strstr(ep->transcript, "feature option=\"BookFile -file " BOOKFILES_DEFAULT "\"\n"));
    assert_non_null(strstr(ep->transcript, "feature option=\"Book Seed -spin 0 0 2147483647\"\n"));
    ep_send(ep, "new");
    ep_send(ep, "variant xiangqi");
    ep_send(ep, "level 0 0:30 0");
    ep_send(ep, "post");
    ep_send(ep, "option BookFile=%s", XQB);
    ep_reply_to(ep, "ping 1", "pong 1", reply, sizeof reply, T_FAST);
    ep_send(ep, "bk");
    ep_reply_to(ep, "ping 2", "pong 2", reply, sizeof reply, T_FAST);
    assert_string_equal(reply, " h2e2 75% (weight 30)\n c3c4 25% (weight 10)\n"
                               " the book is off (option OwnBook): the engine searches\n\n");
    ep_send(ep, "option OwnBook=1");
    ep_send(ep, "usermove h2e2");
    ep_must(ep, "move ", T_FAST);
    assert_string_equal(ep->last, "move h9g7");
    assert_non_null(strstr(ep->transcript, "\n0 7 0 0 0 0 0\th9g7\nmove h9g7\n"));
    ep_send(ep, "bk");
    ep_reply_to(ep, "ping 3", "pong 3", reply, sizeof reply, T_FAST);
    assert_string_equal(reply, " h0g2 100% (weight 3)\n\n");

    /* a draw offer is answered with a searched move and score, not from the book (it once accepted any
     * offer with the book move's score 0) */
    ep_send(ep, "new");
    ep_send(ep, "sd 2");
    ep_send(ep, "draw");
    ep_send(ep, "usermove h2e2");
    ep_reply_to(ep, "ping 4", "pong 4", reply, sizeof reply, T_FAST * 2);
    assert_null(strstr(reply, "\th9g7\nmove")); /* no book thinking line */
    assert_non_null(strstr(reply, "\n2 ")); /* a depth-2 thinking line: it searched */
    assert_non_null(strstr(reply, "move "));

    /* bk while pondering on the guessed reply lists the user's moves, not the replies to the guess */
    ep_send(ep, "new");
    ep_send(ep, "sd 0");
    ep_send(ep, "hard");
    ep_send(ep, "usermove h2e2");
    ep_must(ep, "move ", T_FAST);
    assert_string_equal(ep->last, "move h9g7");
    ep_must(ep, "Hint: h0g2", T_FAST); /* pondering on the book's reply */
    ep_send(ep, "bk");
    ep_reply_to(ep, "ping 5", "pong 5", reply, sizeof reply, T_FAST);
    /* (the ponder search's thinking lines may come between) */
    assert_non_null(strstr(reply, " h0g2 100% (weight 3)\n"));
    assert_null(strstr(reply, "no book move"));
    ep_send(ep, "easy");
    ep_close(ep, NULL, T_FAST);
}

/* ElephantEye's own BOOK.DAT: the start position as ElephantEye reports it, from the file XQ_ELEEYE_BOOK
 * names or else from its records in tests/data/eleeye_book_records.txt (as that file stores them). */
static void test_real_eleeye_book(void **state)
{
    (void)state;
    char fixture[512];
    const char *path = getenv("XQ_ELEEYE_BOOK");
    if (!path || !*path) {
        tb_write_eleeye_records(tb_path("test_protocol_book_ee_real.dat", fixture, sizeof fixture));
        path = fixture;
    }
    EnginePipe *ep = ep_open("ucci", "ucciok", T_FAST);
    ep_send(ep, "setoption bookfiles %s", path);
    ep_send(ep, "setoption usebook true");
    const char *r = go_and_read(ep, "", "go depth 3");
    assert_int_equal(count_lines(r, "info depth 0 score "), 16);
    assert_non_null(strstr(r, "info depth 0 score 1473 pv b2e2\ninfo depth 0 score 1473 pv h2e2\n"));
    assert_true(best_in(r, "b2e2 h2e2 c3c4 g3g4 c0e2 g0e2 b0c2 h0g2 h2d2 b2f2 b2d2 h2f2 b0a2 h0i2 h2c2 b2g2"));
    r = go_and_read(ep, "h2e2", "go depth 3"); /* black to move, found through its mirror b2e2 */
    assert_non_null(strstr(r, "info depth 0 score 761 pv h9g7\ninfo depth 0 score 172 pv b9c7\n"));
    ep_close(ep, NULL, T_FAST);
}

/* Runs the protocol book tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ucci), cmocka_unit_test(test_files), cmocka_unit_test(test_go_kinds),
        cmocka_unit_test(test_uci),  cmocka_unit_test(test_cecp),  cmocka_unit_test(test_real_eleeye_book),
        cmocka_unit_test(test_book_names_as_typed),
    };
    return cmocka_run_group_tests(tests, write_books, NULL);
}
