/* timeman.c - the optimum and hard limit of one move, and the stop decision after an iteration (timeman.h). */
#include "timeman.h"

enum {
    TM_MOVESTOGO_MAX = 50,   /* cap a large movestogo (UCCI2QH sends 999) */
    TM_HORIZON_FIRST = 50,   /* sudden death: moves left planned for at the game's start... */
    TM_HORIZON_PLIES = 3,    /* ...one fewer every this many plies... */
    TM_HORIZON_LAST = 30,    /* ...down to this many (self-play games: a median of 33-37 moves left from ply 40 on) */
    TM_FLOOR_MS = 300,       /* keep this much on the clock as a cushion against stalls... */
    TM_FLOOR_INCREMENTS = 5, /* ...or this many increments, whichever is more (at most a quarter of a big clock) */
    TM_OPT_CLOCK_PERMILLE = 200, /* the optimum is at most this share of the usable clock (big increments) */
    TM_MIN_MS = 1,           /* smallest limit we hand to the search */
    TM_FORCED_MS = 20,       /* think this long on a forced move (for a ponder move) */
    TM_HARD_PER_SOFT = 5,    /* the hard limit is at most this many optimums */
    TM_PERMILLE = 1000,
    /* tm_target_ms: the optimum times three factors in permille */
    TM_STABLE_PERMILLE = 850,   /* a best move that has not changed for several iterations... */
    TM_CHANGE_WEIGHT = 800,     /* ...plus this much per (decayed) change of the best move */
    TM_FALL_MOVE_K = 4,         /* permille per centipawn the score fell since our previous move... */
    TM_FALL_ITER_K = 6,         /* ...and since a few iterations back */
    TM_FALL_CLAMP_CP = 100,     /* each fall counts up to this much either way */
    TM_FALL_MIN = 700,
    TM_FALL_MAX = 1500,
    TM_SHARE_BASE = 1300,       /* the best move's node share s (permille) gives BASE - s / 2... */
    TM_SHARE_MIN = 800,         /* ...within these bounds */
    TM_SHARE_MAX = 1150,
    TM_MATE_SCORE = 20000,      /* scores beyond this (mates, tablebase wins) do not count as falls */
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
    in->game_ply = 0;
    in->ponder = false;
    in->forced = false;
}

/* Does the input carry a clock or a move time? */
bool tm_is_timed(const TimeInput *in) { return in->time_ms >= 0 || in->movetime_ms >= 0; }

/* Returns the larger of two values. */
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* Returns the smaller of two values. */
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
/* Clamps v to [lo, hi]. */
static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return min64(max64(v, lo), hi); }

/* Clamps v to [lo, TM_CLOCK_MAX_MS]. */
static int64_t clamp_clock(int64_t v, int64_t lo) { return clamp64(v, lo, TM_CLOCK_MAX_MS); }

/* Moves left for the side to move after game_ply plies, as sudden death plans them. */
int tm_moves_left(int game_ply)
{
    int ply = game_ply > 0 ? game_ply : 0;
    int left = TM_HORIZON_FIRST - ply / TM_HORIZON_PLIES;
    return left > TM_HORIZON_LAST ? left : TM_HORIZON_LAST;
}

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

    const int mtg = in->movestogo > 0 ? (in->movestogo < TM_MOVESTOGO_MAX ? in->movestogo : TM_MOVESTOGO_MAX)
                                      : tm_moves_left(in->game_ply);
    /* usable time: the clock minus what the transport eats and a cushion. Near the cushion the optimum
     * falls to about the increment, so in fast games the clock settles a little above it instead of
     * draining to a few milliseconds, where one stall of a loaded machine loses on time. */
    int64_t floor_ms = min64(max64(TM_FLOOR_MS, TM_FLOOR_INCREMENTS * inc), max64(TM_FLOOR_MS, time_ms / 4));
    int64_t usable = max64(time_ms - overhead - floor_ms, (time_ms - overhead) / 4);
    usable = max64(usable, TM_MIN_MS);

    /* the optimum: what is left to the control (the clock and the increments still to come, less the
     * transport's share of each move) shared among the moves to play */
    int64_t to_come = inc * (mtg - 1) - overhead * mtg;
    int64_t soft = max64(usable + to_come, usable) / mtg;
    soft = min64(soft, usable * TM_OPT_CLOCK_PERMILLE / TM_PERMILLE);
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

/* How far a score fell from an earlier one (positive = fell), clamped; 0 when either is unknown or a mate. */
static int fall_cp(int earlier, int now)
{
    if (earlier == TM_NO_SCORE || earlier > TM_MATE_SCORE || earlier < -TM_MATE_SCORE || now > TM_MATE_SCORE
        || now < -TM_MATE_SCORE)
        return 0;
    return (int)clamp64(earlier - now, -TM_FALL_CLAMP_CP, TM_FALL_CLAMP_CP);
}

/* The target after an iteration: the optimum scaled by stability, the score's fall and the best move's share. */
int64_t tm_target_ms(int64_t optimum_ms, int64_t hard_ms, const TmIteration *it)
{
    int64_t changes = clamp64(it->instability, 0, 4 * TM_PERMILLE);
    int64_t f_stable = TM_STABLE_PERMILLE + changes * TM_CHANGE_WEIGHT / TM_PERMILLE;
    int64_t f_fall = clamp64(TM_PERMILLE + TM_FALL_MOVE_K * fall_cp(it->prev_move_score, it->score)
                                 + TM_FALL_ITER_K * fall_cp(it->prev_iter_score, it->score),
                             TM_FALL_MIN, TM_FALL_MAX);
    int64_t f_share = it->best_share < 0 ? TM_PERMILLE
                                         : clamp64(TM_SHARE_BASE - it->best_share / 2, TM_SHARE_MIN, TM_SHARE_MAX);
    int64_t t = clamp_clock(optimum_ms, 0) * f_stable / TM_PERMILLE;
    t = t * f_fall / TM_PERMILLE;
    t = t * f_share / TM_PERMILLE;
    return hard_ms > 0 ? min64(t, hard_ms) : t;
}

/* Stop after this iteration once the time gone reaches the target. */
bool tm_stop_after_iteration(int64_t elapsed_ms, int64_t optimum_ms, int64_t hard_ms, const TmIteration *it)
{
    return elapsed_ms >= tm_target_ms(optimum_ms, hard_ms, it);
}

/* Moves to the next control of a period of mps moves after moves_done of them (negative counts as none). */
int tm_level_movestogo(int mps, int moves_done) { return mps - (moves_done > 0 ? moves_done : 0) % mps; }
