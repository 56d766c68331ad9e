/*
 * test_protocol_limits.c - what a hostile GUI may send, against the real
 * binary: lists longer than any array behind them (searchmoves, banmoves,
 * position moves, option values), clocks at the parser's extremes and probe
 * during a search (a data race under ThreadSanitizer before the search
 * thread answered it), a hash size that is not a power of two, a flood of
 * lines that must wait for a search (the queue is capped), go perft 9 (isready, stop and quit answered
 * during it), stop or ponderhit behind a go that waits for a search that will not end soon. After each
 * the engine answers, says what it ignored, and still plays legal moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enginepipe.h"
#include "board/move.h"
#include "testutil.h"

enum {
    T_FAST = 3000,
    LONG_LIST = 400,          /* far more than MAX_MOVES (128) */
    QUIET_PLIES = 131100,     /* more quiet plies than a 16-bit counter holds (a wrap would leave 28) */
    PROBES = 200,             /* probe lines sent during one search */
    THINK_MS = 300,           /* a search with a huge clock still thinks this long */
    FLAGGED_MS = 1000 + EP_LOAD_SLACK_MS, /* a search on a flagged clock answers within this (it may take 0 ms:
                                 the bound is the load's slack; one thinking until stop never answers) */
    DEFERRED_CAP = 4096,      /* lines the engine keeps waiting behind a search (src/protocol/protocol.c) */
    FLOOD = 5000,             /* lines sent during one search that must wait for it */
    LIVE_MS = 100 + EP_LOAD_SLACK_MS, /* isready/stop/quit during a long command: the protocol asks 100 ms; a
                                 loaded machine may take longer, a blocked protocol thread never answers */
    LATENCY_PROBES = 10,      /* isready lines sent during one long command */
};

/* The 44 legal moves of the start position. */
static const char *const START_MOVES[] = {
    "e0e1", "d0e1", "f0e1", "c0e2", "c0a2", "g0i2", "g0e2", "b0c2", "b0a2", "h0i2", "h0g2",
    "a0a1", "a0a2", "i0i1", "i0i2", "b2b3", "b2b4", "b2b5", "b2b6", "b2b9", "b2b1", "b2c2",
    "b2d2", "b2e2", "b2f2", "b2g2", "b2a2", "h2h3", "h2h4", "h2h5", "h2h6", "h2h9", "h2h1",
    "h2i2", "h2g2", "h2f2", "h2e2", "h2d2", "h2c2", "a3a4", "c3c4", "e3e4", "g3g4", "i3i4",
};
enum { N_START_MOVES = sizeof START_MOVES / sizeof START_MOVES[0] };

static Position POS;
static char reply[1 << 16];
static char line[1 << 16];

/* Builds "<head> m1 m2 ..." in line from n entries of moves[] (cycled). */
static const char *list_line(const char *head, const char *const *moves, int n_moves, int n)
{
    size_t len = (size_t)snprintf(line, sizeof line, "%s", head);
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, " %s", moves[i % n_moves]);
    assert_true(len < sizeof line - 1);
    return line;
}

/* Starts an engine in the given dialect with the start position set. */
static EnginePipe *start_engine(bool ucci)
{
    EnginePipe *ep = ep_open(ucci ? "ucci" : "uci", ucci ? "ucciok" : "uciok", T_FAST);
    ep_send(ep, "position startpos");
    test_setup(&POS, START_FEN);
    return ep;
}

/* Reads until bestmove and returns its move text in out. */
static void bestmove_text(EnginePipe *ep, char out[8])
{
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_int_equal(sscanf(ep->last, "bestmove %7s", out), 1);
}

/* Is text one of the n moves? */
static bool text_in(const char *text, const char *const *moves, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(text, moves[i]) == 0)
            return true;
    return false;
}

/* searchmoves with hundreds of moves: one move repeated, distinct moves repeated, a repeated keyword, words that
 * are no moves. */
