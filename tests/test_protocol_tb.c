/* test_protocol_tb.c - the endgame tablebases through the protocol, in all three dialects: the options
 * (UCI EGTBPath / EGTBProbeLimit, UCCI egtbpaths / useegtb, CECP egtpath and the egt feature), tbhits in
 * the info lines, the table's best move at the root, and bad paths refused with the engine playing on.
 * KR-K is generated into build/tests/tb_protocol at the start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "enginepipe.h"
#include "board/move.h"
#include "board/movegen.h"
#include "tbtest.h"
#include "testutil.h"

enum { T_FAST = 5000, TEXT_MAX = 512 };

/* KR-K, red mates in 3 plies (a0a8 e8e9 a8f8) */
static const char MATE3_FEN[] = "9/4k4/9/9/9/9/9/9/9/R2K5 w - - 0 1";
static char tb_dir[TEXT_MAX / 2];
static TbSet *set;
static Position POS;

/* Generates KR-K into a fresh tb_dir. */
static int setup_tables(void **state)
{
    (void)state;
    static const char *const names[] = { "KR-K" };
    snprintf(tb_dir, sizeof tb_dir, "%s/tb_protocol", XQ_TEST_TMP);
    set = tbtest_generate(tb_dir, names, 1, 1);
    return set ? 0 : -1;
}

/* Frees the tables. */
static int teardown_tables(void **state)
{
    (void)state;
    tbtest_free(set);
    return 0;
}

/* Fails unless the bestmove line's move is one the table keeps at the root of fen. */
static void expect_table_move(const char *line, const char *fen)
{
    static Position root;
    test_setup(&root, fen);
    Move moves[MAX_MOVES];
    TbValue v;
    int n = tb_root_filter(set, &root, moves, gen_legal(&root, moves), &v);
    assert_true(n > 0);
    char text[MOVE_TEXT];
    for (int i = 0; i < n; i++)
        if (strncmp(line + strlen("bestmove "), move_to_text(moves[i], text), MOVE_TEXT - 1) == 0)
            return;
    fail_msg("'%s' is not a fastest mate of %s", line, fen);
}

/* The text after the last occurrence of needle in the transcript (or NULL). */
static const char *after_last(const EnginePipe *ep, const char *needle)
{
    const char *found = NULL;
    for (const char *p = strstr(ep->transcript, needle); p; p = strstr(p + 1, needle))
        found = p;
    return found;
}

/* Starts the engine with the handshake word hello and expects ok and the two option lines in its answer. */
static void start_listing(EnginePipe *ep, const char *hello, const char *ok, const char *line_a, const char *line_b)
{
    ep_start(ep);
    ep_send(ep, "%s", hello);
    ep_must(ep, ok, T_FAST);
    assert_non_null(strstr(ep->transcript, line_a));
    assert_non_null(strstr(ep->transcript, line_b));
}

/* Sends `setoption_prefix DIR` (tb_dir), expects the loading notice, then searches the mate in 3 and
 * expects one of the table's fastest moves. */
static void load_and_mate(EnginePipe *ep, const char *setoption_prefix)
{
    static char reply[EP_LINE_MAX], want[EP_LINE_MAX];
    ep_send(ep, "%s %s", setoption_prefix, tb_dir);
    ep_reply(ep, reply, sizeof reply, T_FAST);
    snprintf(want, sizeof want, "info string tablebases: 1 loaded from %s\n", tb_dir);
    assert_string_equal(reply, want);
    ep_send(ep, "position fen %s", MATE3_FEN);
    ep_send(ep, "go depth 5");
    test_setup(&POS, MATE3_FEN);
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    expect_table_move(ep->last, MATE3_FEN);
}

/* Searches the position to depth after an isready/readyok; returns the output from the readyok on. */
static const char *search_marked(EnginePipe *ep, int depth)
{
    ep_send(ep, "isready");
    ep_must(ep, "readyok", T_FAST);
    ep_send(ep, "go depth %d", depth);
    const char *mark = after_last(ep, "readyok");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    return mark;
}

