/* test_movepick.c - the staged move picker: each pseudo-legal move once, and the vector selection in the scalar
 * selection's exact order (ties included). */
#include "testutil.h"

#include <stdlib.h>

#include "board/movegen.h"
#include "search/movepick.h"

enum { HISTORY_STEPS = 4, HISTORY_STEP = 1000 }; /* few distinct values: many ties among the quiet moves */

static Position pos;
static OrderTables *tables;
static ContHist *conts[PICKER_CONTS];
static uint64_t seed = 0x2545F4914F6CDD1Dull;
static int compared;

/* The next pseudo-random number of this test. */
static uint64_t next_random(void) { return test_random(&seed); }

/* A history value from a handful of steps (ties are the hard case for an exact order). */
static int16_t random_history(void)
{
    return (int16_t)(((int)(next_random() % (2 * HISTORY_STEPS + 1)) - HISTORY_STEPS) * HISTORY_STEP);
}

/* Fills the butterfly, continuation and capture histories with tie-rich values. */
static void randomize_tables(void)
{
    int16_t *h = &tables->history[0][0][0];
    for (size_t i = 0; i < sizeof tables->history / sizeof *h; i++)
        h[i] = random_history();
    int16_t *c = &tables->capture[0][0][0];
    for (size_t i = 0; i < sizeof tables->capture / sizeof *c; i++)
        c[i] = random_history();
    for (int k = 0; k < PICKER_CONTS; k++) {
        int16_t *t = &(*conts[k])[0][0];
        for (size_t i = 0; i < sizeof *conts[k] / sizeof *t; i++)
            t[i] = random_history();
    }
}

/* Runs a picker to the end, recording its moves and scores; returns their count. */
static int run_picker(MovePicker *mp, bool simd, Move *moves, int *scores)
{
    mp->simd = simd;
    int n = 0;
    Move m;
    while ((m = picker_next(mp, &scores[n])) != MOVE_NONE)
        moves[n++] = m;
    return n;
}

/* A random pseudo-legal move of the list (or none), for the TT move, killers and countermove. */
static Move random_move(const Move *moves, int n)
{
    return n == 0 || next_random() % 4 == 0 ? MOVE_NONE : moves[next_random() % (uint64_t)n];
}

/* Full-width and capture pickers return every pseudo-legal move (capture) once, and the same sequence with and
 * without the vector selection. */
static void check_picker(void)
{
    Move all[MAX_MOVES], caps[MAX_MOVES];
    const int n_all = gen_moves(&pos, all), n_caps = gen_captures(&pos, caps);
    randomize_tables();
    Move killers[2] = { random_move(all, n_all), random_move(all, n_all) };
    if (killers[1] == killers[0]) /* the search keeps two different killers */
        killers[1] = MOVE_NONE;
    const Move tt_move = random_move(all, n_all), counter = random_move(all, n_all);
    const bool simd = picker_simd_available();
    static MovePicker mp[2];
    static Move seq[2][MAX_MOVES];
    static int scores[2][MAX_MOVES + 1];
    int n[2];
    for (int v = 0; v < 2; v++) {
        picker_init(&mp[v], &pos, tables, tt_move, killers, counter, conts);
        n[v] = run_picker(&mp[v], v == 1 && simd, seq[v], scores[v]);
    }
    assert_int_equal(n[0], n_all);
    for (int i = 0; i < n_all; i++) { /* each pseudo-legal move exactly once */
        int found = 0;
        for (int j = 0; j < n[0]; j++)
            found += seq[0][j] == all[i];
        assert_int_equal(found, 1);
    }
    assert_int_equal(n[1], n[0]);
    assert_memory_equal(seq[1], seq[0], (size_t)n[0] * sizeof seq[0][0]);
    assert_memory_equal(scores[1], scores[0], (size_t)n[0] * sizeof scores[0][0]);
    for (int v = 0; v < 2; v++) {
        picker_init_captures(&mp[v], &pos);
        n[v] = run_picker(&mp[v], v == 1 && simd, seq[v], scores[v]);
    }
    assert_int_equal(n[0], n_caps);
    assert_int_equal(n[1], n[0]);
    assert_memory_equal(seq[1], seq[0], (size_t)n[0] * sizeof seq[0][0]);
    for (int i = 1; i < n[0]; i++) /* captures by MVV/LVA, best first */
        assert_true(scores[0][i - 1] >= scores[0][i]);
    compared += simd;
}

/* The picker on every position of the perft walk, with fresh random histories at each. */
static void test_picker_order(void **state)
{
    (void)state;
    tables = calloc(1, sizeof *tables);
    assert_non_null(tables);
    for (int k = 0; k < PICKER_CONTS; k++)
        conts[k] = &tables->cont[k][k + 1];
    test_walk_perft(&pos, check_picker, 3);
    free(tables);
    print_message("vector selection compared with scalar at %d positions\n", compared);
    if (compared == 0) { /* nothing was compared: say so and skip, never a silent pass */
        print_message("SKIPPED: this CPU runs no vector selection, so none was compared with scalar\n");
        skip();
    }
}

/* Runs the move picker tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_picker_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
