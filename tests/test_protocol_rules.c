/*
 * test_protocol_rules.c - the rule sets through the protocol, against the
 * real binary: the rule-set option lists every set in both dialects, the
 * set can be switched mid-game and the search's verdict on a repetition
 * follows it at once, a bad name gets one `info string error:` and changes
 * nothing, and UCCI `bestmove M draw` claims the draw a move reaches (a
 * capture leaving a dead position, a repetition ruled a draw).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enginepipe.h"
#include "board/move.h"
#include "eval/score.h"
#include "testutil.h"

enum { T_FAST = 5000, UCCI_BAN = 9900, UCCI_BAN_MIN = UCCI_BAN - 200 };

static Position POS;

/* One check, one kill (tests/data/rulings.txt line 100): asian draws it, chinese rules red's cycle a loss. Played
 * twice and half again, so that a7a9 brings a position back the third time, where the rules judge. */
static const char KILL_FEN[] = "R4a3/4a4/5k2b/9/6b2/9/5Cp2/4K4/9/9 w - - 0 1";
static const char KILL_MOVES[] = "a9a7 e8d7 a7a9 d7e8 a9a7 e8d7 a7a9 d7e8 a9a7 e8d7";

/* Searches a7a9 only, the move that repeats the cycle, and returns the last UCCI score reported. */
static int score_of_repeat(EnginePipe *ep)
{
    ep_send(ep, "position fen %s moves %s", KILL_FEN, KILL_MOVES);
    ep_send(ep, "go depth 3 searchmoves a7a9");
    test_setup_moves(&POS, KILL_FEN, KILL_MOVES);
    int score = 0;
    bool seen = false;
    while (ep_read_line(ep, T_FAST)) {
        const char *s = strstr(ep->last, " score ");
        if (strncmp(ep->last, "info", 4) == 0 && s) {
            score = atoi(s + 7);
            seen = true;
        }
        if (strncmp(ep->last, "bestmove", 8) == 0) {
            ep_check_bestmove(ep->last, &POS, false);
            assert_non_null(strstr(ep->last, "bestmove a7a9"));
            assert_true(seen);
            return score;
        }
    }
    fail_msg("no bestmove");
    return 0;
}

/* UCCI: setoption rules switches the rule set mid-game; a bad name is an error and keeps the old set. */
static void test_ucci_rule_switch(void **state)
{
    (void)state;
    EnginePipe *ep = malloc(sizeof *ep);
    ep_start(ep);
    ep_send(ep, "ucci");
    while (ep_read_line(ep, T_FAST) && strcmp(ep->last, "ucciok") != 0)
        if (strncmp(ep->last, "option rules ", 13) == 0)
            assert_non_null(strstr(ep->last, "var asian var chinese var check-only default asian"));
    assert_string_equal(ep->last, "ucciok");
    assert_int_equal(score_of_repeat(ep), 0); /* asian: a draw */
    ep_send(ep, "setoption rules chinese");
    assert_true(score_of_repeat(ep) <= -UCCI_BAN_MIN); /* chinese: red's 一将一杀 loses */
    ep_send(ep, "setoption rules cxa");
    ep_must(ep,
            "info string error: bad value 'cxa' for option rules (allowed: asian, chinese, check-only); "
            "kept chinese",
            T_FAST);
    assert_true(score_of_repeat(ep) <= -UCCI_BAN_MIN);
    ep_send(ep, "setoption rules check-only");
    assert_int_equal(score_of_repeat(ep), 0);
    ep_close(ep, "bye", T_FAST);
}

/* Does an info line carry a UCI rule loss, the score token "cp -(19999 - plies)" (plies within MAX_PLY)? */
static bool is_rule_loss_cp(const char *line)
{
    enum { UCI_RULE_LOSS_CP = -19999 };
    const char *sc = strstr(line, " score cp ");
    int cp;
    char end;
    /* the whole token: "-1990" or "-19990" is not a rule loss */
    if (!sc || sscanf(sc + strlen(" score cp "), "%d%c", &cp, &end) != 2 || end != ' ')
        return false;
    return cp >= UCI_RULE_LOSS_CP && cp <= UCI_RULE_LOSS_CP + MAX_PLY;
}

/* UCI: the Repetition Rule combo lists the sets and switches them like UCCI's rules. */
static void test_uci_repetition_rule(void **state)
{
    (void)state;
    EnginePipe *ep = malloc(sizeof *ep);
    ep_start(ep);
    ep_send(ep, "uci");
    bool listed = false;
    while (ep_read_line(ep, T_FAST) && strcmp(ep->last, "uciok") != 0)
        listed |= strcmp(ep->last, "option name Repetition Rule type combo default asian var asian var chinese var "
                                   "check-only") == 0;
    assert_true(listed);
    ep_send(ep, "setoption name Repetition Rule value Chinese");
    ep_send(ep, "position fen %s moves %s", KILL_FEN, KILL_MOVES);
    ep_send(ep, "go depth 3 searchmoves a7a9");
    test_setup_moves(&POS, KILL_FEN, KILL_MOVES);
    bool banned = false;
    while (ep_read_line(ep, T_FAST) && strncmp(ep->last, "bestmove", 8) != 0)
        banned |= is_rule_loss_cp(ep->last);
    assert_true(banned);
    ep_send(ep, "setoption name Repetition Rule value nonsense");
    ep_must(ep, "info string error: bad value 'nonsense' for option Repetition Rule", T_FAST);
    ep_close(ep, NULL, T_FAST);
}

/* UCCI: a move into a rule draw is played with "draw" appended (a claim), a move that is not, without it. */
static void test_ucci_draw_claims(void **state)
{
    (void)state;
    EnginePipe *ep = ep_open("ucci", "ucciok", T_FAST);
    /* the advisor takes the last horse: kings and an advisor are dead material */
    static const char DEAD[] = "4k4/9/9/9/9/9/9/9/4n4/3AK4 w - - 0 1";
    ep_send(ep, "position fen %s", DEAD);
    ep_send(ep, "go depth 4");
    test_setup_moves(&POS, DEAD, "");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_string_equal(ep->last, "bestmove d0e1 draw");
    /* black's move brings the start position back a third time, in an idle cycle: a repetition draw */
    static const char IDLE[] = "r3k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1";
    static const char SHUFFLE[] = "d0d1 e9f9 d1d0 f9e9 d0d1 e9f9 d1d0";
    ep_send(ep, "position fen %s moves %s", IDLE, SHUFFLE);
    ep_send(ep, "go depth 3 searchmoves f9e9");
    test_setup_moves(&POS, IDLE, SHUFFLE);
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_non_null(strstr(ep->last, "bestmove f9e9"));
    assert_non_null(strstr(ep->last, " draw"));
    /* an ordinary move: no claim */
    ep_send(ep, "position startpos");
    ep_send(ep, "go depth 3");
    test_setup_moves(&POS, NULL, "");
    assert_true(ep_wait_bestmove(ep, &POS, T_FAST));
    assert_null(strstr(ep->last, "draw"));
    ep_close(ep, "bye", T_FAST);
}

int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ucci_rule_switch),
        cmocka_unit_test(test_uci_repetition_rule),
        cmocka_unit_test(test_ucci_draw_claims),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
