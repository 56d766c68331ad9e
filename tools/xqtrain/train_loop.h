/*
 * train_loop.h - the training loop: epochs of shuffled mini-batches over
 * threads, validation, progress, checkpoints and exports.
 *
 * Determinism: the order of positions, and which of them are mirrored,
 * come from generators seeded by -seed; each batch is cut into fixed contiguous slices, one per thread;
 * each thread sums its own gradient in its slice's order, and the slices'
 * gradients are added in thread order. So a given seed and thread count give
 * the same nets bit for bit (on one machine and build).
 */
#ifndef XQ_TRAIN_LOOP_H
#define XQ_TRAIN_LOOP_H

#include <limits.h>
#include <stdio.h>

#include "train_opt.h"

enum {
    TRAIN_MAX_THREADS = 64,
    TRAIN_QAT_ALL = INT_MAX, /* qat_epochs: every epoch trains the output layer on its grid */
};

/* Settings of a training run. */
typedef struct TrainOptions {
    int epochs;
    size_t epoch_size;   /* positions per epoch; 0: the training set's size */
    int batch;
    Schedule sched;
    LossSpec loss;
    int threads;
    int qat_epochs;      /* the last this many epochs train the output layer on its grid (Net.qat); TRAIN_QAT_ALL:
                            all */
    bool mirror;         /* train on each position or, with probability 1/2, its left-right mirror */
    int patience;        /* stop after this many epochs without a better validation loss (0: never) */
    uint64_t seed;       /* order of the positions */
    const char *out_dir; /* NULL: write nothing */
    int save_every;      /* write epoch-N files every this many epochs (the last always) */
    const char *desc;    /* description in exported nets */
    double export_tolerance; /* mean |float - int| (cp) the final net must stay within */
    double progress_s;   /* seconds between progress lines on stderr; <= 0: none */
    FILE *log;           /* epoch lines; NULL: none */
} TrainOptions;

/* What one epoch gave (epoch 0: not run, after an early stop). */
typedef struct EpochResult {
    int epoch;
    double lr, train_loss, valid_loss, pos_per_s, seconds;
    bool best; /* the best validation loss so far (written as best.nnue) */
} EpochResult;

/* Mean loss of the float net over a set, computed on `threads` threads. */
double train_eval_loss(const Net *net, const TrainSet *set, const LossSpec *loss, int threads);
/*
 * Trains net in place (adam holds the optimiser state) on train, reporting valid (may be empty);
 * writes DIR/epoch-N.ckpt, DIR/epoch-N.nnue, DIR/final.nnue (the last epoch trained) and, whenever
 * the validation loss is the best so far, DIR/best.nnue (the nets only when the engine runs the
 * net's shape, nnue_shape_ok). With patience, stops after that many epochs without a better validation loss.
 * results, if not NULL, gets one entry per epoch run (the caller zeroes it). Returns 0, or 1 on an
 * error or a failed export check of the final net (messages on stderr).
 */
int train_run(Net *net, Adam *adam, const TrainSet *train, const TrainSet *valid, const TrainOptions *o,
              EpochResult *results);

#endif
