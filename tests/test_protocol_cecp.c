/*
 * test_protocol_cecp.c - XBoard protocol (CECP v2) dialogs against the real
 * binary, as XBoard 4.9 conducts them (its debug logs): the handshake and
 * features, games as either colour, force mode with undo and remove,
 * setboard, ping while thinking, move now, pondering with hits and misses,
 * analysis, result claims by the repetition rules, draw offers, resigning,
 * options, switching dialects, and garbage of every kind. Every move and PV
 * the engine prints is checked for legality in the position tracked
 * alongside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enginepipe.h"
#include "board/move.h"
#include "board/movegen.h"
#include "testutil.h"

enum { T_FAST = 3000, T_THINK = 8000, XBOARD_LINE = 512, ST_LONG_S = 30 };

/* Black is mated by b1b9 (red to move). */
#define MATE_IN_ONE "3k5/R8/9/9/9/9/9/8p/1R7/4K4 w - - 0 1"
/* Red rook h8 checks the black king f9/f8 on every move (tests/data/rulings.txt, red loses). */
#define PERPETUAL "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1"
#define PERPETUAL_CYCLE "f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9"

static Position POS;
static char reply[1 << 16];
static int pings;

/* Sends each move of a list as "usermove M". */
static void send_moves(EnginePipe *ep, const char *moves)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        ep_send(ep, "usermove %s", t);
}

/* ping/pong as the barrier: the lines the engine printed before the pong. */
static const char *sync_reply(EnginePipe *ep, int timeout_ms)
{
    char ping[32], pong[32];
    snprintf(ping, sizeof ping, "ping %d", ++pings);
    snprintf(pong, sizeof pong, "pong %d", pings);
    ep_reply_to(ep, ping, pong, reply, sizeof reply, timeout_ms);
    return reply;
}

/* Checks a thinking line "ply score time nodes seldepth nps tbhits<TAB>pv" and its PV against pos. */
static void check_thinking(const char *line, Position *pos)
{
    int ply, score, time, sel, tb, n = 0;
    unsigned long long nodes, nps;
    if (sscanf(line, "%d %d %d %llu %d %llu %d%n", &ply, &score, &time, &nodes, &sel, &nps, &tb, &n) != 7
        || line[n] != '\t')
        fail_msg("malformed thinking line '%s'", line);
    assert_true(strlen(line) < XBOARD_LINE);
    char pv[XBOARD_LINE];
    snprintf(pv, sizeof pv, "%s", line + n + 1);
    size_t len = strlen(pv);
    assert_true(len > 0); /* never an empty PV */
    if (pv[len - 1] == '?' || pv[len - 1] == '!')
        pv[len - 1] = '\0';
    int made = 0;
    for (char *t = strtok(pv, " "); t; t = strtok(NULL, " ")) {
        Move m;
        XqError err;
        if (!move_parse_legal(pos, t, &m, &err))
            fail_msg("illegal PV move %s in '%s'", t, line);
        pos_make(pos, m);
        made++;
    }
    while (made--)
        pos_unmake(pos);
}

/* Reads until "move M": checks thinking lines (if check_pv) and the move, plays it onto pos. */
static bool wait_move(EnginePipe *ep, Position *pos, bool check_pv, int timeout_ms)
{
    int64_t deadline = ep_now_ms() + timeout_ms;
    while (ep_read_line(ep, (int)(deadline - ep_now_ms() > 0 ? deadline - ep_now_ms() : 0))) {
        const char *l = ep->last;
        if (strncmp(l, "Illegal", 7) == 0 || strncmp(l, "Error", 5) == 0 || strncmp(l, "tellusererror", 13) == 0)
            fail_msg("unexpected '%s'", l);
        if (check_pv && l[0] >= '0' && l[0] <= '9' && strchr(l, '\t'))
            check_thinking(l, pos);
        if (strncmp(l, "move ", 5) == 0) {
            test_play(pos, l + 5);
            return true;
        }
    }
    return false;
}

/* Starts the engine in CECP as XBoard does (xboard, protover 2, new, variant, level, post, easy). */
static EnginePipe *start_xboard(const char *level)
{
    EnginePipe *ep = ep_open(EP_CECP_HELLO, EP_CECP_OK, T_FAST);
    pings = 0;
    ep_send(ep, "accepted done");
    ep_send(ep, "new");
    ep_send(ep, "variant xiangqi");
    ep_send(ep, "%s", level);
    ep_send(ep, "post");
    ep_send(ep, "easy");
    test_setup(&POS, START_FEN);
    return ep;
}

