/*
 * train_opt.h - the trainer's optimiser (Adam, lazy for the first layer's
 * rows) and its learning-rate schedule.
 *
 * Adam: beta1 0.9, beta2 0.999, eps 1e-8, bias-corrected with the global
 * step count t. The dense parts (ft bias, output weights and biases) take
 * the textbook step every batch. The first layer is lazy ("LazyAdam"): only
 * the rows a batch touched (real, and with factorisation virtual: a virtual
 * row counts as touched when one of its real rows is) have their moments updated and take a step;
 * untouched rows keep their weights and their moments as they were (no
 * decay of m and v for the batches in between), and their bias correction
 * still uses the global t. Every updated parameter is clipped to its
 * TRAIN_*_CLIP range right after its step.
 *
 * Weight decay (decoupled, as AdamW): with weight_decay wd, a first-layer
 * row (real or virtual) that takes a step is first multiplied by
 * 1 - lr * wd; like the moments, rows no batch touched are not decayed in
 * between (lazily). Biases and the output layer are not decayed. With
 * bucket_decay bd, a feature-set-2 net's real rows (the king buckets' own
 * part, beside the shared psq rows) are scaled by 1 - lr * (wd + bd): a prior
 * that a piece is worth the same wherever its king stands unless the data
 * says otherwise (for small data sets, where the buckets overfit).
 *
 * A second stage's parameters step at stage2_lr_scale times the rate (a
 * stage added to a trained net starts from zero output weights and has far
 * to go where the rest of the net has little).
 */
#ifndef XQ_TRAIN_OPT_H
#define XQ_TRAIN_OPT_H

#include "train_model.h"

/* Adam's moments, in the net's layout, its step count and its weight decay. */
typedef struct Adam {
    size_t size;
    float *m, *v;
    uint64_t step;
    double weight_decay; /* decoupled (AdamW): a stepped first-layer row is first scaled by 1 - lr * this */
    double bucket_decay; /* more of it on the king-bucket rows of a feature-set-2 net (real rows) */
    double stage2_lr_scale; /* the second stage's rate, times lr (adam_alloc: 1) */
} Adam;

/* Learning-rate schedule. */
typedef struct Schedule {
    double lr;      /* initial rate */
    int drop_every; /* step schedule: multiply by gamma every this many epochs (0: never) */
    double gamma;
    bool cosine;    /* cosine schedule from lr to lr * min_frac over all epochs, per batch */
    double min_frac;
    int epochs;
} Schedule;

/* Allocates zeroed moments for a net; false if out of memory. */
bool adam_alloc(Adam *a, const Net *net);
/* Frees the moments. */
void adam_free(Adam *a);
/* One step with the (summed, batch-mean) gradient g: lazy on g's touched ft rows, dense elsewhere. */
void adam_step(Adam *a, Net *net, const Grad *g, double lr);
/* Learning rate at a point of training: epoch 1.., frac in [0, 1) through that epoch. */
double schedule_lr(const Schedule *s, int epoch, double frac);

#endif