static void test_long_searchmoves(void **state)
{
    (void)state;
    static const char *const ONE[] = { "h2e2" };
    static const char *const SOME[] = { "b0c2", "h0g2", "c3c4", "g3g4" };
    EnginePipe *ep = start_engine(false);
    char best[8];
    ep_send(ep, "%s", list_line("go depth 1 searchmoves", ONE, 1, LONG_LIST));
    bestmove_text(ep, best);
    assert_string_equal(best, "h2e2");
    assert_non_null(strstr(ep->transcript, "info string searchmoves: 399 repeated moves ignored"));
    ep_send(ep, "%s", list_line("go depth 2 searchmoves", START_MOVES, N_START_MOVES, LONG_LIST));
    bestmove_text(ep, best);
    assert_true(text_in(best, START_MOVES, N_START_MOVES));
    ep_send(ep, "%s", list_line("go depth 2 searchmoves", SOME, 4, LONG_LIST));
    bestmove_text(ep, best);
    assert_true(text_in(best, SOME, 4));
    /* the last searchmoves keyword wins, as for every other keyword */
    ep_send(ep, "go depth 1 searchmoves h2e2 h0g2 b2e2 b0c2 searchmoves a0a1");
    bestmove_text(ep, best);
    assert_string_equal(best, "a0a1");
    /* illegal ones are ignored with one line, not one per move */
    ep_send(ep, "%s", list_line("go depth 1 searchmoves a0a9 h2e2", (const char *const[]){ "a0a8" }, 1, LONG_LIST));
    bestmove_text(ep, best);
    assert_string_equal(best, "h2e2");
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(ep->transcript, "info string error: searchmoves: illegal move 'a0a9' and 400 more ignored"));
    /* a word that is no move ends the list; it and what follows are ignored, and the engine says so */
    ep_send(ep, "go depth 1 searchmoves h2e2 zz h0g2");
    bestmove_text(ep, best);
    assert_string_equal(best, "h2e2");
    assert_non_null(strstr(ep->transcript, "info string go: 'zz' and 1 more words ignored (not go keywords)"));
    ep_send(ep, "go depth 1 frobnicate");
    bestmove_text(ep, best);
    assert_non_null(strstr(ep->transcript, "info string go: 'frobnicate' ignored (not a go keyword)"));
    ep_close(ep, NULL, T_FAST);
}

/* banmoves with hundreds of moves: repeats ignored with a note, every move banned still plays. */
static void test_long_banmoves(void **state)
{
    (void)state;
    static const char *const ONE[] = { "h2e2" };
    EnginePipe *ep = start_engine(true);
    char best[8];
    ep_send(ep, "%s", list_line("banmoves", ONE, 1, LONG_LIST));
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "info string banmoves: 399 repeated moves ignored"));
    ep_send(ep, "go depth 3");
    bestmove_text(ep, best);
    assert_string_not_equal(best, "h2e2");
    ep_send(ep, "%s", list_line("banmoves", START_MOVES, N_START_MOVES, LONG_LIST));
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "info string banmoves: 356 repeated moves ignored"));
    ep_send(ep, "go depth 2");
    bestmove_text(ep, best);
    ep_close(ep, NULL, T_FAST);
}

/* An option value longer than the engine keeps is refused whole, not cut; one that fits is taken (a book
 * list: its missing file is named). */
static void test_long_option_value(void **state)
{
    (void)state;
    static const char *const NAME[] = { "book/very-long-name.obk" };
    EnginePipe *ep = start_engine(true);
    ep_send(ep, "%s", list_line("setoption bookfiles", NAME, 1, 40));
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "info string error: value of option bookfiles longer than 511 bytes; kept"));
    ep_send(ep, "setoption bookfiles %s", NAME[0]);
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_string_equal(reply, "info string error: book file 'book/very-long-name.obk': cannot open (No such file or "
                               "directory); playing without a book\n");
    ep_close(ep, NULL, T_FAST);
}

