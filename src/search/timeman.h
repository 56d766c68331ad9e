/*
 * timeman.h - how long to think: an optimum and a hard limit from either clock
 * form (UCCI "time/increment/movestogo", UCI "wtime/btime/winc/binc/movestogo",
 * CECP "level"), already reduced by the protocol layer to the side to move's
 * clock, and after each iteration the decision to go on or to stop.
 *
 * The optimum is the clock's share for one move: the time left plus the
 * increments still to come, over the moves still to play (movestogo, or in
 * sudden death an estimate from the game's ply). After each iteration the
 * search scales it by how settled the answer looks (tm_target_ms: the best
 * move's changes, a falling score, the best move's share of the nodes) and
 * starts no new iteration once that target is reached. The hard limit is
 * never passed. Both keep the GUI's
 * Move Overhead and a safety reserve in hand, so a game with a few hundred
 * milliseconds left and no increment is still not lost on time.
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
    int game_ply;         /* plies played since the game's first position (the moves-to-go estimate) */
    bool ponder;          /* pondering is enabled: we may spend a little more */
    bool forced;          /* only one legal move: answer at once */
} TimeInput;

/* Limits in ms counted from the start of the search; <= 0 means none. */
typedef struct TimeLimits {
    int64_t soft_ms;      /* the optimum: what tm_target_ms scales after each iteration */
    int64_t hard_ms;      /* never passed */
} TimeLimits;

/* What the search knows after a completed iteration (the main thread's). */
typedef struct TmIteration {
    int score;            /* the iteration's best score, side to move's view */
    int prev_iter_score;  /* the best score a few iterations back; TM_NO_SCORE if none */
    int prev_move_score;  /* the score of our search of the previous move; TM_NO_SCORE if none */
    int instability;      /* best-move changes, each worth 1000, halved every iteration */
    int best_share;       /* permille of the iteration's root nodes spent on the best move; < 0 unknown */
} TmIteration;

enum { TM_NO_SCORE = -100000 }; /* outside every score band */

/* Initialises a TimeInput with "nothing given". */
void tm_input_init(TimeInput *in);
/* Does the input carry a clock or a move time (else the search is untimed)? */
bool tm_is_timed(const TimeInput *in);
/* Computes the limits for one move. */
TimeLimits tm_allocate(const TimeInput *in);
/* Moves the game is expected to last for the side to move after game_ply plies (sudden death's horizon). */
int tm_moves_left(int game_ply);
/* The time this search aims at after an iteration: the optimum scaled by the iteration's signs, at most hard. */
int64_t tm_target_ms(int64_t optimum_ms, int64_t hard_ms, const TmIteration *it);
/* Should the search stop after this iteration, elapsed_ms into the search (the target is reached)? */
bool tm_stop_after_iteration(int64_t elapsed_ms, int64_t optimum_ms, int64_t hard_ms, const TmIteration *it);
/* Moves to the next time control of a period of mps moves (XBoard's "level MPS ...") when moves_done of the
 * engine's moves were played since the level was set: mps at a period's first move, 1 at its last. */
int tm_level_movestogo(int mps, int moves_done);

#endif
