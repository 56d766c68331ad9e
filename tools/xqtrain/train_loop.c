/* train_loop.c - epochs, threaded batches, the deterministic reduction, validation and output files. */
#include "train_loop.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "train_ckpt.h"
#include "train_export.h"

enum { PATH_LEN = 4096, SHUFFLE_SALT = 0x5eed, MIRROR_SALT = 0x313202 };

/* One thread's share of a batch (or of a validation pass) and its gradient. */
typedef struct Worker {
    const Net *net;
    const TrainSet *set;
    const LossSpec *loss;
    const uint32_t *index; /* positions of the slice (NULL: set->pos[begin..end) directly) */
    const uint8_t *mirror; /* per batch entry: train on the position's left-right mirror (NULL: none) */
    size_t begin, end;
    float weight;          /* 1 / batch size */
    bool backward;
    double loss_sum;
    Grad grad;
    Scratch scratch;
} Worker;

/* The shuffled order of the training positions: a permutation and a cursor into it; the mirror draws. */
typedef struct Sampler {
    uint32_t *perm;
    size_t count, cursor;
    TrainRng rng;
    TrainRng mirror_rng; /* its own stream, so -mirror does not change the order */
} Sampler;

/* Seconds on a monotonic clock. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Fisher-Yates shuffle of the sampler's permutation. */
static void sampler_shuffle(Sampler *s)
{
    for (size_t i = s->count; i > 1; i--) {
        size_t j = (size_t)(rng_next(&s->rng) % i);
        uint32_t t = s->perm[i - 1];
        s->perm[i - 1] = s->perm[j];
        s->perm[j] = t;
    }
    s->cursor = 0;
}

/* Next n positions of the order into out, reshuffling whenever the permutation runs out. */
static void sampler_take(Sampler *s, uint32_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s->cursor == s->count)
            sampler_shuffle(s);
        out[i] = s->perm[s->cursor++];
    }
}

/* Draws a mirror flag (probability 1/2) for each of n batch entries. */
static void sampler_mirror(Sampler *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(rng_next(&s->mirror_rng) >> 63);
}

/* Runs a worker's slice: the loss sum, and with backward its gradient. */
static void *worker_run(void *arg)
{
    Worker *w = arg;
    double sum = 0;
    for (size_t i = w->begin; i < w->end; i++) {
        const TrainPos *p = &w->set->pos[w->index ? w->index[i] : i];
        TrainPos mirrored;
        if (w->mirror && w->mirror[i]) {
            train_mirror(p, &mirrored);
            p = &mirrored;
        }
        sum += w->backward ? net_loss_grad(w->net, p, w->loss, w->weight, &w->grad, &w->scratch)
                           : net_loss(w->net, p, w->loss, &w->scratch);
    }
    w->loss_sum = sum;
    return NULL;
}

/* Runs n items over the workers in contiguous slices (worker t: [n t / T, n (t + 1) / T)). */
static void run_workers(Worker *w, int threads, size_t n)
{
    pthread_t tid[TRAIN_MAX_THREADS];
    bool started[TRAIN_MAX_THREADS];
    for (int t = 0; t < threads; t++) {
        w[t].begin = n * (size_t)t / (size_t)threads;
        w[t].end = n * (size_t)(t + 1) / (size_t)threads;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, worker_run, &w[t]) == 0;
    worker_run(&w[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            worker_run(&w[t]); /* no thread to be had: same slice, same sums */
    }
}

/* Adds the other workers' gradients into worker 0's, in thread order, and clears theirs. */
static void reduce_grads(Worker *w, int threads)
{
    Grad *g0 = &w[0].grad;
    size_t h = (size_t)g0->hidden, dense = g0->size - (size_t)g0->rows * h;
    for (int t = 1; t < threads; t++) {
        Grad *g = &w[t].grad;
        for (int i = 0; i < g->row_count; i++) {
            int row = g->row_list[i];
            grad_touch(g0, row);
            float *dst = g0->ft_w + (size_t)row * h;
            const float *src = g->ft_w + (size_t)row * h;
            for (size_t j = 0; j < h; j++)
                dst[j] += src[j];
        }
        for (size_t j = 0; j < dense; j++)
            g0->ft_b[j] += g->ft_b[j];
        grad_clear(g);
    }
}

/* Allocates the workers' gradients and scratch; false if out of memory. */
static bool workers_alloc(Worker *w, int threads, const Net *net, bool with_grad)
{
    memset(w, 0, (size_t)threads * sizeof *w);
    for (int t = 0; t < threads; t++)
        if ((with_grad && !grad_alloc(&w[t].grad, net)) || !scratch_alloc(&w[t].scratch, net->shape.hidden))
            return false;
    return true;
}

/* Frees the workers' buffers. */
static void workers_free(Worker *w, int threads)
{
    for (int t = 0; t < threads; t++) {
        grad_free(&w[t].grad);
        scratch_free(&w[t].scratch);
    }
}

/* Mean loss of the float net over a set. */
double train_eval_loss(const Net *net, const TrainSet *set, const LossSpec *loss, int threads)
{
    if (set->count == 0)
        return 0;
    threads = threads < 1 ? 1 : threads > TRAIN_MAX_THREADS ? TRAIN_MAX_THREADS : threads;
    Worker *w = malloc((size_t)threads * sizeof *w);
    double sum = 0;
    if (!w || !workers_alloc(w, threads, net, false)) {
        fprintf(stderr, "xqtrain: out of memory for the validation pass\n");
    } else {
        for (int t = 0; t < threads; t++) {
            w[t].net = net;
            w[t].set = set;
            w[t].loss = loss;
        }
        run_workers(w, threads, set->count);
        for (int t = 0; t < threads; t++)
            sum += w[t].loss_sum;
    }
    if (w)
        workers_free(w, threads);
    free(w);
    return sum / (double)set->count;
}

/* Formats seconds as "1h02m03s", "2m03s" or "3.2s". */
static const char *fmt_time(double s, char *buf, size_t n)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
    else if (t >= 60)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%.1fs", s);
    return buf;
}