/* A move list longer than the 16-bit move counters: they stop at their cap instead of wrapping. */
static void test_long_position_moves(void **state)
{
    (void)state;
    static const char *const SHUFFLE[] = { "h0g2", "h9g7", "g2h0", "g7h9" };
    EnginePipe *ep = start_engine(false);
    size_t size = (size_t)QUIET_PLIES * 5 + 64, len = 0;
    char *text = malloc(size);
    assert_non_null(text);
    len += (size_t)snprintf(text, size, "position startpos moves");
    for (int i = 0; i < QUIET_PLIES; i++)
        len += (size_t)snprintf(text + len, size - len, " %s", SHUFFLE[i % 4]);
    text[len++] = '\n';
    ep_send_raw(ep, text, len);
    free(text);
    ep_send(ep, "d");
    ep_reply(ep, reply, sizeof reply, 10000);
    unsigned rule60 = 0, fullmove = 0;
    const char *fen = strstr(reply, "Fen: ");
    assert_non_null(fen);
    assert_int_equal(sscanf(fen, "Fen: %*s w - - %u %u", &rule60, &fullmove), 2);
    assert_true(rule60 >= 60000 && fullmove >= 60000); /* the counters saturate below 65536 */
    /* the 60-move rule has long been reached: every line is a draw */
    ep_send(ep, "go depth 3");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_non_null(strstr(ep->transcript, "info depth 3 seldepth"));
    assert_non_null(strstr(strstr(ep->transcript, "info depth 3 seldepth"), " score cp 0 "));
    ep_close(ep, NULL, T_FAST);
}

/* Clocks at the parser's limits (ms and UCCI seconds): the engine thinks, answers, stops; a flagged one moves at
 * once. */
static void test_clock_extremes(void **state)
{
    (void)state;
    static const char *const GOS[] = {
        "go wtime 1000000000000 btime 1000000000000 winc 1000000000000 binc 1000000000000",
        "go wtime 1000000000000 btime 1000000000000 winc 1000000000000 binc 1000000000000 movestogo 1",
        "go wtime 1000000000000 btime 1 winc -1000000000 binc 0 movestogo 100000",
        "go movetime 1000000000000",
    };
    EnginePipe *ep = start_engine(false);
    for (size_t i = 0; i < sizeof GOS / sizeof GOS[0]; i++) {
        ep_send(ep, "%s", GOS[i]);
        if (!ep_quiet_for(ep, "bestmove", THINK_MS))
            fail_msg("'%s' answered at once: %s", GOS[i], ep->last);
        ep_reply(ep, reply, sizeof reply, T_FAST);
        ep_send(ep, "stop");
        assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    }
    /* UCCI in seconds: 1e12 s is 1e15 ms */
    ep_send(ep, "ucci");
    ep_must(ep, "ucciok", T_FAST);
    ep_send(ep, "setoption usemillisec false");
    ep_send(ep, "go time 1000000000000 increment 1000000000000 opptime 1000000000000");
    assert_true(ep_quiet_for(ep, "bestmove", THINK_MS));
    ep_send(ep, "stop");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    /* a flagged clock (negative, -1 included) answers at once instead of thinking until stop */
    static const char *const FLAGGED[] = { "go time -1 increment 0", "go time -1000000000" };
    for (size_t i = 0; i < sizeof FLAGGED / sizeof FLAGGED[0]; i++) {
        ep_send(ep, "%s", FLAGGED[i]);
        assert_true(ep_wait_bestmove(ep, &POS, FLAGGED_MS));
    }
    ep_send(ep, "uci");
    ep_must(ep, "uciok", T_FAST);
    ep_send(ep, "go wtime -1 btime -1");
    assert_true(ep_wait_bestmove(ep, &POS, FLAGGED_MS));
    ep_close(ep, NULL, T_FAST);
}

/* probe during go infinite: each one answered while the search goes on (a data race before). */
static void test_probe_while_searching(void **state)
{
    (void)state;
    EnginePipe *ep = start_engine(true);
    ep_send(ep, "go infinite");
    assert_true(ep_quiet_for(ep, "bestmove", 100));
    for (int i = 0; i < PROBES; i++) {
        ep_send(ep, i % 2 ? "probe startpos" : "probe startpos moves h2e2");
        ep_must(ep, "pophash", T_FAST);
    }
    ep_send(ep, "probe startpos");
    ep_must(ep, "pophash bestmove ", T_FAST); /* the root is in the table by now */
    ep_send(ep, "stop");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    ep_send(ep, "probe startpos");
    ep_must(ep, "pophash bestmove ", T_FAST);
    ep_close(ep, NULL, T_FAST);
}

