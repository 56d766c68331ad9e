/*
 * test_protocol_lines.c - the session fed line by line with no thread (protocol_open, the browser's wasm build):
 * each protocol_line returns with its output written, a search and a perft included (they run in the caller);
 * a go that waits for stop gets the one-thread error and searches nothing, in UCCI, UCI and CECP's analyze;
 * a bad FEN gets one error (and, as on stdin, no valid position until the next good one); quit ends the session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/square.h"
#include "protocol/protocol.h"
#include "testutil.h"

enum { OUT_MAX = 1 << 16 };

/* A session writing into a temporary file, and how much of it has been read back. */
typedef struct Lines {
    FILE *f;
    ProtocolSession *s;
    long read;
    char out[OUT_MAX];
} Lines;

/* Opens a session on a fresh temporary file. */
static void lines_open(Lines *t)
{
    tables_init();
    t->f = tmpfile();
    assert_non_null(t->f);
    t->s = protocol_open(t->f, NULL);
    assert_non_null(t->s);
    t->read = 0;
}

/* Runs one line and returns what it wrote (in t->out); *alive receives protocol_line's answer. */
static const char *say(Lines *t, const char *line, bool *alive)
{
    bool ok = protocol_line(t->s, line);
    if (alive)
        *alive = ok;
    fflush(t->f);
    long end = ftell(t->f);
    assert_true(end >= t->read && end - t->read < OUT_MAX);
    fseek(t->f, t->read, SEEK_SET);
    size_t n = fread(t->out, 1, (size_t)(end - t->read), t->f);
    t->out[n] = '\0';
    t->read = end;
    fseek(t->f, 0, SEEK_END);
    return t->out;
}

/* Closes the session and its file. */
static void lines_close(Lines *t)
{
    protocol_close(t->s);
    fclose(t->f);
}

/* Counts the lines of text that start with prefix. */
static int count_prefix(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        n += strncmp(l, prefix, len) == 0;
    return n;
}

/* A UCCI game: the search has ended and printed its bestmove when protocol_line returns. */
static void test_ucci_go_returns_with_bestmove(void **state)
{
    (void)state;
    Lines *t = malloc(sizeof *t);
    assert_non_null(t);
    lines_open(t);
    assert_non_null(strstr(say(t, "ucci", NULL), "ucciok\n"));
    assert_string_equal(say(t, "isready", NULL), "readyok\n");
    say(t, "position startpos moves h2e2", NULL);
    const char *out = say(t, "go depth 4", NULL);
    assert_int_equal(count_prefix(out, "bestmove "), 1);
    assert_true(count_prefix(out, "info depth 4 ") >= 1);
    /* no search is left running: the next line is answered at once, not deferred */
    assert_string_equal(say(t, "isready", NULL), "readyok\n");
    out = say(t, "go perft 2", NULL);
    assert_non_null(strstr(out, "Nodes searched: 1564\n")); /* the position after h2e2, black to move */
    lines_close(t);
    free(t);
}

/* go infinite and go depth infinite (UCCI), a bare go (UCI) and analyze (CECP) cannot be stopped: an error, no
 * search. */
static void test_open_ended_searches_refused(void **state)
{
    (void)state;
    Lines *t = malloc(sizeof *t);
    assert_non_null(t);
    lines_open(t);
    say(t, "ucci", NULL);
    const char *out = say(t, "go infinite", NULL);
    assert_int_equal(count_prefix(out, "info string error: this build has one thread"), 1);
    assert_int_equal(count_prefix(out, "info depth"), 0);
    assert_int_equal(count_prefix(out, "nobestmove"), 1);
    out = say(t, "go depth infinite", NULL); /* UCCI's spelling of the same mode, not a bad depth */
    assert_int_equal(count_prefix(out, "info string error: this build has one thread"), 1);
    assert_int_equal(count_prefix(out, "nobestmove"), 1);
    say(t, "uci", NULL);
    out = say(t, "go", NULL);
    assert_int_equal(count_prefix(out, "info string error: this build has one thread"), 1);
    assert_int_equal(count_prefix(out, "info depth"), 0);
    say(t, "xboard", NULL);
    say(t, "protover 2", NULL);
    out = say(t, "analyze", NULL);
    assert_non_null(strstr(out, "this build has one thread"));
    lines_close(t);
    free(t);
}

/* A bad FEN gets one error, as on stdin; quit ends the session and later lines are ignored. */
static void test_bad_fen_and_quit(void **state)
{
    (void)state;
    Lines *t = malloc(sizeof *t);
    assert_non_null(t);
    lines_open(t);
    say(t, "ucci", NULL);
    say(t, "position startpos moves h2e2", NULL);
    const char *out = say(t, "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1", NULL);
    assert_int_equal(count_prefix(out, "info string error: "), 1);
    out = say(t, "go perft 1", NULL); /* as on stdin: no valid position until the next good one */
    assert_int_equal(count_prefix(out, "info string error: perft without a valid position"), 1);
    say(t, "position startpos moves h2e2", NULL);
    out = say(t, "go perft 1", NULL);
    assert_non_null(strstr(out, "Nodes searched: 45\n")); /* after h2e2 (the start has 44) */
    bool alive = true;
    say(t, "quit", &alive);
    assert_false(alive);
    assert_string_equal(say(t, "isready", &alive), "");
    assert_false(alive);
    lines_close(t);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ucci_go_returns_with_bestmove),
        cmocka_unit_test(test_open_ended_searches_refused),
        cmocka_unit_test(test_bad_fen_and_quit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
