/* test_see.c - static exchange evaluation: hand-worked exchanges, colour symmetry, and see_ge against see. */
#include "testutil.h"

#include "board/move.h"
#include "board/movegen.h"
#include "board/square.h"
#include "search/see.h"

static Position pos;

/* SEE of move text in FEN, and of the same move with colours and ranks flipped. */
static void check_value(const char *fen, const char *move, int expect)
{
    Move m;
    test_setup(&pos, fen);
    assert_true(move_from_text(move, &m));
    assert_true(move_is_pseudo_legal(&pos, m));
    assert_int_equal(see(&pos, m), expect);
    assert_true(see_ge(&pos, m, expect));
    assert_false(see_ge(&pos, m, expect + 1));
    char flipped[FEN_MAX];
    test_flip_colours(&pos, flipped, sizeof flipped);
    test_setup(&pos, flipped);
    assert_int_equal(see(&pos, move_make(sq_flip(move_from(m)), sq_flip(move_to(m)))), expect);
}

/* Exchanges worked by hand with the ordering values (pawn 100, horse 400, cannon 450, rook 900). */
static void test_hand_values(void **state)
{
    (void)state;
    /* A rook takes a pawn that a horse defends (the horse's leg is free). */
    const char *horse = "5k3/9/3n5/9/4p4/9/9/9/4R4/3K5 w - - 0 1";
    check_value(horse, "e1e5", 100 - 900);
    check_value(horse, "e1e4", -900); /* a quiet move onto the pawn's square ahead */
    check_value(horse, "e1e2", 0);    /* a quiet move nobody attacks */
    /* A red pawn on the horse's leg: the pawn is free. */
    check_value("5k3/9/3n5/3P5/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 100);
    /* A cannon recaptures over the horse on e7; red's cannon on e0 takes it back over the pawn on e3. */
    check_value("5k3/4c4/4n4/9/R3p4/9/4P4/9/9/3KC4 w - - 0 1", "a5e5", 100 - 900 + 450);
    /* Without red's screen the cannon's recapture stands. */
    check_value("5k3/4c4/4n4/9/R3p4/9/9/9/9/3KC4 w - - 0 1", "a5e5", 100 - 900);
    /* Without the horse black's cannon has no screen: the pawn is free. */
    check_value("5k3/4c4/9/9/R3p4/9/9/9/9/3K5 w - - 0 1", "a5e5", 100);
}

/* see_ge(m, t) equals see(m) >= t at the value's edges and at fixed thresholds, for every legal move. */
static void check_threshold(void)
{
    static const int FIXED[] = { -1800, -900, -450, -400, -100, -1, 0, 1, 100, 400, 450, 900 };
    Move moves[MAX_MOVES];
    int n = gen_legal(&pos, moves);
    for (int i = 0; i < n; i++) {
        const int v = see(&pos, moves[i]);
        for (int d = -1; d <= 1; d++)
            assert_int_equal(see_ge(&pos, moves[i], v + d), d <= 0);
        for (size_t k = 0; k < sizeof FIXED / sizeof FIXED[0]; k++) {
            if (see_ge(&pos, moves[i], FIXED[k]) != (v >= FIXED[k])) {
                char f[FEN_MAX], t[MOVE_TEXT];
                fail_msg("%s: %s see=%d threshold %d", pos_to_fen(&pos, f, sizeof f), move_to_text(moves[i], t), v,
                         FIXED[k]);
            }
        }
    }
}

/* Walks two plies from each perft position (tactical middlegames among them) checking the thresholds. */
static void test_threshold_matches_value(void **state)
{
    (void)state;
    test_walk_perft(&pos, check_threshold, 2);
}

/* Runs the SEE tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_values),
        cmocka_unit_test(test_threshold_matches_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
