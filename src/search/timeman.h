/*
 * timeman.h - how long to think: soft and hard limits from either clock form
 * (UCCI "time/increment/movestogo", UCI "wtime/btime/winc/binc/movestogo"),
 * already reduced by the protocol layer to the side to move's clock.
 *
 * The soft limit is a target (the search may stretch it when the best move is
 * unstable and cut it when it is stable); the hard limit is never passed.
 * Both keep the GUI's Move Overhead and a safety reserve in hand, so a game
 * with a few hundred milliseconds left and no increment is still not lost on
 * time.
 */
#ifndef XQ_TIMEMAN_H
#define XQ_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

/* The largest clock value the time manager works with (about 11.6 days, more than any game clock):
 * larger values, up to INT64_MAX, count as this much, and every product in tm_allocate stays
 * below 2^62. The protocol clamps the GUI's clocks to it as well. */
#define TM_CLOCK_MAX_MS INT64_C(1000000000)

/* The clock situation of the side to move, in milliseconds; negative = not given. */
typedef struct TimeInput {
    int64_t time_ms;      /* time left on our clock */
    int64_t inc_ms;       /* increment per move */
    int64_t movetime_ms;  /* fixed time for this move */
    int movestogo;        /* moves to the next time control; 0 = sudden death */
    int overhead_ms;      /* GUI/transport latency to keep in hand (Move Overhead) */
    bool ponder;          /* pondering is enabled: we may spend a little more */
    bool forced;          /* only one legal move: answer at once */
} TimeInput;

/* Soft and hard limits in ms counted from the start of the search; <= 0 means none. */
typedef struct TimeLimits {
    int64_t soft_ms;
    int64_t hard_ms;
} TimeLimits;

/* Initialises a TimeInput with "nothing given". */
void tm_input_init(TimeInput *in);
/* Does the input carry a clock or a move time (else the search is untimed)? */
bool tm_is_timed(const TimeInput *in);
/* Computes the limits for one move. */
TimeLimits tm_allocate(const TimeInput *in);
/* Moves to the next time control of a period of mps moves (XBoard's "level MPS ...") when moves_done of the
 * engine's moves were played since the level was set: mps at a period's first move, 1 at its last. */
int tm_level_movestogo(int mps, int moves_done);

#endif
