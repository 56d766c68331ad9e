/*
 * test_timeman.c - the time manager's arithmetic: the hard limit never
 * exceeds the clock, fixed move times are honoured, and in simulated fast
 * games the clock settles at a cushion instead of draining (the engine is
 * not timed here: the test replays the allocation rule on a model clock).
 */
#include "testutil.h"
#include "search/timeman.h"

enum { SIM_LATENCY_MS = 5, SIM_OVERHEAD_MS = 10 };

/* A clock input with the given values. */
static TimeInput clock_input(int64_t time_ms, int64_t inc_ms, int movestogo, int overhead_ms)
{
    TimeInput in;
    tm_input_init(&in);
    in.time_ms = time_ms;
    in.inc_ms = inc_ms;
    in.movestogo = movestogo;
    in.overhead_ms = overhead_ms;
    return in;
}

/* Over a grid of clocks, limits are positive and ordered; the hard one leaves the overhead on the clock,
 * and on a clock with no room for that it stays within what is there (or is the smallest limit). */
static void test_limits_fit_the_clock(void **state)
{
    (void)state;
    static const int64_t times[] = { 0, 1, 5, 10, 11, 20, 21, 50, 120, 300, 1000, 5000, 60000, 600000 };
    static const int64_t incs[] = { 0, 10, 100, 2000 };
    static const int mtgs[] = { 0, 1, 2, 10, 40, 999 };
    int roomy = 0, tight = 0;
    for (size_t a = 0; a < sizeof times / sizeof *times; a++)
        for (size_t b = 0; b < sizeof incs / sizeof *incs; b++)
            for (size_t c = 0; c < sizeof mtgs / sizeof *mtgs; c++) {
                TimeInput in = clock_input(times[a], incs[b], mtgs[c], SIM_OVERHEAD_MS);
                TimeLimits lim = tm_allocate(&in);
                assert_true(lim.soft_ms >= 1 && lim.hard_ms >= lim.soft_ms);
                if (times[a] > 2 * SIM_OVERHEAD_MS) {
                    assert_true(lim.hard_ms + SIM_OVERHEAD_MS < times[a]);
                    roomy++;
                } else {
                    assert_true(lim.hard_ms <= (times[a] > SIM_OVERHEAD_MS ? times[a] - SIM_OVERHEAD_MS : 1));
                    tight++;
                }
            }
    assert_true(roomy > 0 && tight > 0); /* both kinds of clock were tried */
}

/* A fixed move time is a hard limit less the overhead. */
static void test_movetime(void **state)
{
    (void)state;
    TimeInput in;
    tm_input_init(&in);
    in.movetime_ms = 1000;
    in.overhead_ms = 30;
    TimeLimits lim = tm_allocate(&in);
    assert_int_equal(lim.hard_ms, 970);
}

/* The signs of an iteration that asks for the most time: the best move just changed twice, the score fell
 * by a pawn since the last move and since three iterations back, the best move took few of the nodes. */
static TmIteration worst_signs(void)
{
    TmIteration it = { .score = -100, .prev_iter_score = 0, .prev_move_score = 0, .instability = 1500,
                       .best_share = 100 };
    return it;
}

/* The signs of an ordinary iteration: the best move changed two iterations back, the score holds, the best
 * move took 60% of the nodes. */
static TmIteration typical_signs(void)
{
    TmIteration it = { .score = 0, .prev_iter_score = 0, .prev_move_score = 0, .instability = 500,
                       .best_share = 600 };
    return it;
}

/* Plays `moves` model moves, each spending the target the iteration signs `it` give (or the hard limit when
 * it is NULL) plus a latency; returns the lowest clock after move 20. */
static int64_t simulate_spending(int64_t base_ms, int64_t inc_ms, int moves, const TmIteration *it)
{
    int64_t clock = base_ms, lowest = base_ms;
    for (int move = 0; move < moves; move++) {
        TimeInput in = clock_input(clock, inc_ms, 0, 10);
        in.game_ply = 2 * move;
        TimeLimits lim = tm_allocate(&in);
        clock -= (it ? tm_target_ms(lim.soft_ms, lim.hard_ms, it) : lim.hard_ms) + SIM_LATENCY_MS;
        assert_true(clock > 0);
        clock += inc_ms;
        if (move >= 20 && clock < lowest)
            lowest = clock;
    }
    return lowest;
}

