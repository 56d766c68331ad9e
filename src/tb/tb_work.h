/*
 * tb_work.h - one pass of the generator over a table's entries, shared by
 * threads: each takes chunks of consecutive entries until none is left, with
 * its own scratch position and move list.
 */
#ifndef XQ_TB_WORK_H
#define XQ_TB_WORK_H

#include <stdio.h>

#include "board/movegen.h"

enum { TB_THREADS_MAX = 64 };

/* A thread's scratch space. */
typedef struct TbScratch {
    Position pos;
    Move moves[MAX_MOVES];
} TbScratch;

/* Handles entries [lo, hi) of a pass; returns how many it counts (resolved, removed, ...), or -1 to stop
 * the pass as failed. */
typedef int64_t (*TbChunkFn)(void *ctx, uint64_t lo, uint64_t hi, TbScratch *s);

/* A pass: entries [0, size) through fn on `threads` threads (the caller's among them). */
typedef struct TbWork {
    uint64_t size;
    int threads;
    TbChunkFn fn;
    void *ctx;
    FILE *progress;   /* a line a second (done, rate, ETA) while the pass runs; NULL for none */
    const char *what; /* the pass's name in those lines */
} TbWork;

/* Runs a pass; returns the sum of the chunks' counts, or -1 if a chunk failed or memory was short. */
int64_t tb_work_run(const TbWork *w);

#endif
