/*
 * stats.h - match statistics: Elo difference with a 95% error bar,
 * likelihood of superiority, and a sequential probability ratio test.
 */
#ifndef XQM_STATS_H
#define XQM_STATS_H

#include <stdbool.h>

/* Wins, losses and draws from one engine's point of view. */
typedef struct Score {
    int wins, losses, draws;
} Score;

/* Elo estimate of a Score. */
typedef struct EloEstimate {
    double elo;        /* logistic Elo difference (±inf at 0% or 100%) */
    double error95;    /* half-width of the 95% interval (infinite when undefined, 0 with no games) */
    double los;        /* likelihood of superiority, 0..1 */
    double score;      /* points per game, 0..1 */
} EloEstimate;

/* SPRT parameters: H0 elo <= elo0 against H1 elo >= elo1. */
typedef struct SprtParams {
    double elo0, elo1, alpha, beta;
} SprtParams;

typedef enum SprtState { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 } SprtState;

/* The test's status. */
typedef struct SprtStatus {
    double llr, lower, upper;  /* log-likelihood ratio and its stopping bounds */
    SprtState state;
} SprtStatus;

/* Logistic Elo difference of an expected score (0 < s < 1). */
double stats_elo_from_score(double s);
/* Expected score of a logistic Elo difference. */
double stats_score_from_elo(double elo);
/* Elo, 95% error bar and LOS of a result. */
EloEstimate stats_elo(Score s);
/* LLR of the trinomial GSPRT (normal approximation) and the decision. */
SprtStatus stats_sprt(Score s, const SprtParams *p);

#endif
