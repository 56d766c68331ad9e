/* timeman.c - soft/hard time limits for one move (see timeman.h). */
#include "timeman.h"

enum {
    TM_MOVES_HORIZON = 30,   /* sudden death: plan as if this many moves remain */
    TM_MOVESTOGO_MAX = 50,   /* cap a large movestogo (UCCI2QH sends 999) */
    TM_FLOOR_MS = 300,       /* keep this much on the clock as a cushion against stalls... */
    TM_FLOOR_INCREMENTS = 5, /* ...or this many increments, whichever is more (at most a quarter of a big clock) */
    TM_MIN_MS = 1,           /* smallest limit we hand to the search */
    TM_FORCED_MS = 20,       /* think this long on a forced move (for a ponder move) */
    TM_HARD_PER_SOFT = 4,    /* the hard limit is at most this many soft limits */
};

/* Percent of the usable time one move may take at most, by moves to go. */
static int hard_percent(int movestogo)
{
    if (movestogo == 1)
        return 80;
    if (movestogo == 2)
        return 50;
    return 30;
}

/* Initialises a TimeInput with "nothing given". */
void tm_input_init(TimeInput *in)
{
    in->time_ms = -1;
    in->inc_ms = 0;
    in->movetime_ms = -1;
    in->movestogo = 0;
    in->overhead_ms = 0;
    in->ponder = false;
    in->forced = false;
}

/* Does the input carry a clock or a move time? */
bool tm_is_timed(const TimeInput *in) { return in->time_ms >= 0 || in->movetime_ms >= 0; }

/* Returns the larger of two values. */
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* Returns the smaller of two values. */
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Clamps v to [lo, TM_CLOCK_MAX_MS]. */
static int64_t clamp_clock(int64_t v, int64_t lo) { return min64(max64(v, lo), TM_CLOCK_MAX_MS); }

/* Computes the limits for one move. */
TimeLimits tm_allocate(const TimeInput *in)
{
    TimeLimits out = { 0, 0 };
    /* every value in [0, TM_CLOCK_MAX_MS] (negative clocks mean "not given"), so no product overflows */
    const int64_t overhead = clamp_clock(in->overhead_ms, 0), inc = clamp_clock(in->inc_ms, 0);
    const int64_t time_ms = in->time_ms < 0 ? -1 : clamp_clock(in->time_ms, 0);
    const int64_t movetime_ms = in->movetime_ms < 0 ? -1 : clamp_clock(in->movetime_ms, 0);
    if (movetime_ms >= 0) {
        /* fixed time per move: use it all but the overhead */
        out.hard_ms = max64(movetime_ms - overhead, TM_MIN_MS);
        out.soft_ms = 0;
        if (time_ms < 0)
            return out;
    }
    if (time_ms < 0)
        return out;

    int mtg = in->movestogo > 0 ? (in->movestogo < TM_MOVESTOGO_MAX ? in->movestogo : TM_MOVESTOGO_MAX)
                                : TM_MOVES_HORIZON;
    /* usable time: the clock minus what the transport eats and a cushion. Near the cushion we spend
     * less than the increment, so in fast games the clock settles a little above it instead of
     * draining to a few milliseconds, where one stall of a loaded machine loses on time. */
    int64_t floor_ms = min64(max64(TM_FLOOR_MS, TM_FLOOR_INCREMENTS * inc), max64(TM_FLOOR_MS, time_ms / 4));
    int64_t usable = max64(time_ms - overhead - floor_ms, (time_ms - overhead) / 4);
    usable = max64(usable, TM_MIN_MS);

    int64_t soft = usable / mtg;
    if (in->movestogo == 0 && time_ms > floor_ms) { /* the increment comes back after the move */
        int64_t above = min64(time_ms - floor_ms, floor_ms);
        soft += inc * 3 / 4 * above / floor_ms;
    }
    if (in->ponder)
        soft += soft / 4;
    int64_t hard = usable * hard_percent(in->movestogo) / 100;
    hard = min64(hard, soft * TM_HARD_PER_SOFT);
    /* with an increment and a healthy clock, a move may use a little more */
    hard = max64(hard, min64(inc / 2, usable / 2));
    soft = min64(soft, hard);
    if (in->forced)
        soft = hard = min64(hard, TM_FORCED_MS);
    out.soft_ms = max64(soft, TM_MIN_MS);
    out.hard_ms = max64(hard, TM_MIN_MS);
    if (movetime_ms >= 0) { /* both given: the tighter wins */
        out.hard_ms = min64(out.hard_ms, max64(movetime_ms - overhead, TM_MIN_MS));
        out.soft_ms = min64(out.soft_ms, out.hard_ms);
    }
    return out;
}

/* Moves to the next control of a period of mps moves after moves_done of them (negative counts as none). */
int tm_level_movestogo(int mps, int moves_done) { return mps - (moves_done > 0 ? moves_done : 0) % mps; }
