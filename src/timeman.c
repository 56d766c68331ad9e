/* timeman.c - soft/hard time limits for one move (see timeman.h). */
#include "timeman.h"

enum {
    TM_MOVES_HORIZON = 30,   /* sudden death: plan as if this many moves remain */
    TM_MOVESTOGO_MAX = 50,   /* cap a large movestogo (UCCI2QH sends 999) */
    TM_RESERVE_MS = 20,      /* never plan to spend the last milliseconds */
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

/* Computes the limits for one move. */
TimeLimits tm_allocate(const TimeInput *in)
{
    TimeLimits out = { 0, 0 };
    int64_t overhead = max64(in->overhead_ms, 0);
    if (in->movetime_ms >= 0) {
        /* fixed time per move: use it all but the overhead */
        out.hard_ms = max64(in->movetime_ms - overhead, TM_MIN_MS);
        out.soft_ms = 0;
        if (in->time_ms < 0)
            return out;
    }
    if (in->time_ms < 0)
        return out;

    int64_t inc = max64(in->inc_ms, 0);
    int mtg = in->movestogo > 0 ? (in->movestogo < TM_MOVESTOGO_MAX ? in->movestogo : TM_MOVESTOGO_MAX)
                                : TM_MOVES_HORIZON;
    /* usable time: the clock minus what the transport eats and a reserve */
    int64_t usable = in->time_ms - overhead - min64(TM_RESERVE_MS, in->time_ms / 10);
    usable = max64(usable, TM_MIN_MS);

    int64_t soft = usable / mtg;
    if (in->movestogo == 0)
        soft += inc * 3 / 4; /* the increment comes back after the move */
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
    if (in->movetime_ms >= 0) /* both given: the tighter wins */
        out.hard_ms = min64(out.hard_ms, max64(in->movetime_ms - overhead, TM_MIN_MS));
    return out;
}