/* With an increment, fast games keep a cushion of a few hundred milliseconds and slower ones keep more,
 * even when every move asks for the most time (the worst signs) or runs to the hard limit. In sudden death a
 * long game of ordinary moves still ends with time in hand (the 5 ms latency alone costs 500 ms here). */
static void test_clock_keeps_a_cushion(void **state)
{
    (void)state;
    TmIteration worst = worst_signs(), typical = typical_signs();
    assert_true(simulate_spending(1000, 10, 400, &worst) >= 200);
    assert_true(simulate_spending(10000, 100, 400, &worst) >= 500);
    assert_true(simulate_spending(60000, 600, 400, &worst) >= 2000);
    assert_true(simulate_spending(10000, 100, 400, NULL) >= 500);
    assert_true(simulate_spending(60000, 600, 400, NULL) >= 2000);
    assert_true(simulate_spending(3000, 0, 100, &typical) >= 150);
    assert_true(simulate_spending(60000, 0, 100, &typical) >= 1000);
}

/* The target grows with the best move's instability, with a falling score and with a smaller share of the
 * nodes for the best move, shrinks the other way, and never passes the hard limit. */
static void test_target_follows_the_signs(void **state)
{
    (void)state;
    const int64_t optimum = 1000, hard = 5000;
    TmIteration calm = { .score = 30, .prev_iter_score = 30, .prev_move_score = 30, .instability = 0,
                         .best_share = 500 };
    const int64_t base = tm_target_ms(optimum, hard, &calm);
    TmIteration it = calm;
    it.instability = 1000;
    assert_true(tm_target_ms(optimum, hard, &it) > base);
    it = calm;
    it.score = -20; /* fell 50 since the last move and over the iterations */
    assert_true(tm_target_ms(optimum, hard, &it) > base);
    it.score = 80; /* rose as much */
    assert_true(tm_target_ms(optimum, hard, &it) < base);
    it = calm;
    it.prev_iter_score = it.prev_move_score = TM_NO_SCORE; /* nothing to compare with: no fall */
    assert_int_equal(tm_target_ms(optimum, hard, &it), base);
    it = calm;
    it.best_share = 950;
    assert_true(tm_target_ms(optimum, hard, &it) < base);
    it.best_share = 100;
    assert_true(tm_target_ms(optimum, hard, &it) > base);
    it = calm;
    it.score = 29000; /* a mate found is not a rise that saves time, a mate score gone is not a fall */
    it.prev_iter_score = it.prev_move_score = -29000;
    assert_int_equal(tm_target_ms(optimum, hard, &it), base);
    TmIteration worst = worst_signs();
    assert_true(tm_target_ms(optimum, hard, &worst) > 2 * optimum);
    assert_int_equal(tm_target_ms(optimum, 1200, &worst), 1200);
    assert_true(tm_stop_after_iteration(base, optimum, hard, &calm));
    assert_false(tm_stop_after_iteration(base - 1, optimum, hard, &calm));
}

/* Sudden death plans for fewer moves as the game goes on, never fewer than the estimate's floor, so the
 * optimum share of the same clock grows with the ply. */
static void test_moves_left_by_ply(void **state)
{
    (void)state;
    int last = tm_moves_left(0);
    assert_int_equal(tm_moves_left(-5), last);
    int64_t last_soft = 0;
    for (int ply = 0; ply <= 400; ply += 2) {
        int left = tm_moves_left(ply);
        assert_true(left <= last && left >= 20 && left <= 60);
        last = left;
        TimeInput in = clock_input(60000, 0, 0, 10);
        in.game_ply = ply;
        int64_t soft = tm_allocate(&in).soft_ms;
        assert_true(soft >= last_soft);
        last_soft = soft;
    }
    assert_true(tm_moves_left(400) < tm_moves_left(0));
}