/* A hash size that is not a power of two: the engine says what it really uses, and the option shows it. */
static void test_hash_not_power_of_two(void **state)
{
    (void)state;
    EnginePipe *ep = start_engine(false);
    ep_send(ep, "setoption name Hash value 100");
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_non_null(strstr(reply, "info string hash: 100 MB rounded down to 64 MB"));
    ep_send(ep, "setoption name Hash value 32");
    ep_reply(ep, reply, sizeof reply, T_FAST);
    assert_string_equal(reply, "");
    ep_send(ep, "go depth 3");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    ep_close(ep, NULL, T_FAST);
}

/* Thousands of lines that must wait for a running search: the first DEFERRED_CAP wait, each one beyond
 * is dropped with an error; after stop they run in order and the engine plays on. */
static void test_deferred_flood(void **state)
{
    (void)state;
    EnginePipe *ep = start_engine(false);
    ep_send(ep, "go infinite");
    assert_true(ep_quiet_for(ep, "bestmove", 100));
    for (int i = 0; i < FLOOD; i++)
        ep_send(ep, "position startpos moves h2e2");
    ep_send(ep, "stop");
    int dropped = 0;
    for (;;) {
        assert_true(ep_read_line(ep, T_FAST));
        if (strncmp(ep->last, "info string error: 4096 lines already wait", 42) == 0)
            dropped++;
        if (strncmp(ep->last, "bestmove ", 9) == 0)
            break;
    }
    assert_int_equal(dropped, FLOOD - DEFERRED_CAP);
    ep_send(ep, "isready");
    ep_must(ep, "readyok", T_FAST * 3); /* after the waiting lines ran */
    ep_send(ep, "go depth 2");
    Move m;
    XqError err;
    assert_true(move_parse_legal(&POS, "h2e2", &m, &err));
    pos_make(&POS, m);
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST)); /* legal after h2e2: the deferred positions ran */
    ep_close(ep, NULL, T_FAST);
}

/* Sends isready LATENCY_PROBES times during a long command; each readyok within LIVE_MS (a generous bound
 * for a loaded machine); prints the slowest (the real latency, reported separately from the bound). */
static void isready_live(EnginePipe *ep, const char *what)
{
    int64_t worst = 0;
    char lines[4096];
    for (int i = 0; i < LATENCY_PROBES; i++) {
        int64_t t0 = ep_now_ms();
        ep_reply(ep, lines, sizeof lines, LIVE_MS);
        int64_t ms = ep_now_ms() - t0;
        worst = ms > worst ? ms : worst;
    }
    fprintf(stderr, "isready during %s: slowest of %d answers %lld ms\n", what, LATENCY_PROBES, (long long)worst);
}

/* go perft 9 (hours of counting) runs on the search thread: isready is answered during it, stop ends it
 * with a line saying the count is partial, quit ends the engine at once; a deferred position waits for it. */
static void test_perft_stays_answerable(void **state)
{
    (void)state;
    for (int ucci = 0; ucci < 2; ucci++) {
        EnginePipe *ep = start_engine(ucci);
        ep_send(ep, "go perft 9");
        isready_live(ep, ucci ? "go perft 9 (UCCI)" : "go perft 9 (UCI)");
        ep_send(ep, "position startpos moves h2e2"); /* waits for the perft */
        int64_t t0 = ep_now_ms();
        ep_send(ep, "stop");
        ep_must(ep, "info string perft stopped: ", LIVE_MS);
        fprintf(stderr, "stop during go perft 9: %lld ms\n", (long long)(ep_now_ms() - t0));
        ep_send(ep, "go perft 1");
        ep_must(ep, "Nodes searched: ", T_FAST);
        assert_string_equal(ep->last, "Nodes searched: 45"); /* after h2e2 (44 at the start): it ran after the stop */
        ep_send(ep, "position startpos");
        ep_send(ep, "go perft 2");
        ep_must(ep, "Nodes searched: ", T_FAST);
        assert_string_equal(ep->last, "Nodes searched: 1920"); /* a count run to its end is whole */
        ep_send(ep, "go perft 9");
        isready_live(ep, "a second go perft 9");
        t0 = ep_now_ms();
        ep_send(ep, "quit");
        assert_int_equal(ep_finish(ep, LIVE_MS), 0);
        fprintf(stderr, "quit during go perft 9: %lld ms\n", (long long)(ep_now_ms() - t0));
        free(ep);
    }
}

