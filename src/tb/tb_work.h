/*
 * tb_work.h - one pass of the generator over a table's entries, shared by
 * threads: each takes chunks of consecutive entries until none is left, with
 * its own scratch position and move list; and the bit per entry the passes
 * mark entries with.
 */
#ifndef XQ_TB_WORK_H
#define XQ_TB_WORK_H

#include <stdatomic.h>
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

/* Bytes of a bit set over n entries (tb_bit_set, tb_bit_take). */
static inline size_t tb_bits_bytes(uint64_t n) { return (size_t)((n + 7) / 8); }
/* Sets entry i's bit (any thread, any time). */
static inline void tb_bit_set(_Atomic uint8_t *bits, uint64_t i)
{
    atomic_fetch_or_explicit(&bits[i >> 3], (uint8_t)(1u << (i & 7)), memory_order_relaxed);
}
/* Clears entry i's bit; was it set? */
static inline bool tb_bit_take(_Atomic uint8_t *bits, uint64_t i)
{
    const uint8_t m = (uint8_t)(1u << (i & 7));
    if (!(atomic_load_explicit(&bits[i >> 3], memory_order_relaxed) & m))
        return false;
    atomic_fetch_and_explicit(&bits[i >> 3], (uint8_t)~m, memory_order_relaxed);
    return true;
}

#endif
