/* train_opt.c - Adam with lazy first-layer rows, and the learning-rate schedule. */
#include "train_opt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double ADAM_BETA1 = 0.9, ADAM_BETA2 = 0.999, ADAM_EPS = 1e-8;
static const double PI = 3.141592653589793;

/* Allocates zeroed moments. */
bool adam_alloc(Adam *a, const Net *net)
{
    memset(a, 0, sizeof *a);
    a->size = net->size;
    a->stage2_lr_scale = 1.0;
    a->m = calloc(a->size, sizeof *a->m);
    a->v = calloc(a->size, sizeof *a->v);
    if (!a->m || !a->v) {
        adam_free(a);
        return false;
    }
    return true;
}

/* Frees the moments. */
void adam_free(Adam *a)
{
    free(a->m);
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* Step constants of one Adam update. */
typedef struct AdamCoef {
    float b1, b2, lr, inv_bc1, inv_bc2, eps;
} AdamCoef;

/* Adam update of n parameters from their gradients, scaled by keep first (the decay), each clipped to [-lim, lim]. */
static void adam_span(float *restrict w, float *restrict m, float *restrict v, const float *restrict g, size_t n,
                      const AdamCoef *c, float keep, float lim)
{
    for (size_t i = 0; i < n; i++) {
        m[i] = c->b1 * m[i] + (1.0f - c->b1) * g[i];
        v[i] = c->b2 * v[i] + (1.0f - c->b2) * g[i] * g[i];
        float x = w[i] * keep - c->lr * (m[i] * c->inv_bc1) / (sqrtf(v[i] * c->inv_bc2) + c->eps);
        w[i] = x < -lim ? -lim : x > lim ? lim : x;
    }
}

/* One Adam step: the touched ft rows (real and virtual, decayed first), then the dense parameters. */
void adam_step(Adam *a, Net *net, const Grad *g, double lr)
{
    a->step++;
    AdamCoef c = {
        (float)ADAM_BETA1, (float)ADAM_BETA2, (float)lr,
        (float)(1.0 / (1.0 - pow(ADAM_BETA1, (double)a->step))),
        (float)(1.0 / (1.0 - pow(ADAM_BETA2, (double)a->step))), (float)ADAM_EPS,
    };
    size_t h = (size_t)net->shape.hidden;
    float keep = (float)(1.0 - lr * a->weight_decay);
    float keep_bucket = net->shape.feature_set == NNUE_FEATURE_SET_KING
                          ? (float)(1.0 - lr * (a->weight_decay + a->bucket_decay)) : keep;
    for (int i = 0; i < g->row_count; i++) {
        size_t off = (size_t)g->row_list[i] * h;
        float k = g->row_list[i] < net->shape.inputs ? keep_bucket : keep;
        adam_span(net->params + off, a->m + off, a->v + off, g->params + off, h, &c, k, TRAIN_FT_CLIP);
    }
    size_t ft_b = (size_t)net->rows * h, out_w = ft_b + h, out_b = out_w + NNUE_OUTPUT_BUCKETS * 2 * h;
    adam_span(net->params + ft_b, a->m + ft_b, a->v + ft_b, g->params + ft_b, h, &c, 1.0f, TRAIN_FT_CLIP);
    adam_span(net->params + out_w, a->m + out_w, a->v + out_w, g->params + out_w, out_b - out_w, &c, 1.0f,
              TRAIN_OUT_CLIP);
    adam_span(net->params + out_b, a->m + out_b, a->v + out_b, g->params + out_b, NNUE_OUTPUT_BUCKETS, &c, 1.0f,
              TRAIN_BIAS_CLIP);
    if (net->shape.l2) { /* the second stage, at its own rate: its weights, then its biases */
        c.lr = (float)(lr * a->stage2_lr_scale);
        size_t s2_w = out_b + NNUE_OUTPUT_BUCKETS, s2_b = s2_w + nnue_stage2_weights(&net->shape);
        adam_span(net->params + s2_w, a->m + s2_w, a->v + s2_w, g->params + s2_w, s2_b - s2_w, &c, 1.0f,
                  TRAIN_S2_CLIP);
        adam_span(net->params + s2_b, a->m + s2_b, a->v + s2_b, g->params + s2_b, nnue_stage2_biases(&net->shape), &c,
                  1.0f, TRAIN_BIAS_CLIP);
    }
    net_sync(net);
}

/* Learning rate at a point of training. */
double schedule_lr(const Schedule *s, int epoch, double frac)
{
    if (s->cosine) {
        double progress = ((epoch - 1) + frac) / (s->epochs > 0 ? s->epochs : 1);
        return s->lr * (s->min_frac + (1.0 - s->min_frac) * 0.5 * (1.0 + cos(PI * progress)));
    }
    if (s->drop_every <= 0)
        return s->lr;
    return s->lr * pow(s->gamma, (double)((epoch - 1) / s->drop_every));
}