/* UCI: the options listed, a path loaded, tbhits and the mate in the info line, the table's move; the
 * probe limit below the position's pieces and a path without tables turn the probes off. */
static void test_uci(void **state)
{
    (void)state;
    EnginePipe *ep = malloc(sizeof *ep);
    static char reply[EP_LINE_MAX];
    start_listing(ep, "uci", "uciok", "\noption name EGTBPath type string default <empty>\n",
                  "\noption name EGTBProbeLimit type spin default 32 min 0 max 32\n");
    load_and_mate(ep, "setoption name EGTBPath value");
    assert_non_null(strstr(ep->transcript, " score mate 2 "));
    const char *last_info = strstr(ep->transcript, "info depth 5 ");
    assert_non_null(last_info);
    assert_null(strstr(last_info, " tbhits 0 "));
    ep_send(ep, "setoption name EGTBProbeLimit value 2");
    const char *mark = search_marked(ep, 3);
    assert_non_null(strstr(mark, " tbhits 0 "));
    for (const char *t = strstr(mark, " tbhits "); t; t = strstr(t + 1, " tbhits "))
        assert_true(strncmp(t, " tbhits 0 ", 10) == 0);
    ep_send(ep, "setoption name EGTBPath value /no/such/dir");
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_string_equal(reply, "info string error: no tablebase in /no/such/dir; playing without tablebases\n");
    ep_send(ep, "go depth 3");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    ep_close(ep, NULL, T_FAST);
}

/* UCCI: egtbpaths and useegtb; "tbhits" on the info time line while probing, none with useegtb false. */
static void test_ucci(void **state)
{
    (void)state;
    EnginePipe *ep = malloc(sizeof *ep);
    start_listing(ep, "ucci", "ucciok", "\noption egtbpaths type string default <empty>\n",
                  "\noption useegtb type check default true\n");
    load_and_mate(ep, "setoption egtbpaths");
    assert_non_null(strstr(ep->transcript, " tbhits "));
    ep_send(ep, "setoption useegtb false");
    const char *mark = search_marked(ep, 5);
    assert_non_null(strstr(mark, "info time "));
    assert_null(strstr(mark, " tbhits "));
    ep_close(ep, "bye", T_FAST);
}

/* The largest tbhits field of the CECP thinking lines ("ply score time nodes seldepth nps tbhits<TAB>pv")
 * in text; -1 if there is no such line. */
static long long cecp_max_tbhits(const char *text)
{
    long long best = -1;
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        int ply, score, seldepth, used;
        long long time, nodes, nps, tbhits;
        if (sscanf(l, "%d %d %lld %lld %d %lld %lld%n", &ply, &score, &time, &nodes, &seldepth, &nps, &tbhits,
                   &used) == 7 && l[used] == '\t' && tbhits > best)
            best = tbhits;
    }
    return best;
}

/* CECP: the egt feature, egtpath xiangqi DIR loads the tables (a notice), another type or a missing
 * directory is refused, and the engine mates in the table's distance; its thinking lines count tbhits. */
static void test_cecp(void **state)
{
    (void)state;
    static char reply[EP_LINE_MAX], want[EP_LINE_MAX];
    EnginePipe *ep = ep_open(EP_CECP_HELLO, EP_CECP_OK, T_FAST);
    assert_non_null(strstr(ep->transcript, " egt=\"xiangqi\""));
    ep_send(ep, "egtpath xiangqi %s", tb_dir);
    ep_reply_to(ep, "ping 1", "pong 1", reply, sizeof reply, T_FAST);
    snprintf(want, sizeof want, "tablebases: 1 loaded from %s", tb_dir);
    assert_non_null(strstr(reply, want));
    ep_send(ep, "egtpath nalimov /tmp");
    ep_reply_to(ep, "ping 2", "pong 2", reply, sizeof reply, T_FAST);
    assert_string_equal(reply, "Error (unknown tablebase type): egtpath nalimov\n");
    ep_send(ep, "new");
    ep_send(ep, "force");
    ep_send(ep, "setboard %s", MATE3_FEN);
    ep_send(ep, "sd 5");
    ep_send(ep, "post");
    size_t before_go = strlen(ep->transcript);
    ep_send(ep, "go");
    ep_must(ep, "move ", T_FAST);
    assert_true(cecp_max_tbhits(ep->transcript + before_go) > 0);
    char line[EP_LINE_MAX];
    snprintf(line, sizeof line, "bestmove %s", ep->last + strlen("move "));
    expect_table_move(line, MATE3_FEN);
    ep_send(ep, "egtpath xiangqi /no/such/dir");
    ep_reply_to(ep, "ping 3", "pong 3", reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "no tablebase in /no/such/dir"));
    ep_close(ep, NULL, T_FAST);
}

