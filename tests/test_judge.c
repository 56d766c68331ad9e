/* test_judge.c - the `judge` subcommand: result line, reasons and errors. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "rules/judge.h"

enum { OUT_MAX = 512, ARGS_MAX = 64 };

/* Runs cli_judge on a space-separated move list; fills out/err text, returns the status. */
static int run_judge(const char *rules, const char *fen, const char *moves, char *out, char *err)
{
    char *argv[ARGS_MAX];
    char buf[2048];
    int argc = 0;
    argv[argc++] = "judge";
    if (rules) {
        argv[argc++] = "--rules";
        argv[argc++] = (char *)rules;
    }
    argv[argc++] = (char *)fen;
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *p = buf; *p;) {
        while (*p == ' ')
            *p++ = '\0';
        if (!*p)
            break;
        assert_true(argc < ARGS_MAX);
        argv[argc++] = p;
        while (*p && *p != ' ')
            p++;
    }
    FILE *fo = tmpfile(), *fe = tmpfile();
    assert_non_null(fo);
    assert_non_null(fe);
    int status = cli_judge(argc, argv, fo, fe);
    rewind(fo);
    rewind(fe);
    size_t n = fread(out, 1, OUT_MAX - 1, fo);
    out[n] = '\0';
    n = fread(err, 1, OUT_MAX - 1, fe);
    err[n] = '\0';
    fclose(fo);
    fclose(fe);
    return status;
}

static const char CHASE_FEN[] = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";

/* Perpetual chase: 0-1 and the chased piece is named. */
static void test_judge_chase(void **state)
{
    (void)state;
    char out[OUT_MAX], err[OUT_MAX];
    assert_int_equal(run_judge(NULL, CHASE_FEN, "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2", out, err), 0);
    assert_string_equal(out, "0-1 red perpetually chases the rook on a7\n");
    assert_int_equal(run_judge("check-only", CHASE_FEN, "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2", out, err), 0);
    assert_true(strncmp(out, "1/2-1/2 ", 8) == 0);
}

/* Perpetual check, stalemate, the 60-move rule, and a game still going on. */
static void test_judge_results(void **state)
{
    (void)state;
    char out[OUT_MAX], err[OUT_MAX];
    assert_int_equal(run_judge(NULL, "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
                               "d1d3 b1b3 d3d1 b3b1 d1d3 b1b3 d3d1 b3b1", out, err), 0);
    assert_true(strncmp(out, "1-0 ", 4) == 0);
    assert_int_equal(run_judge(NULL, "5k3/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", "", out, err), 0);
    assert_string_equal(out, "1-0 black has no legal move (stalemate)\n");
    assert_int_equal(run_judge(NULL, "4k4/8R/9/9/9/9/9/9/R8/3K5 w - - 118 60", "i8i7 e9e8", out, err), 0);
    assert_true(strncmp(out, "1/2-1/2 60-move rule", 20) == 0);
    assert_int_equal(run_judge(NULL, "4k4/8R/9/9/9/9/9/9/R8/3K5 w - - 119 60", "a1a9", out, err), 0);
    assert_string_equal(out, "1-0 black is checkmated\n");
    assert_int_equal(run_judge(NULL, START_FEN, "h2e2 h9g7", out, err), 0);
    assert_string_equal(out, "* game goes on\n");
}

/* Dead positions, the chinese rule set's reasons, and --explain. */
static void test_judge_rule_sets(void **state)
{
    (void)state;
    char out[OUT_MAX], err[OUT_MAX];
    assert_int_equal(run_judge(NULL, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "", out, err), 0);
    assert_string_equal(out, "1/2-1/2 dead position: neither side can mate\n");
    static const char KILL[] = "3ak1b2/4a4/4b4/r3C2R1/p8/9/P8/4p4/4p4/5K3 w - - 0 1";
    static const char KILL_MOVES[] = "h6g6 g9i7 g6h6 i7g9 h6g6 g9i7 g6h6 i7g9";
    assert_int_equal(run_judge(NULL, KILL, KILL_MOVES, out, err), 0);
    assert_string_equal(out, "1/2-1/2 repetition without perpetual check or chase\n");
    assert_int_equal(run_judge("chinese", KILL, KILL_MOVES, out, err), 0);
    assert_string_equal(out, "0-1 red threatens mate perpetually (长杀); black plays idle moves (闲)\n");
    char *argv[16] = { "judge", "--rules", "chinese", "--explain", (char *)KILL };
    int argc = 5;
    char moves[sizeof KILL_MOVES];
    snprintf(moves, sizeof moves, "%s", KILL_MOVES);
    for (char *t = strtok(moves, " "); t; t = strtok(NULL, " "))
        argv[argc++] = t;
    FILE *fo = tmpfile(), *fe = tmpfile();
    assert_int_equal(cli_judge(argc, argv, fo, fe), 0);
    rewind(fo);
    size_t n = fread(out, 1, OUT_MAX - 1, fo);
    out[n] = '\0';
    fclose(fo);
    fclose(fe);
    assert_non_null(strstr(out, "\n  red g6h6: mate threat\n  black i7g9: idle\n"));
    assert_non_null(strstr(out, "  levels: red chase, black idle\n"));
}

