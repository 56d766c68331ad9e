/*
 * test_eval.c - the evaluation's pattern terms fire where they should: with
 * every weight zero except one endgame weight (and no phase weights, so the
 * score is the endgame score), evaluate() returns that weight times the count.
 */
#include <string.h>

#include "eval/eval.h"
#include "eval/eval_params.h"
#include "board/movegen.h"
#include "testutil.h"

enum { W = 100, SYMMETRY_PLIES = 6 };

/* Evaluates fen with all weights zero but the int at `index` of `field` set to W. */
static int eval_only_at(const char *fen, const char *field, int index)
{
    EvalParams p;
    memset(&p, 0, sizeof p);
    p.no_mating_material_div = 1;
    int found = 0;
    for (int i = 0; i < EVAL_PARAM_FIELDS; i++)
        if (strcmp(EVAL_PARAM_FIELD[i].name, field) == 0) {
            ((int *)&p)[EVAL_PARAM_FIELD[i].offset + (size_t)index] = W;
            found = 1;
        }
    assert_true(found);
    Position pos;
    test_setup(&pos, fen);
    return evaluate(&pos, &p);
}

/* Evaluates fen with all weights zero but the endgame half of a (mg, eg) `field` set to W. */
static int eval_only(const char *fen, const char *field) { return eval_only_at(fen, field, PHASE_EG); }