/* An ordinary clock gives an ordinary share: not hoarded, not squandered. */
static void test_first_move_share(void **state)
{
    (void)state;
    TimeInput in = clock_input(10000, 100, 0, 10);
    TimeLimits lim = tm_allocate(&in);
    assert_true(lim.soft_ms >= 200 && lim.soft_ms <= 600);
    in = clock_input(60000, 0, 40, 10);
    lim = tm_allocate(&in);
    assert_true(lim.soft_ms >= 1000 && lim.soft_ms <= 2000);
}

/* Every clock the protocol lets in, and past it: no overflow (UBSan aborts on one), limits ordered and
 * within the clock, a fixed move time honoured. */
static void test_extremes(void **state)
{
    (void)state;
    static const int64_t values[] = { INT64_MIN, -1000000000000LL, -1000000000LL, -1, 0, 1, 2, 1000,
                                      1000000000LL, 1000000000000LL, 1000000000000000LL, INT64_MAX };
    static const int mtgs[] = { 0, 1, 2, 50, 100000, INT32_MAX };
    static const int overheads[] = { 0, 10, 5000 };
    enum { N_VALUES = sizeof values / sizeof values[0] };
    for (int t = 0; t < N_VALUES; t++)
        for (int i = 0; i < N_VALUES; i++)
            for (size_t c = 0; c < sizeof mtgs / sizeof mtgs[0]; c++)
                for (size_t o = 0; o < sizeof overheads / sizeof overheads[0]; o++)
                    for (int mt = -1; mt < N_VALUES; mt += 3) {
                        TimeInput in = clock_input(values[t], values[i], mtgs[c], overheads[o]);
                        in.movetime_ms = mt < 0 ? -1 : values[mt];
                        in.ponder = (t + i) % 2;
                        if (!tm_is_timed(&in))
                            continue;
                        TimeLimits lim = tm_allocate(&in);
                        assert_true(lim.hard_ms >= 1 && lim.hard_ms <= TM_CLOCK_MAX_MS);
                        assert_true(lim.soft_ms >= 0 && lim.soft_ms <= lim.hard_ms);
                        if (in.time_ms > 2 * overheads[o] + 1 && in.time_ms <= TM_CLOCK_MAX_MS)
                            assert_true(lim.hard_ms + overheads[o] < in.time_ms);
                        if (in.movetime_ms > overheads[o] && in.movetime_ms <= TM_CLOCK_MAX_MS)
                            assert_true(lim.hard_ms <= in.movetime_ms - overheads[o]);
                    }
}

/* XBoard's "level MPS": over three whole periods, moves to go counts down MPS, MPS - 1, ..., 1 and starts
 * again at MPS when the control is passed (the n-th move since the level, from 0, is move n % MPS + 1 of
 * its period); before the level's move (a negative count) a whole period is left. */
static void test_level_movestogo(void **state)
{
    (void)state;
    static const int MPS[] = { 1, 2, 3, 40 };
    for (size_t k = 0; k < sizeof MPS / sizeof *MPS; k++) {
        int mps = MPS[k], expected = mps;
        for (int done = 0; done < 3 * mps; done++) {
            assert_int_equal(tm_level_movestogo(mps, done), expected);
            expected = expected == 1 ? mps : expected - 1; /* the control passed after the last move */
        }
        assert_int_equal(tm_level_movestogo(mps, -1), mps);
    }
    assert_int_equal(tm_level_movestogo(40, 39), 1);
    assert_int_equal(tm_level_movestogo(40, 40), 40);
}

/* Runs the time manager tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_limits_fit_the_clock),
        cmocka_unit_test(test_movetime),
        cmocka_unit_test(test_clock_keeps_a_cushion),
        cmocka_unit_test(test_target_follows_the_signs),
        cmocka_unit_test(test_moves_left_by_ply),
        cmocka_unit_test(test_first_move_share),
        cmocka_unit_test(test_extremes),
        cmocka_unit_test(test_level_movestogo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
