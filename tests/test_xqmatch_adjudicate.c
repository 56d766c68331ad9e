/*
 * test_xqmatch_adjudicate.c - xqmatch's game-end rulings: every case of
 * tests/data/rulings.txt (mates, stalemates, perpetual check and chase,
 * the 60-move rule) is played move by move and must end exactly at its
 * last move with the expected result; plus the length cap and the
 * tablebase adjudication (-tb) with a generated KR-K.
 */
#include <stdlib.h>
#include <string.h>

#include "xqmatch/adjudicate.h"
#include "board/move.h"
#include "tbtest.h"
#include "testutil.h"

enum { FIELD_MAX = 4096 };

/* Copies field `index` of a '|'-separated line, trimmed. */
static void field(const char *line, int index, char *out, size_t size)
{
    const char *s = line;
    for (int i = 0; i < index && s; i++) {
        s = strchr(s, '|');
        if (s)
            s++;
    }
    if (!s) {
        out[0] = '\0';
        return;
    }
    while (*s == ' ')
        s++;
    size_t n = strcspn(s, "|");
    while (n > 0 && s[n - 1] == ' ')
        n--;
    if (n >= size)
        n = size - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* Expected result of a "expected: ..." field. */
static GameResult expected_result(const char *text)
{
    if (strstr(text, "red_loses"))
        return RESULT_BLACK_WINS;
    if (strstr(text, "black_loses"))
        return RESULT_RED_WINS;
    assert_non_null(strstr(text, "draw"));
    return RESULT_DRAW;
}

/* Every rulings.txt case ends on its last move with the expected result. */
static void test_rulings_file(void **state)
{
    (void)state;
    TestLines lines;
    test_read_lines("rulings.txt", &lines);
    assert_true(lines.count >= 99);
    Position *pos = malloc(sizeof *pos);
    int perpetual = 0, stalemate = 0, rule60 = 0, mate = 0;
    for (int c = 0; c < lines.count; c++) {
        char fen[FIELD_MAX], moves[FIELD_MAX], exp[FIELD_MAX];
        field(lines.line[c], 0, fen, sizeof fen);
        field(lines.line[c], 1, moves, sizeof moves);
        field(lines.line[c], 2, exp, sizeof exp);
        test_setup(pos, fen);
        Verdict v;
        char *save = NULL;
        for (char *t = strtok_r(moves, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            if (adjudicate_position(pos, 0, &rules_asian, &v))
                fail_msg("case %d ended early (%s) before %s: %s", c + 1, v.text, t, lines.line[c]);
            Move m;
            XqError err;
            if (!move_parse_legal(pos, t, &m, &err))
                fail_msg("case %d: %s", c + 1, err.msg);
            pos_make(pos, m);
        }
        if (!adjudicate_position(pos, 0, &rules_asian, &v))
            fail_msg("case %d not ruled at its end: %s", c + 1, lines.line[c]);
        if (v.result != expected_result(exp))
            fail_msg("case %d: got %s (%s), expected %s", c + 1, result_pgn(v.result), v.text, exp);
        perpetual += v.reason == END_PERPETUAL;
        stalemate += v.reason == END_STALEMATE;
        rule60 += v.reason == END_RULE60;
        mate += v.reason == END_MATE;
    }
    assert_int_equal(stalemate, 2);
    assert_int_equal(mate, 2);
    assert_int_equal(rule60, 2);
    assert_true(perpetual >= 60);
    free(pos);
    test_free_lines(&lines);
}

/* A checkmate is a loss for the mated side with reason "mate". */
static void test_mate(void **state)
{
    (void)state;
    Position *pos = malloc(sizeof *pos);
    test_setup(pos, "3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    Verdict v;
    assert_false(adjudicate_position(pos, 0, &rules_asian, &v));
    Move m;
    assert_true(move_parse_legal(pos, "a0a9", &m, NULL));
    pos_make(pos, m);
    assert_true(adjudicate_position(pos, 0, &rules_asian, &v));
    assert_int_equal(v.result, RESULT_RED_WINS);
    assert_int_equal(v.reason, END_MATE);
    free(pos);
}

/* A capture that leaves dead material ends the game drawn; the chinese rule set forbids a perpetual mate threat. */
static void test_dead_and_chinese(void **state)
{
    (void)state;
    Position *pos = malloc(sizeof *pos);
    test_setup(pos, "4k4/9/9/9/9/9/9/9/4n4/3AK4 w - - 0 1");
    Verdict v;
    assert_false(adjudicate_position(pos, 0, &rules_asian, &v));
    Move m;
    assert_true(move_parse_legal(pos, "d0e1", &m, NULL));
    pos_make(pos, m);
    assert_true(adjudicate_position(pos, 0, &rules_asian, &v));
    assert_int_equal(v.result, RESULT_DRAW);
    assert_int_equal(v.reason, END_DEAD);
    assert_string_equal(end_reason_name(v.reason), "dead position");
    test_setup(pos, "3ak1b2/4a4/4b4/r3C2R1/p8/9/P8/4p4/4p4/5K3 w - - 0 1");
    static const char *const KILL[] = { "h6g6", "g9i7", "g6h6", "i7g9", "h6g6", "g9i7", "g6h6", "i7g9" };
    for (int i = 0; i < 8; i++) {
        assert_false(adjudicate_position(pos, 0, &rules_chinese, &v));
        assert_true(move_parse_legal(pos, KILL[i], &m, NULL));
        pos_make(pos, m);
    }
    assert_true(adjudicate_position(pos, 0, &rules_asian, &v));
    assert_int_equal(v.result, RESULT_DRAW);
    assert_true(adjudicate_position(pos, 0, &rules_chinese, &v));
    assert_int_equal(v.result, RESULT_BLACK_WINS);
    assert_int_equal(v.reason, END_PERPETUAL);
    assert_string_equal(v.text, "red loses by perpetual mate threat (chinese rules)");
    free(pos);
}

/* The length cap draws, after the rules had their say. */
static void test_max_length(void **state)
{
    (void)state;
    Position *pos = malloc(sizeof *pos);
    test_setup(pos, START_FEN);
    const char *moves[] = { "h2e2", "h9g7", "h0g2", "i9h9" };
    Verdict v;
    for (int i = 0; i < 4; i++) {
        assert_false(adjudicate_position(pos, 4, &rules_asian, &v));
        Move m;
        assert_true(move_parse_legal(pos, moves[i], &m, NULL));
        pos_make(pos, m);
    }
    assert_true(adjudicate_position(pos, 4, &rules_asian, &v));
    assert_int_equal(v.result, RESULT_DRAW);
    assert_int_equal(v.reason, END_MAX_LENGTH);
    assert_false(adjudicate_position(pos, 0, &rules_asian, &v));
    free(pos);
}

/* Result strings and reason names used in PGN and logs. */
static void test_names(void **state)
{
    (void)state;
    assert_string_equal(result_pgn(RESULT_RED_WINS), "1-0");
    assert_string_equal(result_pgn(RESULT_BLACK_WINS), "0-1");
    assert_string_equal(result_pgn(RESULT_DRAW), "1/2-1/2");
    assert_string_equal(result_pgn(RESULT_NONE), "*");
    assert_int_equal(result_loss_for(RED), RESULT_BLACK_WINS);
    assert_string_equal(end_reason_name(END_ILLEGAL_MOVE), "illegal move");
    assert_string_equal(end_reason_name(END_TIME), "time forfeit");
}

/* Runs the adjudication tests. */
/* A KR-K position: decided by the table for the right side with reason "tablebase" (red or black
 * attacking, either to move; a draw when the rook falls at once), nothing without tables or outside
 * them, and a win only when its mate comes before the quiet-move limit. */
static void test_tablebase(void **state)
{
    (void)state;
    static const char *const names[] = { "KR-K" };
    char dir[256];
    snprintf(dir, sizeof dir, "%s/tb_adjudicate", XQ_TEST_TMP);
    TbSet *set = tbtest_generate(dir, names, 1, 1);
    assert_non_null(set);
    Position *pos = malloc(sizeof *pos);
    Verdict v;
    test_setup(pos, "9/4k4/9/9/9/9/9/9/9/R2K5 w - - 0 1"); /* red mates in 3 plies */
    assert_false(adjudicate_position(pos, 0, &rules_asian, &v));
    assert_false(adjudicate_tablebase(pos, NULL, &rules_asian, &v));
    assert_true(adjudicate_tablebase(pos, set, &rules_asian, &v));
    assert_int_equal(v.result, RESULT_RED_WINS);
    assert_int_equal(v.reason, END_TABLEBASE);
    assert_string_equal(end_reason_name(v.reason), "tablebase");
    assert_string_equal(v.text, "tablebase KR-K: red mates in 3 plies");
    RuleSet short_limit = rules_asian;
    short_limit.quiet_limit = 2; /* the mate in 3 comes too late: play on */
    assert_false(adjudicate_tablebase(pos, set, &short_limit, &v));
    short_limit.quiet_limit = 3;
    assert_true(adjudicate_tablebase(pos, set, &short_limit, &v));
    test_setup(pos, "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1"); /* black to move loses in 2 */
    assert_true(adjudicate_tablebase(pos, set, &rules_asian, &v));
    assert_int_equal(v.result, RESULT_RED_WINS);
    test_setup(pos, "r2k5/9/9/9/9/9/9/9/4K4/9 b - - 0 1"); /* black's rook: the table mirrored */
    assert_true(adjudicate_tablebase(pos, set, &rules_asian, &v));
    assert_int_equal(v.result, RESULT_BLACK_WINS);
    assert_string_equal(v.text, "tablebase K-KR: black mates in 3 plies");
    test_setup(pos, "4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1"); /* the king takes the rook */
    assert_true(adjudicate_tablebase(pos, set, &rules_asian, &v));
    assert_int_equal(v.result, RESULT_DRAW);
    assert_string_equal(v.text, "tablebase KR-K: draw");
    test_setup(pos, START_FEN);
    assert_false(adjudicate_tablebase(pos, set, &rules_asian, &v));
    test_setup(pos, "3k5/9/9/9/9/9/9/9/9/H3K4 w - - 0 1"); /* KH-K is not loaded */
    assert_false(adjudicate_tablebase(pos, set, &rules_asian, &v));
    free(pos);
    tbtest_free(set);
}

int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rulings_file),
        cmocka_unit_test(test_mate),
        cmocka_unit_test(test_dead_and_chinese),
        cmocka_unit_test(test_max_length),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_tablebase),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
