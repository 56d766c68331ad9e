/* bench.c - deterministic search benchmark over a compiled-in position list. */
#include "bench.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench_fens.h"
#include "move.h"
#include "platform.h"
#include "rules.h"
#include "search.h"

enum { BENCH_MAX_DEPTH = 30 };

/* Searches each position at fixed depth, 1 thread, fresh table and history per position. */
uint64_t bench_run(int depth, const Network *net, FILE *out)
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
        search_shared_init(&shared, &tt, &limits, rules_default(), NULL, NULL);
        shared.net = net;
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
    *file_net = malloc(sizeof **file_net);
    if (!*file_net || !nnue_load_file(*file_net, arg, &e)) {
        fprintf(err, "error: %s\n", *file_net ? e.msg : "out of memory");
        return false;
    }
    *net = *file_net;
    return true;
}

/* bench [depth] [-eval hce|nnue|FILE]: argv[0] is "bench". */
int cli_bench(int argc, char **argv, FILE *out, FILE *err)
{
    int depth = BENCH_DEFAULT_DEPTH;
    const Network *net = nnue_default();
    Network *file_net = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-eval") == 0 && i + 1 < argc) {
            if (!bench_eval(argv[++i], &file_net, &net, err)) {
                free(file_net);
                return 2;
            }
            continue;
        }
        char *end;
        long d = strtol(argv[i], &end, 10);
        if (*end || end == argv[i] || d < 1 || d > BENCH_MAX_DEPTH) {
            fprintf(err, "error: bench depth must be a number from 1 to %d (usage: bench [DEPTH] [-eval hce|nnue|FILE])\n",
                    BENCH_MAX_DEPTH);
            free(file_net);
            return 2;
        }
        depth = (int)d;
    }
    fprintf(out, "Evaluation: %s%s\n", net ? "network " : "hand-crafted", net ? net->desc : "");
    int64_t t0 = now_ms();
    uint64_t nodes = bench_run(depth, net, out);
    int64_t ms = now_ms() - t0;
    free(file_net);
    if (!nodes) {
        fprintf(err, "error: bench could not allocate its tables\n");
        return 1;
    }
    fprintf(out, "\nTotal time (ms): %" PRId64 "\nNodes searched: %" PRIu64 "\nNodes/second: %" PRIu64 "\n", ms, nodes,
            (uint64_t)(ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes));
    return 0;
}
