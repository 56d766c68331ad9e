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
 * and ln((1-beta)/alpha) (Wald). While the observed variance is below
 * SPRT_VAR_FLOOR (e.g. every game won) the floor is used, so a one-sided
 * run still reaches a decision.
 */
#include "stats.h"

#include <math.h>

static const double Z95 = 1.959963984540054;
static const double SPRT_VAR_FLOOR = 0.01; /* per-game variance used while the observed one is below it */

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
    double mean, var;
    score_moments(s, &mean, &var);
    if (var < SPRT_VAR_FLOOR)
        var = SPRT_VAR_FLOOR; /* identical results so far (e.g. all wins): assume a small spread */
    double s0 = stats_score_from_elo(p->elo0), s1 = stats_score_from_elo(p->elo1);
    st.llr = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
    if (st.llr >= st.upper)
        st.state = SPRT_ACCEPT_H1;
    else if (st.llr <= st.lower)
        st.state = SPRT_ACCEPT_H0;
    return st;
}
