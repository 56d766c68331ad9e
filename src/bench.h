/* bench.h - the fixed-depth search benchmark behind `jiangjun bench`. */
#ifndef XQ_BENCH_H
#define XQ_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "nnue.h"

enum { BENCH_DEFAULT_DEPTH = 11, BENCH_HASH_MB = 16 };

/* Searches every bench position to `depth` with a fresh 16 MB table each, evaluating with net (NULL: the
 * hand-crafted evaluation); prints progress to out and returns the total node count (0 on an allocation failure). */
uint64_t bench_run(int depth, const Network *net, FILE *out);
/* `jiangjun bench [depth] [-eval hce|nnue|FILE]`: runs the bench and prints the totals. Returns an exit status. */
int cli_bench(int argc, char **argv, FILE *out, FILE *err);

#endif