/* A new game (and Clear Hash) with a hash of 4 GB answers isready at once: the table's pages are handed back
 * instead of being written with zeros (before, ucinewgame took 15 s on a loaded 2-core machine, with isready
 * unanswered). The engine may fall back to a smaller hash; the answer must be quick all the same. */
static void test_new_game_big_hash(void **state)
{
    (void)state;
    EnginePipe *ep = start_engine(false);
    char lines[4096];
    ep_send(ep, "setoption name Hash value 4096");
    ep_reply(ep, lines, sizeof lines, LIVE_MS);
    static const char *const CLEARS[] = { "ucinewgame", "setoption name Clear Hash", "ucinewgame" };
    for (size_t i = 0; i < sizeof CLEARS / sizeof *CLEARS; i++) {
        ep_send(ep, "%s", CLEARS[i]);
        int64_t t0 = ep_now_ms();
        ep_reply(ep, lines, sizeof lines, LIVE_MS);
        fprintf(stderr, "isready after %s with a 4 GB hash: %lld ms\n", CLEARS[i], (long long)(ep_now_ms() - t0));
    }
    ep_send(ep, "go depth 4");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST)); /* the cleared table still works */
    ep_close(ep, NULL, T_FAST);
}

/* quit behind a deferred go ends the engine at once: it is never meant for the search that waits (before, it
 * waited behind that go, which waited for a search that never ends). */
static void test_quit_behind_deferred_go(void **state)
{
    (void)state;
    for (int ucci = 0; ucci < 2; ucci++) {
        EnginePipe *ep = start_engine(ucci);
        ep_send(ep, "go infinite");
        ep_send(ep, "go depth 1"); /* waits for the infinite search */
        ep_send(ep, "quit");
        int64_t deadline = ep_now_ms() + LIVE_MS; /* the engine's output ends with stdin still open */
        while (!ep->eof && ep_read_line(ep, (int)(deadline - ep_now_ms() > 0 ? deadline - ep_now_ms() : 0)))
            ;
        assert_true(ep->eof);
        assert_int_equal(ep_finish(ep, LIVE_MS), 0);
        free(ep);
    }
}

/* A go sent while a search runs waits for it; a stop or ponderhit sent after that go is meant for it, and also
 * reaches the running search (before, it waited behind the go, which waited for a search that waited for the stop
 * or would take hours: no bestmove came). Each go gets its bestmove, and the engine plays on. */
static void test_stop_behind_deferred_go(void **state)
{
    (void)state;
    for (int ucci = 0; ucci < 2; ucci++) {
        EnginePipe *ep = start_engine(ucci);
        const char *open_ended[3][2] = { { "go infinite", "stop" },
                                         { ucci ? "go ponder time 2000 increment 0" : "go ponder wtime 2000 btime 2000",
                                           "ponderhit" },
                                         { "go depth 60", "stop" } };
        for (int k = 0; k < 3; k++) {
            ep_send(ep, "%s", open_ended[k][0]);
            assert_true(ep_quiet_for(ep, "bestmove", 100)); /* it searches */
            ep_send(ep, "go depth 2"); /* waits for the open-ended search */
            ep_send(ep, "%s", open_ended[k][1]);
            assert_true(ep_wait_bestmove(ep, &POS, T_FAST + EP_LOAD_SLACK_MS)); /* the running search's */
            assert_true(ep_wait_bestmove(ep, &POS, T_FAST + EP_LOAD_SLACK_MS)); /* the go depth 2's */
        }
        ep_send(ep, "go depth 3");
        assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
        ep_close(ep, NULL, T_FAST);
    }
}

/* Runs the dialogs. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_searchmoves),    cmocka_unit_test(test_long_banmoves),
        cmocka_unit_test(test_long_option_value),
        cmocka_unit_test(test_long_position_moves), cmocka_unit_test(test_clock_extremes),
        cmocka_unit_test(test_probe_while_searching), cmocka_unit_test(test_hash_not_power_of_two),
        cmocka_unit_test(test_deferred_flood),      cmocka_unit_test(test_perft_stays_answerable),
        cmocka_unit_test(test_quit_behind_deferred_go), cmocka_unit_test(test_new_game_big_hash),
        cmocka_unit_test(test_stop_behind_deferred_go),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
