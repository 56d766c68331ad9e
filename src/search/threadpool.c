/* threadpool.c - the search threads of an engine (see threadpool.h). */
#include "threadpool.h"

#include "eval/score.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct Worker {
    struct ThreadPool *pool;
    SearchThread *st;
    SearchResult result;   /* of the last search */
    pthread_t thread;      /* helpers only (index > 0) */
    bool busy;             /* a search was handed to this helper and it has not finished (pool->lock) */
} Worker;

struct ThreadPool {
    int count;             /* threads, the caller's (worker 0) included */
    Worker *w[POOL_MAX_THREADS];
    pthread_mutex_t lock;
    pthread_cond_t wake;   /* a search or quit for the helpers */
    pthread_cond_t done;   /* a helper finished its search */
    bool quit;             /* helpers end (pool_resize, pool_free) */
    SearchShared *shared;  /* the search being run (set under lock before the helpers wake) */
    const Position *pos;
};

/* Body of a helper thread: sleep, search when handed a search, report done, until quit. */
static void *helper_main(void *arg)
{
    Worker *w = arg;
    ThreadPool *p = w->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!w->busy && !p->quit)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        SearchShared *shared = p->shared;
        const Position *pos = p->pos;
        pthread_mutex_unlock(&p->lock);
        search_run(w->st, shared, pos, &w->result);
        pthread_mutex_lock(&p->lock);
        w->busy = false;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Allocates worker i (its search thread; a helper's pthread is started by the caller). */
static Worker *worker_new(ThreadPool *p, int i)
{
    Worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->pool = p;
    w->st = search_thread_new();
    if (!w->st) {
        free(w);
        return NULL;
    }
    search_thread_set_index(w->st, i);
    return w;
}

/* Frees a worker whose thread (if any) has been joined. */
static void worker_free(Worker *w)
{
    if (!w)
        return;
    search_thread_free(w->st);
    free(w);
}

/* Creates a pool with the caller's thread only. */
ThreadPool *pool_new(void)
{
    ThreadPool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->w[0] = worker_new(p, 0);
    if (!p->w[0]) {
        free(p);
        return NULL;
    }
    p->count = 1;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    return p;
}

/* Ends and frees every helper (the pool keeps worker 0). */
static void stop_helpers(ThreadPool *p)
{
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 1; i < p->count; i++) {
        pthread_join(p->w[i]->thread, NULL);
        worker_free(p->w[i]);
        p->w[i] = NULL;
    }
    p->count = 1;
    p->quit = false;
}

/* Frees the pool and its threads. */
void pool_free(ThreadPool *p)
{
    if (!p)
        return;
    stop_helpers(p);
    worker_free(p->w[0]);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p);
}

/* Recreates the helpers for `threads` threads in all; returns the count reached. */
int pool_resize(ThreadPool *p, int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > POOL_MAX_THREADS)
        threads = POOL_MAX_THREADS;
    if (threads == p->count)
        return p->count;
    stop_helpers(p);
    while (p->count < threads) {
        Worker *w = worker_new(p, p->count);
        if (!w)
            break;
        if (pthread_create(&w->thread, NULL, helper_main, w) != 0) {
            worker_free(w);
            break;
        }
        p->w[p->count++] = w;
    }
    return p->count;
}

/* The number of threads. */
int pool_size(const ThreadPool *p) { return p->count; }

/* Clears every thread's move-ordering data. */
void pool_clear(ThreadPool *p)
{
    for (int i = 0; i < p->count; i++)
        search_thread_clear(p->w[i]->st);
}

enum { VOTE_BASE = 14 }; /* a thread's vote: (its score - the lowest score + this) * its depth */

/* The thread whose move to play: votes for each move weighted by score and depth (Stockfish's), a
 * quicker mate over a slower one. Thread 0 unless another one makes a better case; threads that
 * completed no iteration do not vote. */
static int pick_thread(const ThreadPool *p)
{
    int best = 0, min_score = SCORE_INF;
    for (int i = 0; i < p->count; i++)
        if (p->w[i]->result.depth > 0 && p->w[i]->result.score < min_score)
            min_score = p->w[i]->result.score;
    int64_t votes[POOL_MAX_THREADS]; /* votes[i]: for the move of thread i */
    for (int i = 0; i < p->count; i++) {
        votes[i] = 0;
        for (int j = 0; j < p->count; j++) {
            const SearchResult *r = &p->w[j]->result;
            if (r->depth > 0 && r->best == p->w[i]->result.best)
                votes[i] += (int64_t)(r->score - min_score + VOTE_BASE) * r->depth;
        }
    }
    for (int i = 1; i < p->count; i++) {
        const SearchResult *r = &p->w[i]->result, *b = &p->w[best]->result;
        if (r->depth == 0 || r->best == MOVE_NONE)
            continue;
        if (b->score >= SCORE_MATE_MIN) {
            if (r->score > b->score)
                best = i;
        } else if (r->score >= SCORE_MATE_MIN || votes[i] > votes[best]) {
            best = i;
        }
    }
    return best;
}

/* Searches with every thread; out gets the chosen thread's result with every thread's nodes. */
void pool_search(ThreadPool *p, SearchShared *shared, const Position *pos, SearchResult *out)
{
    pthread_mutex_lock(&p->lock);
    p->shared = shared;
    p->pos = pos;
    for (int i = 1; i < p->count; i++)
        p->w[i]->busy = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);

    search_run(p->w[0]->st, shared, pos, &p->w[0]->result);

    atomic_store(&shared->stop, true); /* thread 0 is done: so are the helpers */
    pthread_mutex_lock(&p->lock);
    for (int i = 1; i < p->count; i++)
        while (p->w[i]->busy)
            pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);

    uint64_t nodes = 0;
    for (int i = 0; i < p->count; i++)
        nodes += p->w[i]->result.nodes;
    /* MultiPV: thread 0's lines are the ones reported; its first line is the move */
    int chosen = p->w[0]->result.best == MOVE_NONE || shared->limits.multipv > 1 ? 0 : pick_thread(p);
    *out = p->w[chosen]->result;
    out->nodes = nodes;
    if (chosen != 0)
        search_report_line(p->w[chosen]->st, out->best); /* the last info line shows the move played */
}

/* What thread i did in the last search. */
PoolThreadStats pool_thread_stats(const ThreadPool *p, int i)
{
    PoolThreadStats s;
    memset(&s, 0, sizeof s);
    if (i < 0 || i >= p->count)
        return s;
    s.nodes = p->w[i]->result.nodes;
    s.depth = p->w[i]->result.depth;
    s.nnue_evals = search_thread_nnue_work(p->w[i]->st);
    return s;
}