/*
 * Under chinese the reason names each side's kind (CXA 长打 and its
 * mixtures, the allowed alternations, both sides at fault); asian keeps its
 * reasons.
 */
static void test_judge_kinds(void **state)
{
    (void)state;
    char out[OUT_MAX], err[OUT_MAX];
    static const char CHECK_CHASE[] = "2Ra5/5k3/9/9/N8/4p4/9/9/4K4/9 w - - 0 1";
    static const char CHECK_CHASE_MOVES[] = "c9c8 f8f9 c8c9 f9f8 c9c8 f8f9 c8c9 f9f8";
    assert_int_equal(run_judge("chinese", CHECK_CHASE, CHECK_CHASE_MOVES, out, err), 0);
    assert_string_equal(out, "0-1 red checks and chases in turn (一将一捉); black plays idle moves (闲)\n");
    assert_int_equal(run_judge(NULL, CHECK_CHASE, CHECK_CHASE_MOVES, out, err), 0);
    assert_string_equal(out, "1/2-1/2 repetition without perpetual check or chase\n");
    /* both sides at fault (Art. 26): both named, a draw */
    assert_int_equal(run_judge("chinese", "4k4/4a4/4b4/6c2/9/6R2/4c4/4C4/4N4/3AKA3 b - - 0 1",
                               "g6c6 g4c4 c6g6 c4g4 g6c6 g4c4 c6g6 c4g4", out, err), 0);
    assert_string_equal(out, "1/2-1/2 repetition, both sides at fault: red perpetually chases the cannon on g6 (长捉), "
                             "black threatens mate perpetually (长杀)\n");
    /* 一将一闲: the rook checks from i8 and goes back to i7, where it attacks nothing */
    assert_int_equal(run_judge("chinese", "9/5k3/8R/9/9/9/9/9/9/3K5 w - - 0 1",
                               "i7i8 f8f9 i8i7 f9f8 i7i8 f8f9 i8i7 f9f8", out, err), 0);
    assert_string_equal(out, "1/2-1/2 repetition without a forbidden perpetual attack: red checks and plays idle moves "
                             "in turn (一将一闲, allowed), black plays idle moves (闲)\n");
}

/* The FEN may also come as separate arguments. */
static void test_judge_split_fen(void **state)
{
    (void)state;
    char out[OUT_MAX], err[OUT_MAX];
    assert_int_equal(run_judge(NULL, "5k3/R8/9/9/9/9/9/9/9/4K4", "b - - 0 1", out, err), 0);
    assert_string_equal(out, "1-0 black has no legal move (stalemate)\n");
}

/* Illegal moves, bad FENs and bad options exit with status 2 and a message. */
static void test_judge_errors(void **state)
{
    (void)state;
    char out[OUT_MAX], err[OUT_MAX];
    assert_int_equal(run_judge(NULL, START_FEN, "h2e2 h2e2", out, err), 2);
    assert_string_equal(out, "");
    assert_non_null(strstr(err, "move 2"));
    assert_int_equal(run_judge(NULL, "rnbakabnr/9/1c5c1 w - - 0 1", "", out, err), 2);
    assert_true(strncmp(err, "error:", 6) == 0);
    assert_int_equal(run_judge("cxa", START_FEN, "", out, err), 2);
    assert_string_equal(err, "error: unknown rule set 'cxa' (asian, chinese, check-only)\n");
    char *argv[] = { "judge" };
    FILE *fo = tmpfile(), *fe = tmpfile();
    assert_int_equal(cli_judge(1, argv, fo, fe), 2);
    fclose(fo);
    fclose(fe);
}

int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge_chase),
        cmocka_unit_test(test_judge_results),
        cmocka_unit_test(test_judge_rule_sets),
        cmocka_unit_test(test_judge_kinds),
        cmocka_unit_test(test_judge_split_fen),
        cmocka_unit_test(test_judge_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