/* The handshake: feature lines as XBoard needs them, each option as feature option=. */
static void test_handshake(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:10 0.1");
    const char *t = ep->transcript;
    assert_true(strncmp(t, "feature done=0\n", 15) == 0); /* nothing before it, done=0 first */
    static const char *const WANT[] = { "myname=\"Jiangjun " XQ_TEST_VERSION "\"", "variants=\"xiangqi\"", "setboard=1",
                                        "usermove=1", "ping=1", "sigint=0", "sigterm=0", "colors=0", "analyze=1",
                                        "memory=1", "playother=1", "debug=1", "smp=1",
                                        "feature option=\"Move Overhead -spin 10 0 5000\"",
                                        "feature option=\"Repetition Rule -combo *asian /// chinese /// check-only\"",
                                        "feature option=\"Clear Hash -button\"", "feature option=\"EvalFile -file ",
                                        "feature option=\"Use NNUE -check " };
    for (size_t i = 0; i < sizeof WANT / sizeof WANT[0]; i++)
        if (!strstr(t, WANT[i]))
            fail_msg("no '%s' in\n%s", WANT[i], t);
    /* options the protocol sets itself are not options here */
    assert_null(strstr(t, "option=\"Hash"));
    assert_null(strstr(t, "option=\"Threads"));
    assert_null(strstr(t, "option=\"Ponder"));
    assert_null(strstr(t, "UCI_Variant"));
    for (const char *l = t; *l; l = strchr(l, '\n') + 1)
        assert_true(strchr(l, '\n') - l < XBOARD_LINE);
    assert_string_equal(sync_reply(ep, T_FAST), "");
    ep_close(ep, NULL, T_FAST);
}

/* A game as black (after new), as XBoard's second engine plays it: time, otim, usermove. */
static void test_game_as_black(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:05 0.1");
    static const char *const REPLIES[] = { "h2e2", "h0g2", "i0h0", "a3a4" };
    for (int i = 0; i < 4; i++) {
        ep_send(ep, "time %d", 500 - 20 * i);
        ep_send(ep, "otim %d", 500 - 20 * i);
        Move m;
        XqError err;
        const char *mv = REPLIES[i];
        if (!move_parse_legal(&POS, mv, &m, &err)) /* every turn is played: a reply made illegal is a failure */
            fail_msg("scripted reply %s is illegal after the engine's moves (%s): %s", mv, ep->last, err.msg);
        ep_send(ep, "usermove %s", mv);
        test_play(&POS, mv);
        assert_true(wait_move(ep, &POS, true, T_THINK));
    }
    assert_string_equal(sync_reply(ep, T_FAST), "");
    ep_close(ep, NULL, T_FAST);
}

/* A game as red: go on the start position, then the first engine's rhythm (time, otim, usermove). */
static void test_game_as_red(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 40 0:05 0");
    ep_send(ep, "force");
    ep_send(ep, "time 500");
    ep_send(ep, "otim 500");
    ep_send(ep, "go");
    assert_true(wait_move(ep, &POS, true, T_THINK));
    for (int i = 0; i < 3; i++) {
        Move list[MAX_MOVES];
        int n = gen_legal(&POS, list);
        assert_true(n > 0);
        char text[MOVE_TEXT];
        ep_send(ep, "time %d", 480 - 20 * i);
        ep_send(ep, "otim %d", 480 - 20 * i);
        ep_send(ep, "usermove %s", move_to_text(list[n / 2], text));
        pos_make(&POS, list[n / 2]);
        assert_true(wait_move(ep, &POS, true, T_THINK));
    }
    ep_close(ep, NULL, T_FAST);
}

