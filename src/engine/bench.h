/* bench.h - the fixed-depth search benchmark behind `jiangjun bench`. */
#ifndef XQ_BENCH_H
#define XQ_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "eval/nnue/nnue.h"

enum { BENCH_DEFAULT_DEPTH = 11, BENCH_HASH_MB = 16 };

/* What `bench` searches: each position to depth (or until movetime_ms, when > 0) with threads threads,
 * evaluating with net (NULL: the hand-crafted evaluation). */
typedef struct BenchConfig {
    int depth;
    int threads;
    int64_t movetime_ms;
    const Network *net;
} BenchConfig;

/* Searches every bench position with a fresh 16 MB table and fresh histories each; prints progress to out
 * and returns the total node count (0 on an allocation failure). The count is deterministic with one
 * thread and no movetime. */
uint64_t bench_run(const BenchConfig *cfg, FILE *out);
/* `jiangjun bench [depth [threads]] [-movetime ms] [-eval hce|nnue|FILE]`: runs the bench and prints the
 * totals. Returns an exit status. */
int cli_bench(int argc, char **argv, FILE *out, FILE *err);

#endif