/* Mobility tables are indexed by the number of squares reached. */
static void test_mobility_tables(void **state)
{
    (void)state;
    /* Rook a0: a1..a9 (9) and b0..d0 (3) before its own king. */
    assert_int_equal(eval_only_at("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "rook_mobility_eg", 12), W);
    assert_int_equal(eval_only_at("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "rook_mobility_eg", 11), 0);
    /* ...plus one capture (the pawn on a5 stops the file: a1..a4 and the capture). */
    assert_int_equal(eval_only_at("3k5/9/9/9/p8/9/9/9/9/R3K4 w - - 0 1", "rook_mobility_eg", 8), W);
    /* Horse b0 at home: a2 and c2 (d1 is free too). */
    assert_int_equal(eval_only_at("3k5/9/9/9/9/9/9/9/9/1N2K4 w - - 0 1", "horse_mobility_eg", 3), W);
    /* Horse b0 with every leg blocked (rook a0, cannon b1, elephant c0). */
    assert_int_equal(eval_only_at("3k5/9/9/9/9/9/9/9/1C7/RNB1K4 w - - 0 1", "horse_mobility_eg", 0), W);
    /* Cannon e2 on an empty board but for the kings: e3..e9 (7), e1 (1), a2..d2 and f2..i2 (8). */
    assert_int_equal(eval_only_at("3k5/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1", "cannon_mobility_eg", 16), W);
    assert_int_equal(eval_only_at("3k5/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1", "cannon_mobility_mg", 16), 0);
}

/* Our rooks, horses, cannons and pawns times the enemy's advisors and elephants. */
static void test_attacker_vs_defender(void **state)
{
    (void)state;
    assert_int_equal(eval_only_at("3ak4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "attacker_vs_defender_eg", 0), W);
    assert_int_equal(eval_only_at("3ak4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "attacker_vs_defender_eg", 1), 0);
    /* Two cannons against two elephants: 4 pairs (index cannon * 2 + elephant = 5). */
    assert_int_equal(eval_only_at("2b1k1b2/9/9/9/9/9/9/1C5C1/9/3K5 w - - 0 1", "attacker_vs_defender_eg", 5), 4 * W);
    /* Black's pawn against red's advisor, seen from red to move. */
    assert_int_equal(eval_only_at("3k5/9/9/9/9/9/4p4/9/4A4/4K4 w - - 0 1", "attacker_vs_defender_eg", 6), -W);
}

/* A cannon on the enemy back rank with a clear line to the king; also for black. */
static void test_bottom_cannon(void **state)
{
    (void)state;
    assert_int_equal(eval_only("3k1C3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "bottom_cannon"), W);
    assert_int_equal(eval_only("3k1C3/9/9/9/9/9/9/9/9/4K4 b - - 0 1", "bottom_cannon"), -W);
    assert_int_equal(eval_only("4k4/9/9/9/9/9/9/9/9/3K1c3 b - - 0 1", "bottom_cannon"), W);
    assert_int_equal(eval_only("3knnC2/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "bottom_cannon"), 0); /* blocked */
}

/* The enemy horse on its palace centre is one of the two screens between our cannon and the king. */
static void test_center_horse_pinned(void **state)
{
    (void)state;
    assert_int_equal(eval_only("4k4/4n4/9/4p4/9/9/9/4C4/9/3K5 w - - 0 1", "center_horse_pinned"), W);
    assert_int_equal(eval_only("4k4/4a4/9/4p4/9/9/9/4C4/9/3K5 w - - 0 1", "center_horse_pinned"), 0);
    assert_int_equal(eval_only("4k4/4n4/9/4p4/9/4p4/9/4C4/9/3K5 w - - 0 1", "center_horse_pinned"), 0);
}

/* A rook on a file without own pawns. */
static void test_rook_open_file(void **state)
{
    (void)state;
    assert_int_equal(eval_only("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "rook_open_file"), W);
    assert_int_equal(eval_only("3k5/9/9/9/9/9/P8/9/9/R3K4 w - - 0 1", "rook_open_file"), 0);
    assert_int_equal(eval_only("3k5/9/9/p8/9/9/9/9/9/R3K4 w - - 0 1", "rook_open_file"), W);
}

/* Both advisors and both elephants. */
static void test_full_defence(void **state)
{
    (void)state;
    assert_int_equal(eval_only("3k5/9/9/9/9/9/9/9/9/2BAKAB2 w - - 0 1", "full_defence"), W);
    assert_int_equal(eval_only("3k5/9/9/9/9/9/9/9/9/2BAK1B2 w - - 0 1", "full_defence"), 0);
    assert_int_equal(eval_only("2bakab2/9/9/9/9/9/9/9/4A4/2BK1AB2 w - - 0 1", "full_defence"), 0);
}

/* Crossed pawns short of the last rank count the enemy's missing advisors. */
static void test_crossed_pawn_missing_advisor(void **state)
{
    (void)state;
    assert_int_equal(eval_only("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1", "crossed_pawn_missing_advisor"), 2 * W);
    assert_int_equal(eval_only("3ak4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1", "crossed_pawn_missing_advisor"), W);
    assert_int_equal(eval_only("4k4/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1", "crossed_pawn_missing_advisor"), 0);
    assert_int_equal(eval_only("P3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "crossed_pawn_missing_advisor"), 0);
}

/* The hand-crafted evaluation is colour-blind: a position and its colour-flipped twin (ranks reversed,
 * colours swapped, the other side to move) score the same for the side to move, with the default weights,
 * over every position of bench_positions.epd and tactics.epd and a few plies from each. */
static void test_colour_symmetry(void **state)
{
    (void)state;
    static const char *const FILES_EPD[] = { "bench_positions.epd", "tactics.epd" };
    static Position pos, twin;
    int compared = 0;
    for (size_t f = 0; f < sizeof FILES_EPD / sizeof *FILES_EPD; f++) {
        TestLines lines;
        test_read_lines(FILES_EPD[f], &lines);
        for (int i = 0; i < lines.count; i++) {
            if (test_known_invalid(lines.line[i]))
                continue;
            char fen[LINE_MAX_TEST];
            epd_fen(lines.line[i], fen, sizeof fen);
            test_setup(&pos, fen);
            for (int ply = 0; ply < SYMMETRY_PLIES; ply++) {
                test_flip_colours(&pos, fen, sizeof fen);
                test_setup(&twin, fen);
                int a = evaluate(&pos, &EVAL_DEFAULTS), b = evaluate(&twin, &EVAL_DEFAULTS);
                if (a != b)
                    fail_msg("eval %d, colour-flipped %d: %s", a, b, fen);
                compared++;
                Move list[MAX_MOVES];
                int n = gen_legal(&pos, list);
                if (n == 0)
                    break;
                pos_make(&pos, list[(i + ply) % n]);
            }
        }
        test_free_lines(&lines);
    }
    assert_true(compared > 500);
}

/* Crossed rooks, horses and cannons on one wing beyond the first. */
static void test_wing_attackers(void **state)
{
    (void)state;
    assert_int_equal(eval_only("4k4/9/9/9/R1R6/9/9/9/9/3K5 w - - 0 1", "wing_attackers"), W);
    assert_int_equal(eval_only("4k4/9/9/9/R1N1C4/9/9/9/9/3K5 w - - 0 1", "wing_attackers"), W);
    assert_int_equal(eval_only("4k4/9/9/9/R7R/9/9/9/9/3K5 w - - 0 1", "wing_attackers"), 0);
    assert_int_equal(eval_only("4k4/9/9/9/9/R1R6/9/9/9/3K5 w - - 0 1", "wing_attackers"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mobility_tables),
        cmocka_unit_test(test_attacker_vs_defender),
        cmocka_unit_test(test_bottom_cannon),
        cmocka_unit_test(test_center_horse_pinned),
        cmocka_unit_test(test_rook_open_file),
        cmocka_unit_test(test_full_defence),
        cmocka_unit_test(test_crossed_pawn_missing_advisor),
        cmocka_unit_test(test_wing_attackers),
        cmocka_unit_test(test_colour_symmetry),
    };
    tables_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
