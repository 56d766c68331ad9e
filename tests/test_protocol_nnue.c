/*
 * test_protocol_nnue.c - the network options in both dialects against the
 * real binary: EvalFile loads a net (here a seeded random one written by the
 * test), `d` shows the evaluation in use, every bad file (missing,
 * truncated, foreign, corrupt) gets one `info string error:` and leaves the
 * evaluation as it was, Use NNUE switches to the hand-crafted evaluation and
 * back, and searches with a loaded net play legal moves.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enginepipe.h"
#include "eval/eval.h"
#include "board/move.h"
#include "eval/nnue/nnue.h"
#include "testnet.h"
#include "testutil.h"

enum { T_FAST = 5000 };
#define FILE_SIZE nnue_file_size(&NNUE_SHAPE_V1)

static Position POS;
static char NET_PATH[256], TRUNC_PATH[256], FOREIGN_PATH[256], HOSTILE_PATH[256];

/* A net description that tries to write protocol lines (a valid net: its checksum covers the description). */
static const char HOSTILE_DESC[] = "x\nbestmove a0a1\nreadyok\n1-0 {red wins}\r\x1b[2J\tend";

/* Writes size bytes of img to path. */
static void write_file(const char *path, const uint8_t *img, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(img, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* Sends `d` and returns the static eval it shows; *network tells which evaluation printed it. */
static int shown_eval(EnginePipe *ep, bool *network)
{
    ep_send(ep, "d");
    ep_must(ep, "Static eval (side to move): ", T_FAST);
    *network = strstr(ep->last, "(network)") != NULL;
    return atoi(ep->last + strlen("Static eval (side to move): "));
}

/* Sends a setoption and expects an info string containing want. */
static void set_expect(EnginePipe *ep, const char *line, const char *want)
{
    ep_send(ep, "%s", line);
    ep_must(ep, "info string", T_FAST);
    if (!strstr(ep->last, want))
        fail_msg("after '%s' got '%s', wanted '%s'", line, ep->last, want);
}

/* UCI: EvalFile and Use NNUE, good and bad files. */
static void test_uci_options(void **state)
{
    (void)state;
    Network *net = test_net(1);
    Position start;
    test_setup(&start, START_FEN);
    const int net_eval = nnue_evaluate_fresh(net, &start, NULL), hce_eval = evaluate(&start, &EVAL_DEFAULTS);
    assert_int_not_equal(net_eval, hce_eval);
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    assert_non_null(strstr(ep->transcript, "option name EvalFile type string"));
    assert_non_null(strstr(ep->transcript, nnue_default() ? "option name Use NNUE type check default true"
                                                          : "option name Use NNUE type check default false"));
    bool network;
    if (!nnue_default()) {
        set_expect(ep, "setoption name Use NNUE value true", "error: no net loaded");
        assert_int_equal(shown_eval(ep, &network), hce_eval);
        assert_false(network);
    }
    char line[600];
    snprintf(line, sizeof line, "setoption name EvalFile value %s", NET_PATH);
    set_expect(ep, line, "net loaded");
    ep_send(ep, "setoption name Use NNUE value true");
    assert_int_equal(shown_eval(ep, &network), net_eval);
    assert_true(network);

    const char *bad[][2] = { { TRUNC_PATH, "truncated" }, { FOREIGN_PATH, "magic" },
                             { "/nonexistent/x.nnue", "cannot open" } };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(line, sizeof line, "setoption name EvalFile value %s", bad[i][0]);
        set_expect(ep, line, bad[i][1]);
        assert_non_null(strstr(ep->last, "info string error: EvalFile"));
        assert_int_equal(shown_eval(ep, &network), net_eval); /* the loaded net stays */
        assert_true(network);
    }
    ep_send(ep, "setoption name Use NNUE value false");
    assert_int_equal(shown_eval(ep, &network), hce_eval);
    assert_false(network);
    ep_send(ep, "setoption name Use NNUE value true");
    ep_send(ep, "position startpos moves h2e2 h9g7");
    ep_send(ep, "go depth 6");
    test_setup(&POS, START_FEN);
    XqError err;
    Move m;
    assert_true(move_parse_legal(&POS, "h2e2", &m, &err));
    pos_make(&POS, m);
    assert_true(move_parse_legal(&POS, "h9g7", &m, &err));
    pos_make(&POS, m);
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    ep_close(ep, NULL, T_FAST);
    nnue_net_free(net);
}

/* UCCI: the same options by their UCCI names. */
static void test_ucci_options(void **state)
{
    (void)state;
    Network *net = test_net(1);
    Position start;
    test_setup(&start, START_FEN);
    EnginePipe *ep = ep_open("ucci", "ucciok", T_FAST);
    assert_non_null(strstr(ep->transcript, "option evalfile type string"));
    assert_non_null(strstr(ep->transcript, "option usennue type check"));
    char line[600];
    snprintf(line, sizeof line, "setoption evalfile %s", NET_PATH);
    set_expect(ep, line, "net loaded");
    ep_send(ep, "setoption usennue true");
    bool network;
    assert_int_equal(shown_eval(ep, &network), nnue_evaluate_fresh(net, &start, NULL));
    assert_true(network);
    ep_send(ep, "setoption usennue false");
    assert_int_equal(shown_eval(ep, &network), evaluate(&start, &EVAL_DEFAULTS));
    assert_false(network);
    ep_send(ep, "setoption usennue true");
    ep_send(ep, "position startpos");
    ep_send(ep, "go nodes 20000");
    test_setup(&POS, START_FEN);
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    ep_close(ep, "bye", T_FAST);
    nnue_net_free(net);
}

/* EvalFile and BookFiles naming a FIFO (no writer, so a plain open blocks), /dev/stdin (the GUI's pipe: a
 * read blocks, or eats the protocol's input) or a directory: one error each, and isready answered at once. */
static void test_special_files(void **state)
{
    (void)state;
    char fifo[64], line[600], reply[4096];
    snprintf(fifo, sizeof fifo, "test_protocol_nnue_%d.fifo", (int)getpid());
    remove(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const char *files[] = { fifo, "/dev/stdin", "." };
    const char *forms[] = { "setoption name EvalFile value %s", "setoption name BookFile value %s",
                            "setoption evalfile %s", "setoption bookfiles %s" };
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
        for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
            snprintf(line, sizeof line, forms[f], files[i]);
            ep_send(ep, "%s", line);
            int64_t t0 = ep_now_ms();
            ep_reply(ep, reply, sizeof reply, T_FAST); /* before the fix: no readyok, ever */
            if (!strstr(reply, "info string error: ") || !strstr(reply, "not a regular file"))
                fail_msg("'%s' answered '%s'", line, reply);
            assert_true(ep_now_ms() - t0 < T_FAST);
        }
    ep_close(ep, NULL, T_FAST);
    remove(fifo);
}

/* The lines a reply holds that start with prefix. */
static int lines_starting(const char *reply, const char *prefix)
{
    int n = 0;
    for (const char *l = reply; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        n += strncmp(l, prefix, strlen(prefix)) == 0;
    return n;
}

/* A net whose description holds newlines, a CR, an escape sequence and a tab: loading it prints one line
 * in every dialect, its control characters escaped as \xHH (before the fix: bestmove, readyok, 1-0 lines). */
static void test_hostile_description(void **state)
{
    (void)state;
    char reply[4096];
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    ep_send(ep, "setoption name EvalFile value %s", HOSTILE_PATH);
    ep_reply(ep, reply, sizeof reply, T_FAST);
    char want[512];
    snprintf(want, sizeof want, "info string net loaded: %s (x\\x0abestmove a0a1\\x0areadyok\\x0a1-0 {red wins}"
             "\\x0d\\x1b[2J\\x09end)\n", HOSTILE_PATH);
    assert_string_equal(reply, want);
    ep_send(ep, "\x1b[2Jx\x01y"); /* input quoted in an error: escaped the same way */
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_string_equal(reply, "info string unknown command '\\x1b[2Jx\\x01y' ignored\n");
    ep_send(ep, "ucci");
    ep_must(ep, "ucciok", T_FAST);
    ep_send(ep, "setoption evalfile %s", HOSTILE_PATH);
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_int_equal(lines_starting(reply, "info string net loaded: "), 1);
    assert_null(strchr(reply, '\t'));
    assert_int_equal(lines_starting(reply, "bestmove"), 0);
    ep_send(ep, "xboard");
    ep_send(ep, "protover 2");
    ep_must(ep, "feature done=1", T_FAST);
    ep_send(ep, "option EvalFile=%s", HOSTILE_PATH);
    ep_reply_to(ep, "ping 1", "pong 1", reply, sizeof reply, T_FAST);
    assert_int_equal(lines_starting(reply, "1-0"), 0);
    assert_int_equal(lines_starting(reply, "bestmove"), 0);
    assert_int_equal(lines_starting(reply, "readyok"), 0);
    assert_null(strchr(reply, '\r'));
    ep_close(ep, NULL, T_FAST);
}

/* setoption keeps a value as typed: net files named with two spaces, a tab, a trailing or a leading blank load
 * by those names in UCI and UCCI (before the fix, blanks were collapsed and trimmed: "two sp.nnue" was tried);
 * a number with blanks around it is still a number. */
static void test_values_as_typed(void **state)
{
    (void)state;
    static const char *const NAMES[][2] = { /* the file's name, as an info string shows it */
        { "test_protocol_nnue two  sp.nnue", "test_protocol_nnue two  sp.nnue" },
        { "test_protocol_nnue\ttab.nnue", "test_protocol_nnue\\x09tab.nnue" },
        { "test_protocol_nnue trail.nnue ", "test_protocol_nnue trail.nnue " },
        { "  test_protocol_nnue lead.nnue", "  test_protocol_nnue lead.nnue" },
    };
    enum { N_NAMES = sizeof NAMES / sizeof *NAMES };
    Network *net = test_net(2);
    uint8_t *img = malloc(FILE_SIZE);
    assert_non_null(img);
    nnue_serialise(net, img);
    for (int i = 0; i < N_NAMES; i++)
        write_file(NAMES[i][0], img, FILE_SIZE);
    char reply[4096], want[256];
    EnginePipe *ep = ep_open("uci", "uciok", T_FAST);
    for (int ucci = 0; ucci < 2; ucci++)
        for (int i = 0; i < N_NAMES; i++) {
            /* UCI: the rest of the line after "value" and its blank; UCCI: after the name and its blank */
            ep_send(ep, ucci ? "setoption evalfile %s" : "setoption name EvalFile value %s", NAMES[i][0]);
            ep_reply(ep, reply, sizeof reply, T_FAST);
            snprintf(want, sizeof want, "info string net loaded: %s (", NAMES[i][1]);
            if (strncmp(reply, want, strlen(want)) != 0)
                fail_msg("'%s' answered '%s'", NAMES[i][0], reply);
        }
    ep_send(ep, "setoption name EvalFile value test_protocol_nnue two sp.nnue"); /* one space: another name */
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "info string error: EvalFile: net file 'test_protocol_nnue two sp.nnue'"));
    ep_send(ep, "setoption name Hash value  16 \r");
    ep_send(ep, "setoption name Threads value\t1");
    ep_send(ep, "setoption hashsize value 16 ");
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_string_equal(reply, "");
    ep_close(ep, NULL, T_FAST);
    for (int i = 0; i < N_NAMES; i++)
        remove(NAMES[i][0]);
    free(img);
    nnue_net_free(net);
}

