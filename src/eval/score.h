/*
 * score.h - score bands. Scores are centipawn-like integers from the side to
 * move's view (a horse or cannon is about 100 in UCCI's convention; our
 * pawn is 100 in the opening, see eval_params.h).
 *
 *   |score| < SCORE_KNOWN_WIN           ordinary evaluations
 *   SCORE_BAN_MIN <= |score| <= SCORE_BAN  repetition verdicts: a forbidden
 *       perpetual loses with a "ban" score below any mate. They are path
 *       dependent, so the TT never stores them as exact values.
 *   SCORE_TB_WIN_MIN <= |score| <= SCORE_TB_WIN  a tablebase win (loss) found
 *       at ply SCORE_TB_WIN - |score| whose mate lies beyond MAX_PLY (a table's
 *       nearer mates score as mates), below any
 *       repetition verdict and mate; stored in the TT relative to the node
 *       like mates
 *   |score| >= SCORE_MATE_MIN           mate in (SCORE_MATE - |score|) plies
 */
#ifndef XQ_SCORE_H
#define XQ_SCORE_H

enum {
    MAX_PLY = 128,
    SCORE_INF = 32000,
    SCORE_MATE = 30000,
    SCORE_MATE_MIN = SCORE_MATE - MAX_PLY,
    SCORE_BAN = 29000,
    SCORE_BAN_MIN = SCORE_BAN - MAX_PLY,
    SCORE_TB_WIN = 25000,
    SCORE_TB_WIN_MIN = SCORE_TB_WIN - MAX_PLY,
    SCORE_KNOWN_WIN = 20000,
    SCORE_DRAW = 0,
    SCORE_NONE = 32001,
};

/* Score for the side to move being mated at ply. */
static inline int score_mated_in(int ply) { return -SCORE_MATE + ply; }
/* Is this a mate score (either side)? */
static inline int score_is_mate(int s) { return s >= SCORE_MATE_MIN || s <= -SCORE_MATE_MIN; }
/* Score for the side to move winning by tablebase, the position found at ply. */
static inline int score_tb_win_at(int ply) { return SCORE_TB_WIN - ply; }
/* Is this a tablebase score (either side)? */
static inline int score_is_tb(int s)
{
    return (s >= SCORE_TB_WIN_MIN && s <= SCORE_TB_WIN) || (s <= -SCORE_TB_WIN_MIN && s >= -SCORE_TB_WIN);
}
/* Is this a repetition-ban score (either side)? */
static inline int score_is_ban(int s)
{
    return (s >= SCORE_BAN_MIN && s <= SCORE_BAN) || (s <= -SCORE_BAN_MIN && s >= -SCORE_BAN);
}

/* The value a null-move search that failed high (score >= beta) may return: a mate after a pass
 * proves nothing and a repetition-ban score depends on the path, so beta stands in for them; else
 * the score. */
static inline int score_null_cutoff(int score, int beta)
{
    return score_is_mate(score) || score_is_ban(score) ? beta : score;
}

#endif