/* Force mode: moves checked, nothing thought; undo, remove, and neither past the start. */
static void test_force_undo_remove(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:05 0");
    ep_send(ep, "force");
    send_moves(ep, "h2e2 h9g7 h0g2");
    ep_send(ep, "usermove h2e2"); /* the cannon left h2: illegal, nothing changes */
    ep_send(ep, "i9h9");          /* a bare move (protocol 1) */
    const char *r = sync_reply(ep, T_FAST);
    assert_string_equal(r, "Illegal move: h2e2\n");
    ep_send(ep, "remove");
    ep_send(ep, "undo");          /* three of the four moves taken back: h2e2 stands, black to move */
    ep_send(ep, "usermove h0g2");
    assert_string_equal(sync_reply(ep, T_FAST), "Illegal move: h0g2\n");
    ep_send(ep, "undo");
    ep_send(ep, "undo");
    r = sync_reply(ep, T_FAST);
    assert_non_null(strstr(r, "Error (no move to take back): undo"));
    ep_send(ep, "remove");
    assert_non_null(strstr(sync_reply(ep, T_FAST), "Error (fewer than two moves to take back): remove"));
    /* the game is at the start again: red to move, and the engine plays it after go */
    ep_send(ep, "go");
    assert_true(wait_move(ep, &POS, true, T_THINK));
    ep_close(ep, NULL, T_FAST);
}

