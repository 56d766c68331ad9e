/*
 * tune_opt.h - the tuner's objective and optimiser: mean squared error
 * between sigmoid(K * red_eval) and the game result, K fitted first, then
 * Adam gradient descent (analytical gradient of the linear model) over the
 * free EvalParams ints, with an optional L2 pull toward the start values.
 */
#ifndef XQT_TUNE_OPT_H
#define XQT_TUNE_OPT_H

#include <stdbool.h>
#include <stdio.h>

#include "tune_data.h"

typedef struct TuneOptions {
    int epochs;       /* full passes of gradient descent */
    double lr;        /* Adam step size, in eval units */
    double reg;       /* L2 weight per (w - w_start)^2, added to the MSE */
    int mating_div;   /* the (fixed) no_mating_material_div */
    int report_every; /* epochs between progress lines; 0 = none */
    bool frozen[EVAL_PARAM_INTS]; /* weights kept at their start values (-freeze) */
} TuneOptions;

/* Mean squared error of the model with weights w at scaling k. */
double tune_mse(const TuneSet *set, const double *w, double k, int mating_div);
/* The K minimising the MSE for weights w (golden-section search). */
double tune_fit_k(const TuneSet *set, const double *w, int mating_div);
/* Runs Adam from w (updated in place), logging progress to log (may be NULL). */
void tune_optimise(const TuneSet *set, double *w, double k, const TuneOptions *opt, FILE *log);

#endif
