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

/* Plays `moves` model moves spending the soft limit plus a latency; returns the lowest clock after move 20. */
static int64_t simulate(int64_t base_ms, int64_t inc_ms, int moves)
{
    int64_t clock = base_ms, lowest = base_ms;
    for (int move = 0; move < moves; move++) {
        TimeInput in = clock_input(clock, inc_ms, 0, 10);
        TimeLimits lim = tm_allocate(&in);
        clock -= lim.soft_ms + SIM_LATENCY_MS;
        assert_true(clock > 0);
        clock += inc_ms;
        if (move >= 20 && clock < lowest)
            lowest = clock;
    }
    return lowest;
}

/* Fast games keep a cushion of a few hundred milliseconds; slower ones keep more. */
static void test_clock_keeps_a_cushion(void **state)
{
    (void)state;
    assert_true(simulate(1000, 10, 400) >= 250);
    assert_true(simulate(10000, 100, 400) >= 500);
    assert_true(simulate(3000, 0, 100) >= 200); /* sudden death: a long game still ends with time in hand */
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
        cmocka_unit_test(test_first_move_share),
        cmocka_unit_test(test_extremes),
        cmocka_unit_test(test_level_movestogo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