/* setboard with XBoard's letters (H, E); a refused FEN leaves no valid position until the next one. */
static void test_setboard(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:03 0");
    ep_send(ep, "force");
    ep_send(ep, "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b - - 0 1");
    ep_send(ep, "go");
    test_setup(&POS, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1");
    assert_true(wait_move(ep, &POS, true, T_THINK));
    ep_send(ep, "force");
    ep_send(ep, "setboard 9/9/9/9/9/9/9/9/9/9 w - - 0 1");
    ep_send(ep, "usermove h0g2");
    const char *r = sync_reply(ep, T_FAST);
    assert_non_null(strstr(r, "tellusererror Illegal position: bad FEN: the red king is missing\n"));
    assert_non_null(strstr(r, "Illegal move (no valid position): h0g2\n"));
    ep_send(ep, "setboard");
    assert_non_null(strstr(sync_reply(ep, T_FAST), "tellusererror Illegal position: bad FEN: empty"));
    ep_send(ep, "new");
    ep_send(ep, "usermove h2e2");
    test_setup(&POS, START_FEN);
    test_play(&POS, "h2e2");
    assert_true(wait_move(ep, &POS, true, T_THINK));
    ep_close(ep, NULL, T_FAST);
}

/* ping while the engine thinks on its move: pong only after the move; "?" moves at once. */
static void test_ping_and_move_now(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("st 2");
    ep_send(ep, "force");
    ep_send(ep, "go");
    ep_send(ep, "ping 99");
    int64_t t0 = ep_now_ms();
    assert_true(wait_move(ep, &POS, true, T_THINK));
    assert_true(ep_now_ms() - t0 > 1000); /* st 2: the engine took its time... */
    ep_must(ep, "pong 99", T_FAST);        /* ...and the pong came after the move */
    Move list[MAX_MOVES];
    char text[MOVE_TEXT];
    gen_legal(&POS, list);
    ep_send(ep, "st %d", ST_LONG_S); /* a long think, so that only "?" can end it within the slack */
    ep_send(ep, "usermove %s", move_to_text(list[0], text));
    pos_make(&POS, list[0]);
    ep_send(ep, "?");
    t0 = ep_now_ms();
    assert_true(wait_move(ep, &POS, true, EP_LOAD_SLACK_MS));
    assert_true(ep_within(t0, 0));
    /* a usermove while the engine is on move is refused and nothing is lost */
    gen_legal(&POS, list);
    ep_send(ep, "usermove %s", move_to_text(list[0], text));
    pos_make(&POS, list[0]);
    ep_send(ep, "usermove h0g2");
    ep_must(ep, "Error (the engine is on move): usermove h0g2", T_FAST);
    ep_send(ep, "?");
    assert_true(wait_move(ep, &POS, true, T_FAST));
    ep_close(ep, NULL, T_FAST);
}

/* Pondering (hard): a Hint, then a hit answers quickly; a miss thinks on the real move. */
static void test_ponder(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("st 1");
    ep_send(ep, "hard");
    ep_send(ep, "usermove h2e2");
    test_play(&POS, "h2e2");
    assert_true(wait_move(ep, &POS, false, T_THINK));
    ep_must(ep, "Hint: ", T_FAST);
    char guess[8];
    snprintf(guess, sizeof guess, "%s", ep->last + 6);
    /* a hit: the ponder search becomes the search of the move */
    ep_send(ep, "usermove %s", guess);
    test_play(&POS, guess);
    assert_true(wait_move(ep, &POS, false, T_THINK));
    ep_must(ep, "Hint: ", T_FAST);
    snprintf(guess, sizeof guess, "%s", ep->last + 6);
    /* a miss: any other legal move */
    Move list[MAX_MOVES], g;
    int n = gen_legal(&POS, list);
    XqError err;
    assert_true(move_parse_legal(&POS, guess, &g, &err));
    Move other = list[0] == g ? list[1] : list[0];
    assert_true(n > 1);
    char text[MOVE_TEXT];
    ep_send(ep, "usermove %s", move_to_text(other, text));
    pos_make(&POS, other);
    assert_true(wait_move(ep, &POS, false, T_THINK));
    /* easy drops the ponder search; the game stays as played */
    ep_send(ep, "easy");
    ep_send(ep, "force");
    assert_null(strstr(sync_reply(ep, T_FAST), "move "));
    ep_send(ep, "go");
    assert_true(wait_move(ep, &POS, true, T_THINK));
    ep_close(ep, NULL, T_FAST);
}

/* Reads until the next thinking line (in ep->last); false on timeout. */
static bool next_thinking(EnginePipe *ep, int timeout_ms)
{
    int64_t deadline = ep_now_ms() + timeout_ms;
    while (ep_read_line(ep, (int)(deadline - ep_now_ms() > 0 ? deadline - ep_now_ms() : 0)))
        if (ep->last[0] >= '0' && ep->last[0] <= '9' && strchr(ep->last, '\t'))
            return true;
    return false;
}

/* Analysis: thinking lines follow the game through usermove and undo; no move is ever played. Every line
 * after the pong is of the new position (the old analysis is dropped before the move is played); it
 * goes on deepening, so another line always comes. */
static void test_analyze(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:05 0");
    ep_send(ep, "force");
    ep_send(ep, "post");
    ep_send(ep, "analyze");
    assert_true(ep_expect(ep, "5 ", T_THINK)); /* depth 5 reached on the start position */
    check_thinking(ep->last, &POS);
    ep_send(ep, "usermove h2e2");
    ep_send(ep, "ping 1");
    ep_must(ep, "pong 1", T_FAST);
    test_play(&POS, "h2e2");
    assert_true(next_thinking(ep, T_THINK));
    check_thinking(ep->last, &POS);
    ep_send(ep, "undo");
    ep_send(ep, "ping 2");
    ep_must(ep, "pong 2", T_FAST);
    test_setup(&POS, START_FEN);
    assert_true(next_thinking(ep, T_THINK));
    check_thinking(ep->last, &POS);
    ep_send(ep, "exit");
    ep_send(ep, "ping 3");
    ep_must(ep, "pong 3", T_FAST);
    assert_null(strstr(ep->transcript, "\nmove "));
    assert_string_equal(sync_reply(ep, 500), ""); /* analysis stopped: silence */
    ep_close(ep, NULL, T_FAST);
}

/* Searches a position at depth sd and returns the score of the last thinking line before the move (or the
 * resignation); fails the test if none came. */
static int last_thinking_score(EnginePipe *ep, const char *fen, int sd)
{
    ep_send(ep, "force");
    ep_send(ep, "setboard %s", fen);
    ep_send(ep, "sd %d", sd);
    ep_send(ep, "go");
    int score = 0, ply;
    bool seen = false;
    while (ep_read_line(ep, T_THINK) && strncmp(ep->last, "move ", 5) != 0 && strcmp(ep->last, "resign") != 0)
        if (strchr(ep->last, '\t') && sscanf(ep->last, "%d %d ", &ply, &score) == 2)
            seen = true;
    if (!seen)
        fail_msg("no thinking line for %s", fen);
    return score;
}

/* XBoard's mate scores: +-(100000 + moves to mate), moves counted for the side that mates. */
static void test_mate_scores(void **state)
{
    (void)state;
    enum { CECP_MATE_SCORE = 100000 };
    EnginePipe *ep = start_xboard("level 0 0:30 0");
    assert_int_equal(last_thinking_score(ep, MATE_IN_ONE, 3), CECP_MATE_SCORE + 1);
    /* tests/data/tactics.epd jetzhu-374820dc11: mate in 2 (h8f9 e9f9 h6h9) */
    assert_int_equal(last_thinking_score(ep, "4k3C/4ar1N1/3a5/7R1/9/3pp4/4c3p/4B4/4A4/3AK1B2 w - - 13 73", 5),
                     CECP_MATE_SCORE + 2);
    /* every black move is mated at once: mated in 1 */
    assert_int_equal(last_thinking_score(ep, "4k4/R8/9/9/9/9/8p/9/1R7/3K5 b - - 0 1", 3), -(CECP_MATE_SCORE + 1));
    ep_close(ep, NULL, T_FAST);
}

/* `level 0 0 0` gives no time: no clock limits the move (before: an answer at depth 1), sd does. */
static void test_level_without_time(void **state)
{
    (void)state;
    enum { DEPTH = 6 };
    EnginePipe *ep = start_xboard("level 0 0 0");
    ep_must(ep, "# level without time: no clock; each move searches to the sd depth, or until '?'", T_FAST);
    ep_send(ep, "sd %d", DEPTH);
    ep_send(ep, "time 0");
    ep_send(ep, "otim 0");
    ep_send(ep, "go");
    int deepest = 0, ply;
    while (ep_read_line(ep, T_THINK) && strncmp(ep->last, "move ", 5) != 0)
        if (strchr(ep->last, '\t') && sscanf(ep->last, "%d ", &ply) == 1 && ply > deepest)
            deepest = ply;
    assert_true(strncmp(ep->last, "move ", 5) == 0);
    assert_int_equal(deepest, DEPTH);
    ep_close(ep, NULL, T_FAST);
}

/* Results by rule: a mate claimed after the move, a mate against the engine, resigning. */
static void test_mate_claims(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:05 0");
    ep_send(ep, "force");
    ep_send(ep, "setboard " MATE_IN_ONE);
    ep_send(ep, "go");
    ep_must(ep, "move b1", T_THINK); /* b1b9 or b1d1: both mate */
    ep_must(ep, "1-0 {black is checkmated}", T_FAST);
    /* the engine plays black and the user mates it: its loss is claimed */
    ep_send(ep, "new");
    ep_send(ep, "setboard " MATE_IN_ONE);
    ep_send(ep, "usermove b1b9");
    const char *r = sync_reply(ep, T_FAST);
    assert_string_equal(r, "1-0 {black is checkmated}\n");
    /* mated next move: resign instead of moving */
    ep_send(ep, "new");
    ep_send(ep, "force");
    ep_send(ep, "setboard 4k4/R8/9/9/9/9/8p/9/1R7/3K5 b - - 0 1"); /* every black move is mated at once */
    ep_send(ep, "go");
    ep_must(ep, "resign", T_THINK);
    ep_close(ep, NULL, T_FAST);
}

/* Perpetual check: the checker's loss is claimed by the rules; against an engine only its own loss. */
static void test_perpetual_claims(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:05 0");
    /* the engine plays black; red's h8h9 completes the third occurrence of a perpetual check */
    ep_send(ep, "force");
    ep_send(ep, "setboard " PERPETUAL);
    send_moves(ep, "h8h9 " PERPETUAL_CYCLE);
    ep_send(ep, "playother");
    ep_send(ep, "usermove h8h9");
    assert_string_equal(sync_reply(ep, T_FAST), "0-1 {red checks perpetually}\n");
    /* the same against an engine (computer): not claimed, XBoard adjudicates; the engine plays on */
    ep_send(ep, "computer");
    ep_send(ep, "force");
    ep_send(ep, "setboard " PERPETUAL);
    send_moves(ep, "h8h9 " PERPETUAL_CYCLE);
    ep_send(ep, "playother");
    size_t mark = ep->t_len;
    ep_send(ep, "usermove h8h9");
    test_setup(&POS, PERPETUAL);
    test_play(&POS, "h8h9 " PERPETUAL_CYCLE " h8h9");
    assert_true(wait_move(ep, &POS, true, T_THINK));
    assert_null(strstr(ep->transcript + mark, "0-1 {"));
    assert_non_null(strstr(ep->transcript + mark, "# red checks perpetually: not claimed"));
    sync_reply(ep, T_FAST); /* the repetition goes on after the engine's move: not claimed either */
    /* the engine is the checker (red) and black completes the cycle: the engine claims its own loss */
    ep_send(ep, "force");
    ep_send(ep, "setboard " PERPETUAL);
    send_moves(ep, "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8");
    ep_send(ep, "playother");
    ep_send(ep, "usermove f8f9");
    assert_string_equal(sync_reply(ep, T_FAST), "0-1 {red checks perpetually}\n");
    ep_close(ep, NULL, T_FAST);
}

/* Draws: a repetition reached by the opponent is claimed with offer draw; an offered draw accepted. */
static void test_draws(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:05 0");
    ep_send(ep, "force");
    send_moves(ep, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0");
    ep_send(ep, "playother"); /* the engine plays red; black's g7h9 repeats the start a third time */
    ep_send(ep, "usermove g7h9");
    test_play(&POS, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9");
    ep_must(ep, "offer draw", T_FAST);
    assert_true(wait_move(ep, &POS, true, T_THINK));
    /* bare kings: the engine stands no better, so it accepts an offer before its move */
    ep_send(ep, "force");
    ep_send(ep, "setboard 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    ep_send(ep, "draw");
    ep_send(ep, "go");
    ep_must(ep, "offer draw", T_THINK);
    ep_must(ep, "move ", T_FAST);
    ep_close(ep, NULL, T_FAST);
}

/* MultiPV in a game: only the first line is shown, so XBoard's last thinking line is the move played (it
 * once showed the third-best line last); the analysis shows every line. */
static void test_multipv(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:30 0");
    ep_send(ep, "option MultiPV=3");
    ep_send(ep, "sd 5");
    ep_send(ep, "usermove h2e2");
    ep_must(ep, "move ", T_FAST * 2);
    char played[16], last_pv[16] = "";
    assert_int_equal(sscanf(ep->last, "move %15s", played), 1);
    const char *t = ep->transcript, *mv = strstr(t, "\nmove ");
    for (const char *l = t; l && l < mv; l = strchr(l, '\n')) {
        l++;
        const char *tab = strchr(l, '\t');
        if (l[0] >= '1' && l[0] <= '9' && tab && tab < mv)
            sscanf(tab + 1, "%15s", last_pv);
    }
    assert_string_equal(last_pv, played);
    ep_send(ep, "force");
    ep_send(ep, "analyze");
    ep_send(ep, "sd 4");
    /* the lines of one depth (3, complete once a depth-4 line comes): three different first moves, the three
     * lines (counted over all depths, a best move that changes between depths passed without MultiPV) */
    enum { LINES_DEPTH = 3 };
    int first_moves = 0, depth = 0;
    char seen[4][16] = { "", "", "", "" };
    for (int i = 0; i < 200 && depth <= LINES_DEPTH && ep_read_line(ep, T_FAST); i++) {
        const char *tab = strchr(ep->last, '\t');
        char m[16];
        if (!tab || sscanf(ep->last, "%d", &depth) != 1 || depth != LINES_DEPTH || sscanf(tab + 1, "%15s", m) != 1)
            continue;
        bool known = false;
        for (int k = 0; k < first_moves; k++)
            known |= strcmp(seen[k], m) == 0;
        if (!known && first_moves < 4)
            snprintf(seen[first_moves++], sizeof seen[0], "%s", m);
    }
    assert_true(depth > LINES_DEPTH);
    assert_int_equal(first_moves, 3);
    ep_send(ep, "exit");
    ep_close(ep, NULL, T_FAST);
}

/* Options through option NAME=VALUE, memory and cores; errors in the protocol's forms. */
static void test_options(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:05 0");
    ep_send(ep, "memory 68");
    ep_send(ep, "cores 4");
    ep_send(ep, "option Repetition Rule=check-only");
    ep_send(ep, "option Clear Hash");
    ep_send(ep, "option Move Overhead=30");
    const char *r = sync_reply(ep, T_FAST);
    assert_string_equal(r, "# hash: 68 MB rounded down to 64 MB (the table's size is a power of two)\n");
    ep_send(ep, "option Move Overhead=99999");
    assert_non_null(strstr(sync_reply(ep, T_FAST), "tellusererror bad value '99999' for option Move Overhead"));
    ep_send(ep, "option EvalFile=/nonexistent/net.nnue");
    assert_non_null(strstr(sync_reply(ep, T_FAST), "tellusererror EvalFile: "));
    ep_send(ep, "option Nonsense=3");
    assert_string_equal(sync_reply(ep, T_FAST), "Error (unknown option): option Nonsense\n");
    ep_send(ep, "rejected debug"); /* XBoard would not ignore "#" lines now: none are written */
    ep_send(ep, "memory 68");
    assert_string_equal(sync_reply(ep, T_FAST), "");
    ep_send(ep, "force");
    ep_send(ep, "go");
    assert_true(wait_move(ep, &POS, true, T_THINK));
    ep_close(ep, NULL, T_FAST);
}

/* uci / ucci switch dialects at any time; xboard again changes nothing; end of input ends analysis. */
static void test_dialect_switch(void **state)
{
    (void)state;
    EnginePipe *ep = start_xboard("level 0 0:05 0");
    ep_send(ep, "force");
    ep_send(ep, "analyze");
    ep_send(ep, "uci");
    ep_must(ep, "uciok", T_FAST);
    ep_send(ep, "isready");
    ep_must(ep, "readyok", T_FAST);
    ep_send(ep, "xboard");
    ep_send(ep, "protover 2");
    ep_must(ep, "feature done=1", T_FAST);
    ep_send(ep, "analyze");
    int64_t t0 = ep_now_ms();
    assert_int_equal(ep_finish(ep, T_FAST), 0); /* end of input: the analysis stops, the engine exits */
    assert_true(ep_within(t0, 0));
    free(ep);
}

/* One line of garbage and what the engine must answer before the next pong. */
typedef struct Junk {
    const char *line;
    const char *expect; /* the whole answer ("" = none) */
} Junk;

/* Every command with missing or malformed arguments, answered in the protocol's forms; nothing changes. */
static void test_malformed_barrage(void **state)
{
    (void)state;
    static const Junk JUNK[] = {
        { "", "" }, { "   ", "" }, { "\t\t", "" }, { "\r", "" },
        { "xyzzy", "Error (unknown command): xyzzy\n" },
        { "usermove", "Error (no move given): usermove\n" },
        { "usermove zz99", "Illegal move: zz99\n" },
        { "usermove h2e2e2", "Illegal move: h2e2e2\n" },
        { "usermove a0a9", "Illegal move: a0a9\n" },
        { "a0a9", "Illegal move: a0a9\n" },
        { "usermove h9g7", "Illegal move: h9g7\n" }, /* black's move with red to move */
        { "level", "Error (bad level, kept the old one): level\n" },
        { "level 40", "Error (bad level, kept the old one): level 40\n" },
        { "level x 5 0", "Error (bad level, kept the old one): level x\n" },
        { "level 0 abc 0", "Error (bad level, kept the old one): level 0\n" },
        { "level 0 5 x", "Error (bad level, kept the old one): level 0\n" },
        { "level -1 5 0", "Error (bad level, kept the old one): level -1\n" },
        { "level 0 -5 0", "Error (bad level, kept the old one): level 0\n" },
        { "level 0 nan 0", "Error (bad level, kept the old one): level 0\n" },
        { "level 0 0:xx 0", "Error (bad level, kept the old one): level 0\n" },
        { "level 0 99999999 0", "Error (bad level, kept the old one): level 0\n" },
        { "level 0 25+5 0", "" }, /* trailing text after the minutes is ignored, as the protocol asks */
        { "st", "Error (bad seconds per move): st\n" },
        { "st -1", "Error (bad seconds per move): st -1\n" },
        { "st 0", "Error (bad seconds per move): st 0\n" },
        /* decimal only: strtod took hex ("st 0x10" was 16 s) and exponents */
        { "st 0x10", "Error (bad seconds per move): st 0x10\n" },
        { "st 1e3", "Error (bad seconds per move): st 1e3\n" },
        { "st 1.5.2", "Error (bad seconds per move): st 1.5.2\n" },
        { "st .", "Error (bad seconds per move): st .\n" },
        { "level 40 0x5 0", "Error (bad level, kept the old one): level 40\n" },
        { "level 40 5 0x2", "Error (bad level, kept the old one): level 40\n" },
        { "level 40 1e1 0", "Error (bad level, kept the old one): level 40\n" },
        { "st 2.5", "" },
        { "sd", "Error (bad search limit): sd\n" },
        { "sd 0", "Error (bad search limit): sd 0\n" },
        { "sd x", "Error (bad search limit): sd x\n" },
        { "time", "Error (bad clock): time\n" },
        { "time x", "Error (bad clock): time x\n" },
        { "otim 1e5", "Error (bad clock): otim 1e5\n" },
        { "time 99999999999999999999", "Error (bad clock): time 99999999999999999999\n" },
        { "time -500", "" }, /* a flagged clock is a clock */
        { "memory", "Error (bad number of megabytes): memory\n" },
        { "memory x", "Error (bad number of megabytes): memory x\n" },
        { "cores", "Error (bad number of cores): cores\n" },
        { "cores 0x4", "Error (bad number of cores): cores 0x4\n" },
        { "cores 0", "# Threads 0 is out of range 1..256: using 1\n" },
        { "memory -5", "# Hash -5 is out of range 1..65536: using 1\n" },
        { "cores -99999999999999999999", "# Threads -99999999999999999999 is out of range 1..256: using 1\n" },
        { "cores 8", "" }, /* (more than 256 is clamped to 256: 256 threads are too slow to start under TSan) */
        { "option", "Error (unknown option): option \n" },
        { "option =5", "Error (unknown option): option \n" },
        { "option Move Overhead=abc",
          "tellusererror bad value 'abc' for option Move Overhead (allowed 0..5000); kept 10\n" },
        { "option Repetition Rule=nope",
          "tellusererror bad value 'nope' for option Repetition Rule (allowed: asian, chinese, check-only); "
          "kept asian\n" },
        { "variant", "Error (only xiangqi is played): variant\n" },
        { "variant chess", "Error (only xiangqi is played): variant chess\n" },
        { "ping", "Error (no number given): ping\n" },
        { "undo", "Error (no move to take back): undo\n" },
        { "remove", "Error (fewer than two moves to take back): remove\n" },
        { "edit", "Error (use setboard): edit\n" },
        { "result", "" }, { "result 1-0 {x}", "" }, { "accepted", "" }, { "rejected xyz", "" },
        { "name", "" }, { "rating 1 2 3", "" }, { "ics -", "" }, { "random", "" }, { "hint", "" }, { ".", "" },
        { "draw", "" }, { "?", "" }, { "exit", "" }, { "nopost", "" }, { "post extra words", "" },
        { "\xff\xfe\x80 binary \x01", "Error (unknown command): \xff\xfe\x80\n" },
        { "setboard", "tellusererror Illegal position: bad FEN: empty\n" },
        { "setboard junk", "tellusererror Illegal position: bad FEN: unknown piece letter 'j'\n" },
        { "bk", " no valid position\n\n" },
        { "usermove h2e2", "Illegal move (no valid position): h2e2\n" },
        { "undo", "Error (no move to take back): undo\n" },
        { "new", "" },
        { "force", "" },
    };
    EnginePipe *ep = start_xboard("level 0 0:05 0");
    ep_send(ep, "force");
    for (size_t i = 0; i < sizeof JUNK / sizeof JUNK[0]; i++) {
        ep_send(ep, "%s", JUNK[i].line);
        const char *r = sync_reply(ep, T_FAST);
        if (strcmp(r, JUNK[i].expect) != 0)
            fail_msg("'%s' answered\n%s(expected\n%s)", JUNK[i].line, r, JUNK[i].expect);
    }
    /* a long line is an unknown command (echoed short), a longer one is dropped whole */
    size_t big = 5u << 20;
    char *line = malloc(big + 1);
    memset(line, 'x', big);
    line[3u << 20] = '\n';
    ep_send_raw(ep, line, (3u << 20) + 1);
    assert_string_equal(sync_reply(ep, 10000), "Error (unknown command): xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
    line[3u << 20] = 'x';
    line[big] = '\n';
    ep_send_raw(ep, line, big + 1);
    free(line);
    assert_non_null(strstr(sync_reply(ep, 10000), "tellusererror input line longer than"));
    /* nothing of it changed the game: the engine still plays the start position */
    ep_send(ep, "level 0 0:02 0");
    ep_send(ep, "go");
    assert_true(wait_move(ep, &POS, true, T_THINK));
    ep_close(ep, NULL, T_FAST);
}

/* Runs the CECP dialogs. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),      cmocka_unit_test(test_game_as_black),
        cmocka_unit_test(test_game_as_red),    cmocka_unit_test(test_force_undo_remove),
        cmocka_unit_test(test_setboard),       cmocka_unit_test(test_ping_and_move_now),
        cmocka_unit_test(test_ponder),         cmocka_unit_test(test_analyze),
        cmocka_unit_test(test_mate_claims),    cmocka_unit_test(test_perpetual_claims),
        cmocka_unit_test(test_draws),          cmocka_unit_test(test_multipv),
        cmocka_unit_test(test_mate_scores), cmocka_unit_test(test_level_without_time),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_dialect_switch), cmocka_unit_test(test_malformed_barrage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
