/*
 * test_xqmatch_pgn.c - PGN output in the xqbase conventions: tags,
 * [Format "ICCS"], "H2-E2" moves, a set-up FEN with black to move, the end
 * reason as a comment, and the result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xqmatch/pgn.h"
#include "testutil.h"

/* Writes a record into a string (caller frees). */
static char *pgn_to_string(const GameRecord *rec, const PgnInfo *info)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    assert_true(pgn_write_game(f, rec, info));
    fclose(f);
    return buf;
}

/* Fills a record from a move list. */
static void make_record(GameRecord *rec, const char *fen, const char *const *moves, int n)
{
    memset(rec, 0, sizeof *rec);
    snprintf(rec->start_fen, sizeof rec->start_fen, "%s", fen);
    snprintf(rec->names[RED], sizeof rec->names[RED], "Jiangjun");
    snprintf(rec->names[BLACK], sizeof rec->names[BLACK], "ElephantEye");
    for (int i = 0; i < n; i++)
        snprintf(rec->moves[i], MOVE_TEXT_MAX, "%s", moves[i]);
    rec->count = n;
}

/* ICCS move formatting. */
static void test_iccs(void **state)
{
    (void)state;
    char out[8];
    assert_string_equal(pgn_iccs("h2e2", out), "H2-E2");
    assert_string_equal(pgn_iccs("a9a8", out), "A9-A8");
}

/* A game from the start position. */
static void test_start_position_game(void **state)
{
    (void)state;
    GameRecord *rec = malloc(sizeof *rec);
    const char *moves[] = { "h2e2", "h9g7", "h0g2", "i9h9", "i0h0" };
    make_record(rec, START_FEN, moves, 5);
    rec->open_count = 2;
    rec->verdict.result = RESULT_RED_WINS;
    rec->verdict.reason = END_ILLEGAL_MOVE;
    snprintf(rec->verdict.text, sizeof rec->verdict.text, "black (ElephantEye) played an illegal move {x}");
    PgnInfo info = { "Test \"match\"", "here", "2025.01.02", 7, "60+1", "xqmatch (Jiangjun) 9.8.7" };
    char *text = pgn_to_string(rec, &info);
    const char *want =
        "[Game \"Chinese Chess\"]\n"
        "[Event \"Test \\\"match\\\"\"]\n"
        "[Site \"here\"]\n"
        "[Date \"2025.01.02\"]\n"
        "[Round \"7\"]\n"
        "[Red \"Jiangjun\"]\n"
        "[Black \"ElephantEye\"]\n"
        "[Result \"1-0\"]\n"
        "[Format \"ICCS\"]\n"
        "[Annotator \"xqmatch (Jiangjun) 9.8.7\"]\n"
        "[TimeControl \"60+1\"]\n"
        "[Termination \"illegal move\"]\n"
        "[PlyCount \"5\"]\n"
        "\n"
        "{opening: 2 plies from the book}\n"
        "1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0\n"
        "{black (ElephantEye) played an illegal move |x|} 1-0\n"
        "\n";
    assert_string_equal(text, want);
    free(text);
    free(rec);
}

/* A set-up position with black to move first, and a draw. */
static void test_fen_black_first(void **state)
{
    (void)state;
    GameRecord *rec = malloc(sizeof *rec);
    const char *fen = "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1";
    const char *moves[] = { "e9d9", "e0f0", "d9e9" };
    make_record(rec, fen, moves, 3);
    rec->verdict.result = RESULT_DRAW;
    rec->verdict.reason = END_RULE60;
    snprintf(rec->verdict.text, sizeof rec->verdict.text, "60-move rule");
    PgnInfo info = { "E", NULL, NULL, 1, NULL, NULL };
    char *text = pgn_to_string(rec, &info);
    assert_non_null(strstr(text, "[FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1\"]\n[Format \"ICCS\"]\n"));
    assert_non_null(strstr(text, "\n1. ... E9-D9 2. E0-F0 D9-E9\n{60-move rule} 1/2-1/2\n"));
    assert_null(strstr(text, "[Site"));
    free(text);
    free(rec);
}

/* Long games wrap every four moves. */
static void test_line_wrap(void **state)
{
    (void)state;
    GameRecord *rec = malloc(sizeof *rec);
    const char *moves[] = { "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "b7b3" };
    make_record(rec, START_FEN, moves, 10);
    rec->verdict.result = RESULT_NONE;
    PgnInfo info = { "E", NULL, NULL, 1, NULL, NULL };
    char *text = pgn_to_string(rec, &info);
    assert_non_null(strstr(text, "4. B0-C2 A9-B9\n5. A0-B0 B7-B3\n*\n"));
    free(text);
    free(rec);
}

/* Runs the PGN tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iccs),
        cmocka_unit_test(test_start_position_game),
        cmocka_unit_test(test_fen_black_first),
        cmocka_unit_test(test_line_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
