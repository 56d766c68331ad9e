/*
 * threadpool.h - the search threads of an engine (Lazy SMP): one SearchThread
 * per thread, all searching the same root over one SearchShared (so one
 * table, one stop flag, one node count).
 *
 * Thread 0 is the caller's own thread (pool_search runs it there); threads
 * 1..n-1 are helper pthreads that sleep between searches. Creating and
 * resizing happen only between searches (pool_resize), never during one.
 * pool_search starts the helpers, searches on thread 0, then stops the
 * helpers and waits for every one of them before it returns: no helper
 * touches the table, the root or the shared state after that.
 */
#ifndef XQ_THREADPOOL_H
#define XQ_THREADPOOL_H

#include "search.h"

enum { POOL_MAX_THREADS = 256 };

typedef struct ThreadPool ThreadPool;

/* Work a pool's thread did in the last search (tests and benchmarks). */
typedef struct PoolThreadStats {
    uint64_t nodes;
    int depth;             /* its last completed iteration */
    uint64_t nnue_evals;   /* accumulator updates + refreshes of its own network stack (0 without a net) */
} PoolThreadStats;

/* Creates a pool of one thread (the caller's); NULL if out of memory. */
ThreadPool *pool_new(void);
/* Stops and joins every helper and frees the pool. */
void pool_free(ThreadPool *pool);
/* Sets the number of threads (1..POOL_MAX_THREADS, clamped); only between searches. The helpers are
 * created afresh (their histories start empty). Returns the count now in use: fewer than asked when
 * memory or the system refuses more threads. */
int pool_resize(ThreadPool *pool, int threads);
/* The number of threads. */
int pool_size(const ThreadPool *pool);
/* Clears every thread's learned move-ordering data (new game); only between searches. */
void pool_clear(ThreadPool *pool);
/* Searches pos with every thread under shared (prepared with search_shared_init) until a limit or
 * shared->stop, on the caller's thread; returns when every helper has stopped. out gets the chosen
 * thread's result (its move legal in pos) with the nodes of all threads. */
void pool_search(ThreadPool *pool, SearchShared *shared, const Position *pos, SearchResult *out);
/* What thread i did in the last search (i < pool_size). */
PoolThreadStats pool_thread_stats(const ThreadPool *pool, int i);

#endif
