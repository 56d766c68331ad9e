/* tune_opt.c - MSE, K fit and Adam over the linear eval model. */
#include "tune_opt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double K_LOW = 1e-4, K_HIGH = 0.05, K_TOLERANCE = 1e-7;
static const double ADAM_BETA1 = 0.9, ADAM_BETA2 = 0.999, ADAM_EPS = 1e-8;

/* The logistic function. */
static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Mean squared error of the model. */
double tune_mse(const TuneSet *set, const double *w, double k, int mating_div)
{
    double sum = 0;
    for (size_t i = 0; i < set->n; i++) {
        double d = set->entry[i].result - sigmoid(k * tune_model_eval(set, i, w, mating_div));
        sum += d * d;
    }
    return set->n ? sum / (double)set->n : 0;
}

/* Golden-section search for the K with the least MSE. */
double tune_fit_k(const TuneSet *set, const double *w, int mating_div)
{
    const double g = (sqrt(5.0) - 1) / 2;
    double a = K_LOW, b = K_HIGH;
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = tune_mse(set, w, c, mating_div), fd = tune_mse(set, w, d, mating_div);
    while (b - a > K_TOLERANCE) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = tune_mse(set, w, c, mating_div);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = tune_mse(set, w, d, mating_div);
        }
    }
    return (a + b) / 2;
}

/* Adds the MSE gradient of every weight (and returns the MSE) into grad. */
static double gradient(const TuneSet *set, const double *w, double k, int mating_div, double *grad)
{
    const size_t tempo = tune_tempo_index();
    double sum = 0;
    for (size_t i = 0; i < set->n; i++) {
        const TuneEntry *e = &set->entry[i];
        double s = 0, t = 0;
        for (size_t j = e->first; j < e->first + e->count; j++) {
            if (set->idx[j] == tempo)
                t += set->coef[j] * w[tempo];
            else
                s += set->coef[j] * w[set->idx[j]];
        }
        double scale = 1.0;
        if ((s > 0 && !(e->flags & TUNE_RED_MATES)) || (s < 0 && !(e->flags & TUNE_BLACK_MATES)))
            scale = 1.0 / mating_div;
        double p = sigmoid(k * (s * scale + t)), d = e->result - p;
        sum += d * d;
        double ds = -2.0 * d * p * (1 - p) * k; /* d(error)/d(eval) */
        for (size_t j = e->first; j < e->first + e->count; j++)
            grad[set->idx[j]] += ds * set->coef[j] * (set->idx[j] == tempo ? 1.0 : scale);
    }
    double inv_n = set->n ? 1.0 / (double)set->n : 0;
    for (size_t j = 0; j < EVAL_PARAM_INTS; j++)
        grad[j] *= inv_n;
    return sum * inv_n;
}

/* Adam gradient descent over the free weights. */
void tune_optimise(const TuneSet *set, double *w, double k, const TuneOptions *opt, FILE *log)
{
    double start[EVAL_PARAM_INTS], grad[EVAL_PARAM_INTS], m[EVAL_PARAM_INTS], v[EVAL_PARAM_INTS];
    memcpy(start, w, sizeof start);
    memset(m, 0, sizeof m);
    memset(v, 0, sizeof v);
    double b1t = 1, b2t = 1;
    for (int epoch = 1; epoch <= opt->epochs; epoch++) {
        memset(grad, 0, sizeof grad);
        double mse = gradient(set, w, k, opt->mating_div, grad);
        b1t *= ADAM_BETA1;
        b2t *= ADAM_BETA2;
        for (size_t j = 0; j < EVAL_PARAM_INTS; j++) {
            if (!tune_param_free(j) || opt->frozen[j])
                continue;
            double g = grad[j] + 2 * opt->reg * (w[j] - start[j]);
            m[j] = ADAM_BETA1 * m[j] + (1 - ADAM_BETA1) * g;
            v[j] = ADAM_BETA2 * v[j] + (1 - ADAM_BETA2) * g * g;
            w[j] -= opt->lr * (m[j] / (1 - b1t)) / (sqrt(v[j] / (1 - b2t)) + ADAM_EPS);
        }
        if (log && opt->report_every > 0 && (epoch % opt->report_every == 0 || epoch == 1))
            fprintf(log, "epoch %5d  mse %.7f\n", epoch, mse);
    }
}
