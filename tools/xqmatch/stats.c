/*
 * stats.c - Elo and SPRT arithmetic.
 *
 * Elo is the logistic model: s = 1 / (1 + 10^(-elo/400)). The error bar uses
 * the per-game variance of the score (trinomial: win 1, draw 1/2, loss 0)
 * and the normal quantile 1.959964; the interval's ends are converted to
 * Elo and the half-width reported. LOS = Phi((W-L)/sqrt(W+L)).
 * SPRT: the generalised SPRT of M. Van den Bergh in its normal approximation,
 * LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var), where s0, s1 are the scores of
 * elo0 and elo1 and var the per-game score variance; bounds ln(beta/(1-alpha))
 * and ln((1-beta)/alpha) (Wald). The variance is taken with SPRT_PRIOR_GAMES
 * pseudo-games of each kind (win, draw, loss) added: without them one lost
 * game has variance 0 and "decides" the test (-3.0 with elo1 40), and a
 * one-sided run still reaches a decision (all wins: after 21 games for 0/10).
 */
#include "stats.h"

#include <math.h>

static const double Z95 = 1.959963984540054;
static const double SPRT_PRIOR_GAMES = 1.0; /* pseudo-games of each result in the SPRT's variance */

/* Elo difference of a score. */
double stats_elo_from_score(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

/* Expected score of an Elo difference. */
double stats_score_from_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Mean and per-game variance of a result. */
static void score_moments(Score s, double *mean, double *var)
{
    double n = s.wins + s.losses + s.draws;
    double m = (s.wins + 0.5 * s.draws) / n;
    double w = s.wins / n, l = s.losses / n, d = s.draws / n;
    *mean = m;
    *var = w * (1 - m) * (1 - m) + l * m * m + d * (0.5 - m) * (0.5 - m);
}

/* Elo estimate. */
EloEstimate stats_elo(Score s)
{
    EloEstimate e = { 0, 0, 0.5, 0.5 };
    int n = s.wins + s.losses + s.draws;
    if (s.wins + s.losses > 0)
        e.los = 0.5 * (1.0 + erf((s.wins - s.losses) / sqrt(2.0 * (s.wins + s.losses))));
    if (n == 0)
        return e;
    double mean, var;
    score_moments(s, &mean, &var);
    e.score = mean;
    e.elo = stats_elo_from_score(mean);
    double dev = Z95 * sqrt(var / n);
    double lo = mean - dev, hi = mean + dev;
    if (lo > 0.0 && hi < 1.0)
        e.error95 = (stats_elo_from_score(hi) - stats_elo_from_score(lo)) / 2.0;
    else
        e.error95 = INFINITY; /* too few or one-sided results for a finite interval */
    if (e.elo == 0.0)
        e.elo = 0.0; /* no "-0.0" */
    return e;
}

/* SPRT status. */
SprtStatus stats_sprt(Score s, const SprtParams *p)
{
    SprtStatus st;
    st.lower = log(p->beta / (1.0 - p->alpha));
    st.upper = log((1.0 - p->beta) / p->alpha);
    st.llr = 0.0;
    st.state = SPRT_CONTINUE;
    int n = s.wins + s.losses + s.draws;
    if (n == 0)
        return st;
    double mean, var, prior_mean;
    score_moments(s, &mean, &var);
    /* the variance of the results with the prior's pseudo-games (a spread from the first game on) */
    double w = s.wins + SPRT_PRIOR_GAMES, l = s.losses + SPRT_PRIOR_GAMES, d = s.draws + SPRT_PRIOR_GAMES;
    double total = w + l + d;
    prior_mean = (w + 0.5 * d) / total;
    var = (w * (1 - prior_mean) * (1 - prior_mean) + l * prior_mean * prior_mean
           + d * (0.5 - prior_mean) * (0.5 - prior_mean)) / total;
    double s0 = stats_score_from_elo(p->elo0), s1 = stats_score_from_elo(p->elo1);
    st.llr = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
    if (st.llr >= st.upper)
        st.state = SPRT_ACCEPT_H1;
    else if (st.llr <= st.lower)
        st.state = SPRT_ACCEPT_H0;
    return st;
}
