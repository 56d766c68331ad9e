/* bench.c - deterministic search benchmark over a compiled-in position list. */
#include "bench.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench_fens.h"
#include "base/fileload.h"
#include "board/move.h"
#include "base/platform.h"
#include "rules/rules.h"
#include "search/search.h"
#include "search/threadpool.h"

enum { BENCH_MAX_DEPTH = 30, BENCH_MAX_MOVETIME = 3600000 };

/* Searches each position to a fixed depth (or for a fixed time), fresh table and histories per position. */
uint64_t bench_run(const BenchConfig *cfg, FILE *out)
{
    const int n = (int)(sizeof BENCH_FENS / sizeof *BENCH_FENS);
    ThreadPool *pool = pool_new();
    Position *pos = malloc(sizeof *pos);
    TT tt = { 0 };
    uint64_t total = 0;
    if (!pool || !pos || !tt_resize(&tt, BENCH_HASH_MB)) {
        total = 0;
        goto done;
    }
    if (pool_resize(pool, cfg->threads) != cfg->threads)
        fprintf(out, "only %d threads could be started\n", pool_size(pool));
    for (int i = 0; i < n; i++) {
        XqError err;
        if (!pos_from_fen(pos, BENCH_FENS[i], &err)) {
            fprintf(out, "bench position %d rejected: %s\n", i + 1, err.msg);
            continue;
        }
        tt_clear(&tt);
        pool_clear(pool);
        SearchLimits limits = { 0 };
        limits.depth = cfg->depth;
        limits.hard_ms = cfg->movetime_ms;
        SearchShared shared;
        atomic_init(&shared.pondering, false);
        search_shared_init(&shared, &tt, &limits, rules_default(), NULL, NULL);
        shared.net = cfg->net;
        SearchResult res;
        pool_search(pool, &shared, pos, &res);
        char text[MOVE_TEXT];
        fprintf(out, "Position %d/%d: bestmove %s score %d depth %d nodes %" PRIu64 "\n", i + 1, n,
                move_to_text(res.best, text), res.score, res.depth, res.nodes);
        total += res.nodes;
    }
done:
    tt_free(&tt);
    free(pos);
    pool_free(pool);
    return total;
}

/* Picks the bench's evaluation from an -eval argument: hce, nnue (the built-in net) or a net file. */
static bool bench_eval(const char *arg, Network **file_net, const Network **net, FILE *err)
{
    XqError e;
    if (strcmp(arg, "hce") == 0) {
        *net = NULL;
        return true;
    }
    if (strcmp(arg, "nnue") == 0) {
        *net = nnue_default();
        if (!*net)
            fprintf(err, "error: this build has no built-in net (use -eval FILE)\n");
        return *net != NULL;
    }
    char exe_dir[FILE_NAME_MAX];
    if (!platform_exe_dir(exe_dir, sizeof exe_dir))
        exe_dir[0] = '\0';
    *file_net = nnue_load_file(arg, exe_dir, &e);
    if (!*file_net) {
        fprintf(err, "error: %s\n", e.msg);
        return false;
    }
    *net = *file_net;
    return true;
}

/* Reads a whole number in [min, max] from text; false if it is not one. */
static bool bench_number(const char *text, long min, long max, long *v)
{
    char *end;
    *v = strtol(text, &end, 10);
    return !*end && end != text && *v >= min && *v <= max;
}

#define BENCH_USAGE "usage: bench [DEPTH [THREADS]] [-movetime MS] [-eval hce|nnue|FILE]"

/* bench [depth [threads]] [-movetime ms] [-eval hce|nnue|FILE]: argv[0] is "bench". */
int cli_bench(int argc, char **argv, FILE *out, FILE *err)
{
    BenchConfig cfg = { BENCH_DEFAULT_DEPTH, 1, 0, nnue_default() };
    Network *file_net = NULL;
    int numbers = 0;
    for (int i = 1; i < argc; i++) {
        long v = 0;
        bool ok = true;
        if (strcmp(argv[i], "-eval") == 0 && i + 1 < argc) {
            if (!bench_eval(argv[++i], &file_net, &cfg.net, err)) {
                nnue_net_free(file_net);
                return 2;
            }
        } else if (strcmp(argv[i], "-movetime") == 0 && i + 1 < argc) {
            ok = bench_number(argv[++i], 1, BENCH_MAX_MOVETIME, &v);
            cfg.movetime_ms = v;
            if (!ok)
                fprintf(err, "error: -movetime must be a number of ms from 1 to %d (" BENCH_USAGE ")\n",
                        BENCH_MAX_MOVETIME);
        } else if (numbers == 0) {
            ok = bench_number(argv[i], 1, BENCH_MAX_DEPTH, &v);
            cfg.depth = (int)v;
            numbers++;
            if (!ok)
                fprintf(err, "error: bench depth must be a number from 1 to %d (" BENCH_USAGE ")\n", BENCH_MAX_DEPTH);
        } else if (numbers == 1) {
            ok = bench_number(argv[i], 1, POOL_MAX_THREADS, &v);
            cfg.threads = (int)v;
            numbers++;
            if (!ok)
                fprintf(err, "error: bench threads must be a number from 1 to %d (" BENCH_USAGE ")\n",
                        POOL_MAX_THREADS);
        } else {
            ok = false;
            fprintf(err, "error: unexpected '%s' (" BENCH_USAGE ")\n", argv[i]);
        }
        if (!ok) {
            nnue_net_free(file_net);
            return 2;
        }
    }
    const Network *net = cfg.net;
    fprintf(out, "Evaluation: %s%s\nThreads: %d\n", net ? "network " : "hand-crafted", net ? net->desc : "",
            cfg.threads);
    int64_t t0 = now_ms();
    uint64_t nodes = bench_run(&cfg, out);
    int64_t ms = now_ms() - t0;
    nnue_net_free(file_net);
    if (!nodes) {
        fprintf(err, "error: bench could not allocate its tables\n");
        return 1;
    }
    fprintf(out, "\nTotal time (ms): %" PRId64 "\nNodes searched: %" PRIu64 "\nNodes/second: %" PRIu64 "\n", ms, nodes,
            (uint64_t)(ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes));
    return 0;
}