/* Writes the net files the tests load: a good one, a truncated copy and a foreign file. */
static int write_nets(void **state)
{
    (void)state;
    Network *net = test_net(1);
    uint8_t *img = malloc(FILE_SIZE);
    if (!img)
        return -1;
    nnue_serialise(net, img);
    snprintf(NET_PATH, sizeof NET_PATH, "test_protocol_nnue_%d.nnue", (int)getpid());
    snprintf(TRUNC_PATH, sizeof TRUNC_PATH, "test_protocol_nnue_%d_trunc.nnue", (int)getpid());
    snprintf(FOREIGN_PATH, sizeof FOREIGN_PATH, "test_protocol_nnue_%d_foreign.nnue", (int)getpid());
    write_file(NET_PATH, img, FILE_SIZE);
    snprintf(HOSTILE_PATH, sizeof HOSTILE_PATH, "test_protocol_nnue_%d_hostile.nnue", (int)getpid());
    snprintf(net->desc, sizeof net->desc, "%s", HOSTILE_DESC);
    uint8_t *hostile = malloc(FILE_SIZE);
    if (!hostile)
        return -1;
    nnue_serialise(net, hostile);
    write_file(HOSTILE_PATH, hostile, FILE_SIZE);
    free(hostile);
    write_file(TRUNC_PATH, img, FILE_SIZE / 2);
    memcpy(img, "PIKAFISH", 8);
    write_file(FOREIGN_PATH, img, FILE_SIZE);
    free(img);
    nnue_net_free(net);
    return 0;
}

/* Removes the net files. */
static int remove_nets(void **state)
{
    (void)state;
    remove(NET_PATH);
    remove(TRUNC_PATH);
    remove(FOREIGN_PATH);
    remove(HOSTILE_PATH);
    return 0;
}

/* Runs the network option dialogs. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uci_options),
        cmocka_unit_test(test_ucci_options),
        cmocka_unit_test(test_special_files),
        cmocka_unit_test(test_hostile_description),
        cmocka_unit_test(test_values_as_typed),
    };
    return cmocka_run_group_tests(tests, write_nets, remove_nets);
}