/* Copies the first `keep` bytes of a file (all of it when keep < 0) to another path. */
static void copy_prefix(const char *from, const char *to, long keep)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    long i = 0;
    for (int c; (c = fgetc(in)) != EOF && (keep < 0 || i < keep); i++)
        fputc(c, out);
    fclose(in);
    fclose(out);
}

/* A directory with a good KR-K beside a truncated KH-K, a first-version KP-K and a foreign KC-K: UCCI
 * egtbpaths reports each refused file with its reason in one `info string error:` line, loads the good one
 * and the engine plays on with it (the mate found, tbhits counted). */
static void test_bad_files(void **state)
{
    (void)state;
    static char dir[EP_LINE_MAX], path[EP_LINE_MAX], good[EP_LINE_MAX], want[EP_LINE_MAX];
    snprintf(dir, sizeof dir, "%.200s/bad", tb_dir);
    mkdir(dir, 0777);
    assert_true(tb_file_path(tb_dir, "KR-K", good, sizeof good));
    assert_true(tb_file_path(dir, "KR-K", path, sizeof path));
    copy_prefix(good, path, -1);
    assert_true(tb_file_path(dir, "KH-K", path, sizeof path));
    copy_prefix(good, path, TB_HEADER_SIZE + 40);
    assert_true(tb_file_path(dir, "KP-K", path, sizeof path));
    static const unsigned char first_version[TB_HEADER_SIZE] = { 'J', 'J', 'X', 'Q', 'T', 'B', 0x1a, '\n', 1 };
    FILE *f = fopen(path, "wb"); /* the magic, then version 1 (u32), then zeros */
    assert_non_null(f);
    assert_int_equal(fwrite(first_version, 1, sizeof first_version, f), sizeof first_version);
    fclose(f);
    assert_true(tb_file_path(dir, "KC-K", path, sizeof path));
    copy_prefix(XQ_TEST_DATA "/perft.epd", path, -1);
    EnginePipe *ep = ep_open("ucci", "ucciok", T_FAST);
    ep_send(ep, "setoption egtbpaths %s", dir);
    ep_send(ep, "isready");
    ep_must(ep, "readyok", T_FAST);
    const char *reasons[] = { "KH-K.jjtb: truncated file; skipped",
                              ("KP-K.jjtb: format version 1 (no perpetual-check rule, "
                               "uncompressed): regenerate it (jiangjun tb gen); skipped"),
                              "KC-K.jjtb: not a Jiangjun tablebase (bad magic); skipped" };
    for (size_t i = 0; i < sizeof reasons / sizeof *reasons; i++) {
        snprintf(want, sizeof want, "info string error: %.300s/%s\n", dir, reasons[i]);
        if (!strstr(ep->transcript, want))
            fail_msg("no '%s' in:\n%s", want, ep->transcript);
    }
    snprintf(want, sizeof want, "info string tablebases: 1 loaded from %.300s\n", dir);
    assert_non_null(strstr(ep->transcript, want));
    ep_send(ep, "position fen %s", MATE3_FEN);
    test_setup(&POS, MATE3_FEN);
    const char *mark = search_marked(ep, 5);
    assert_non_null(strstr(mark, " tbhits "));
    expect_table_move(ep->last, MATE3_FEN);
    ep_close(ep, NULL, T_FAST);
}

/* Runs the dialogs. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uci),
        cmocka_unit_test(test_ucci),
        cmocka_unit_test(test_cecp),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, setup_tables, teardown_tables);
}