/* Which outputs save_outputs writes. */
enum OutputKind { OUT_EPOCH, OUT_FINAL, OUT_BEST };

/*
 * Writes the epoch's checkpoint and net, the final net or the best net. False on a write error or a
 * failed export check (for epoch and best nets only the dequantised check counts: they may predate
 * -qat-epochs).
 */
static bool save_outputs(const Net *net, const Adam *adam, const TrainSet *check, const TrainOptions *o, int epoch,
                         enum OutputKind kind)
{
    char path[PATH_LEN];
    XqError err;
    if (kind == OUT_EPOCH) {
        snprintf(path, sizeof path, "%s/epoch-%d.ckpt", o->out_dir, epoch);
        if (!ckpt_save(path, net, adam, epoch, &err)) {
            fprintf(stderr, "xqtrain: %s\n", err.msg);
            return false;
        }
    }
    if (!nnue_shape_ok(&net->shape))
        return true;
    if (kind == OUT_EPOCH)
        snprintf(path, sizeof path, "%s/epoch-%d.nnue", o->out_dir, epoch);
    else
        snprintf(path, sizeof path, "%s/%s.nnue", o->out_dir, kind == OUT_FINAL ? "final" : "best");
    bool final = kind == OUT_FINAL;
    ExportCheck chk;
    /* an epoch or best net is written whenever it is a faithful integer net (the dequantised check) */
    bool ok = export_net(net, o->desc, path, check, &o->loss, final ? o->export_tolerance : INFINITY, &chk, &err);
    if (o->log && chk.positions)
        fprintf(o->log, "  %s: export check on %zu positions: |float - int| mean %.2f cp, max %.1f cp; "
                "|dequantised - int| max %.2f cp; loss float %.6f, quantised %.6f; int32 sum bound %lld (%s)%s\n",
                path, chk.positions, chk.mean_diff, chk.max_diff, chk.max_dequant_diff, chk.float_loss,
                chk.quant_loss, (long long)chk.int32_worst, chk.int32_worst <= INT32_MAX ? "int32 safe" : "needs int64",
                !final && chk.mean_diff > o->export_tolerance ? "; over the final tolerance: the net is not yet "
                "trained on its grid (-qat-epochs)" : "");
    if (ok)
        return true;
    fprintf(stderr, "xqtrain: %s: %s%s\n", path, err.msg, chk.positions && !chk.passed ? " (not written)" : "");
    return false;
}

/* Progress line on stderr: epoch, share done, running loss, speed, ETA. */
static void progress(int epoch, double frac, double loss, double rate, double elapsed, double eta)
{
    char a[32], b[32];
    fprintf(stderr, "epoch %d  %5.1f%%  loss %.5f  %.0f pos/s  elapsed %s  ETA %s\n", epoch, 100 * frac, loss,
            rate, fmt_time(elapsed, a, sizeof a), fmt_time(eta, b, sizeof b));
}

/* Trains one epoch of `size` positions; returns the mean training loss. */
static double train_epoch(Net *net, Adam *adam, Worker *w, Sampler *smp, uint32_t *batch_idx, uint8_t *mirror,
                          size_t size, const TrainOptions *o, int epoch, double t_start, double *next_progress,
                          double total)
{
    double loss_sum = 0;
    size_t done = 0;
    while (done < size) {
        size_t n = size - done < (size_t)o->batch ? size - done : (size_t)o->batch;
        sampler_take(smp, batch_idx, n);
        if (o->mirror)
            sampler_mirror(smp, mirror, n);
        for (int t = 0; t < o->threads; t++) {
            w[t].weight = (float)(1.0 / (double)n);
            w[t].backward = true;
        }
        run_workers(w, o->threads, n);
        for (int t = 0; t < o->threads; t++)
            loss_sum += w[t].loss_sum;
        reduce_grads(w, o->threads);
        if (net->factorised)
            grad_factorise(&w[0].grad, net);
        adam_step(adam, net, &w[0].grad, schedule_lr(&o->sched, epoch, (double)done / (double)size));
        grad_clear(&w[0].grad);
        done += n;
        double now = now_s();
        if (o->progress_s > 0 && now >= *next_progress && done < size) {
            double trained = (double)(epoch - 1) * (double)size + (double)done;
            double elapsed = now - t_start;
            progress(epoch, (double)done / (double)size, loss_sum / (double)done, trained / elapsed, elapsed,
                     elapsed / trained * (total - trained));
            *next_progress = now + o->progress_s;
        }
    }
    return loss_sum / (double)size;
}

