/* tb_work.c - a pass over a table's entries on several threads (see tb_work.h). */
#include "tb_work.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "base/platform.h"

enum { CHUNK = 4096, PROGRESS_MS = 1000 };

/* The shared state of a running pass. */
typedef struct Run {
    const TbWork *w;
    atomic_uint_fast64_t next; /* first entry of the next chunk */
    atomic_int_fast64_t count; /* the chunks' counts so far */
    atomic_int failed;
    int64_t start_ms, last_ms; /* the pass's start and its last progress line (the caller's thread only) */
} Run;

/* Prints the pass's progress when a second has passed since the last line. */
static void report(Run *r, uint64_t done)
{
    int64_t now = now_ms();
    if (!r->w->progress || now - r->last_ms < PROGRESS_MS)
        return;
    r->last_ms = now;
    double secs = (now - r->start_ms) / 1000.0, rate = secs > 0 ? done / secs : 0;
    double eta = rate > 0 ? (r->w->size - done) / rate : 0;
    fprintf(r->w->progress, "%s: %.0f%%, %.0f positions/s, pass ETA %.0f s\n", r->w->what, 100.0 * done / r->w->size,
            rate, eta);
    fflush(r->w->progress);
}

/* One thread's share: chunks until none is left (first: the caller's thread, which reports). */
static void work(Run *r, bool first)
{
    TbScratch *s = malloc(sizeof *s);
    if (!s) {
        atomic_store(&r->failed, 1);
        return;
    }
    const uint64_t size = r->w->size;
    int64_t sum = 0;
    for (;;) {
        uint64_t lo = atomic_fetch_add(&r->next, CHUNK);
        if (lo >= size || atomic_load(&r->failed))
            break;
        uint64_t hi = lo + CHUNK < size ? lo + CHUNK : size;
        int64_t n = r->w->fn(r->w->ctx, lo, hi, s);
        if (n < 0) {
            atomic_store(&r->failed, 1);
            break;
        }
        sum += n;
        if (first)
            report(r, hi);
    }
    atomic_fetch_add(&r->count, sum);
    free(s);
}

/* A helper thread's entry point (arg: the Run). */
static void *helper(void *arg)
{
    work(arg, false);
    return NULL;
}

/* Runs a pass; returns the sum of the chunks' counts, or -1 on failure. */
int64_t tb_work_run(const TbWork *w)
{
    Run r = { .w = w };
    atomic_init(&r.next, 0);
    atomic_init(&r.count, 0);
    atomic_init(&r.failed, 0);
    r.start_ms = r.last_ms = now_ms();
    int threads = w->threads < 1 ? 1 : w->threads > TB_THREADS_MAX ? TB_THREADS_MAX : w->threads;
    pthread_t tid[TB_THREADS_MAX];
    int started = 0;
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tid[started], NULL, helper, &r) == 0)
            started++;
    work(&r, true);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    return atomic_load(&r.failed) ? -1 : (int64_t)atomic_load(&r.count);
}
