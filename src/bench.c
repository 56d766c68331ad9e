/* bench.c - deterministic search benchmark over a compiled-in position list. */
#include "bench.h"

#include <inttypes.h>
#include <stdlib.h>

#include "bench_fens.h"
#include "move.h"
#include "platform.h"
#include "search.h"

enum { BENCH_MAX_DEPTH = 30 };

/* Searches each position at fixed depth, 1 thread, fresh table and history per position. */
uint64_t bench_run(int depth, FILE *out)
{
    const int n = (int)(sizeof BENCH_FENS / sizeof *BENCH_FENS);
    SearchThread *st = search_thread_new();
    Position *pos = malloc(sizeof *pos);
    TT tt = { 0 };
    uint64_t total = 0;
    if (!st || !pos || !tt_resize(&tt, BENCH_HASH_MB)) {
        total = 0;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        XqError err;
        if (!pos_from_fen(pos, BENCH_FENS[i], &err)) {
            fprintf(out, "bench position %d rejected: %s\n", i + 1, err.msg);
            continue;
        }
        tt_clear(&tt);
        search_thread_clear(st);
        SearchLimits limits = { 0 };
        limits.depth = depth;
        SearchShared shared;
        atomic_init(&shared.pondering, false);
        search_shared_init(&shared, &tt, &limits, 0, NULL, NULL);
        SearchResult res;
        search_run(st, &shared, pos, &res);
        char text[MOVE_TEXT];
        fprintf(out, "Position %d/%d: bestmove %s score %d nodes %" PRIu64 "\n", i + 1, n,
                move_to_text(res.best, text), res.score, res.nodes);
        total += res.nodes;
    }
done:
    tt_free(&tt);
    free(pos);
    search_thread_free(st);
    return total;
}

/* bench [depth]: argv[0] is "bench". */
int cli_bench(int argc, char **argv, FILE *out, FILE *err)
{
    int depth = BENCH_DEFAULT_DEPTH;
    if (argc > 1) {
        char *end;
        long d = strtol(argv[1], &end, 10);
        if (*end || end == argv[1] || d < 1 || d > BENCH_MAX_DEPTH) {
            fprintf(err, "error: bench depth must be a number from 1 to %d\n", BENCH_MAX_DEPTH);
            return 2;
        }
        depth = (int)d;
    }
    int64_t t0 = now_ms();
    uint64_t nodes = bench_run(depth, out);
    int64_t ms = now_ms() - t0;
    if (!nodes) {
        fprintf(err, "error: bench could not allocate its tables\n");
        return 1;
    }
    fprintf(out, "\nTotal time (ms): %" PRId64 "\nNodes searched: %" PRIu64 "\nNodes/second: %" PRIu64 "\n", ms, nodes,
            (uint64_t)(ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes));
    return 0;
}