/* Trains net in place. */
int train_run(Net *net, Adam *adam, const TrainSet *train, const TrainSet *valid, const TrainOptions *o,
              EpochResult *results)
{
    size_t size = o->epoch_size ? o->epoch_size : train->count;
    int status = 1;
    Worker *w = calloc((size_t)o->threads, sizeof *w);
    Sampler smp = { malloc(train->count * sizeof(uint32_t)), train->count, 0, { o->seed ^ SHUFFLE_SALT },
                    { o->seed ^ MIRROR_SALT } };
    uint32_t *batch_idx = malloc((size_t)o->batch * sizeof *batch_idx);
    uint8_t *mirror = malloc((size_t)o->batch);
    if (train->count == 0 || train->count > UINT32_MAX || o->threads < 1 || o->threads > TRAIN_MAX_THREADS
        || o->batch < 1) {
        fprintf(stderr, "xqtrain: nothing to train on (or a bad thread count or batch)\n");
        goto done;
    }
    if (!w || !smp.perm || !batch_idx || !mirror || !workers_alloc(w, o->threads, net, true)) {
        fprintf(stderr, "xqtrain: out of memory\n");
        goto done;
    }
    for (int t = 0; t < o->threads; t++) {
        w[t].net = net;
        w[t].set = train;
        w[t].loss = &o->loss;
        w[t].index = batch_idx;
        w[t].mirror = o->mirror ? mirror : NULL;
    }
    for (size_t i = 0; i < train->count; i++)
        smp.perm[i] = (uint32_t)i;
    sampler_shuffle(&smp);
    const TrainSet *check = valid->count ? valid : train;
    double t_start = now_s(), next_progress = t_start + o->progress_s;
    double total = (double)o->epochs * (double)size;
    status = 0;
    double best = INFINITY;
    int best_epoch = 0, last_epoch = o->epochs;
    for (int e = 0; e < o->epochs; e++) {
        int epoch = e + 1;
        if (o->qat_epochs > 0 && e == (o->qat_epochs < o->epochs ? o->epochs - o->qat_epochs : 0)) {
            net->qat = true;
            net_sync(net);
            if (o->log)
                fprintf(o->log, "from epoch %d the output weights are trained on their quantisation grid\n", epoch);
        }
        double t0 = now_s();
        double lr = schedule_lr(&o->sched, epoch, 0);
        double train_loss =
            train_epoch(net, adam, w, &smp, batch_idx, mirror, size, o, epoch, t_start, &next_progress, total);
        double t1 = now_s();
        double valid_loss = train_eval_loss(net, valid, &o->loss, o->threads);
        double elapsed = now_s() - t_start;
        bool is_best = valid->count && valid_loss < best;
        if (is_best) {
            best = valid_loss;
            best_epoch = epoch;
        }
        bool stop = o->patience > 0 && valid->count && epoch - best_epoch >= o->patience && epoch < o->epochs;
        EpochResult r = { epoch, lr, train_loss, valid_loss, (double)size / (t1 - t0), t1 - t0, is_best };
        if (results)
            results[e] = r;
        if (o->log) {
            char a[32], b[32], c[32];
            fprintf(o->log, "epoch %d  lr %.3g  train %.6f  valid %.6f%s  %.0f pos/s  epoch %s  elapsed %s  ETA %s\n",
                    epoch, lr, train_loss, valid_loss, is_best ? " (best)" : "", r.pos_per_s,
                    fmt_time(r.seconds, a, sizeof a), fmt_time(elapsed, b, sizeof b),
                    fmt_time(elapsed / (e + 1) * (o->epochs - e - 1), c, sizeof c));
            fflush(o->log);
        }
        bool last = e == o->epochs - 1 || stop;
        if (o->out_dir && ((last || (o->save_every > 0 && (e + 1) % o->save_every == 0))
                           && !save_outputs(net, adam, check, o, epoch, OUT_EPOCH))) {
            status = 1;
            goto done;
        }
        if (o->out_dir && is_best && !save_outputs(net, adam, check, o, epoch, OUT_BEST)) {
            status = 1;
            goto done;
        }
        if (stop) {
            last_epoch = epoch;
            if (o->log)
                fprintf(o->log, "early stop: no better validation loss for %d epochs\n", o->patience);
            break;
        }
    }
    if (o->log && best_epoch)
        fprintf(o->log, "best validation loss %.6f at epoch %d%s\n", best, best_epoch,
                o->out_dir && nnue_shape_ok(&net->shape) ? " (best.nnue)" : "");
    if (o->out_dir && !save_outputs(net, adam, check, o, last_epoch, OUT_FINAL))
        status = 1;
done:
    if (w)
        workers_free(w, o->threads);
    free(w);
    free(smp.perm);
    free(batch_idx);
    free(mirror);
    return status;
}
