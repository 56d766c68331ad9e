/* tb_gen.c - the retrograde generator: passes over the entries, threads, progress (see tb_gen.h). */
#include "tb_gen.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "platform.h"

enum { CHUNK = 4096, PROGRESS_MS = 1000 };

/* The shared state of one pass. */
typedef struct Pass {
    TbTable *t;
    TbSet *set;
    int n;                        /* pass number: 0 = initialisation */
    atomic_uint_fast64_t next;    /* first entry of the next chunk */
    atomic_uint_fast64_t found;   /* entries resolved in this pass */
    atomic_int failed;            /* a child was not found in any table */
    FILE *progress;
    int64_t start_ms, last_ms;    /* the pass's start and its last progress line (thread 0 only) */
} Pass;

/* The value of the position after a capture, from the set (encoded); TB_V_BROKEN if no table answers. */
static unsigned child_from_set(Pass *p, Position *pos)
{
    TbValue r;
    XqError e;
    if (!tb_probe(p->set, pos, &r, &e))
        return TB_V_BROKEN;
    return r.wdl == TB_DRAW ? TB_V_DRAW : tb_encode_dtm(r.dtm);
}

/* Resolves entry idx in pass n >= 1 if it can; returns its new value or TB_V_DRAW. */
static unsigned solve_entry(Pass *p, Position *pos, Move *moves)
{
    int count = gen_legal(pos, moves), longest = -1;
    bool all_win = true;
    for (int i = 0; i < count; i++) {
        pos_make(pos, moves[i]);
        unsigned c = pos->hist[pos->ply - 1].captured ? child_from_set(p, pos)
                                                      : tb_get(p->t, tb_index_of(&p->t->layout, pos, false));
        pos_unmake(pos);
        if (c == TB_V_BROKEN) {
            atomic_store(&p->failed, 1);
            return TB_V_DRAW;
        }
        TbValue v = tb_decode(c);
        if (v.wdl == TB_LOSS && v.dtm == p->n - 1)
            return tb_encode_dtm(p->n);
        if (v.wdl != TB_WIN || v.dtm > p->n - 1)
            all_win = false;
        else if (v.dtm > longest)
            longest = v.dtm;
    }
    return all_win && count ? tb_encode_dtm(longest + 1) : TB_V_DRAW;
}

/* Prints the pass's progress (rate and the pass's ETA) when a second has passed since the last line. */
static void report(Pass *p, uint64_t done)
{
    int64_t now = now_ms();
    if (!p->progress || now - p->last_ms < PROGRESS_MS)
        return;
    p->last_ms = now;
    double secs = (now - p->start_ms) / 1000.0, rate = secs > 0 ? done / secs : 0;
    double eta = rate > 0 ? (p->t->layout.size - done) / rate : 0;
    fprintf(p->progress, "%s pass %d: %.0f%%, %.0f positions/s, pass ETA %.0f s\n", p->t->name, p->n,
            100.0 * done / p->t->layout.size, rate, eta);
    fflush(p->progress);
}

/* One thread's share of a pass: chunks of entries until none is left. */
static void *pass_worker(void *arg)
{
    Pass *p = ((void **)arg)[0];
    bool first = ((void **)arg)[1] != NULL;
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        atomic_store(&p->failed, 1);
        return NULL;
    }
    Move moves[MAX_MOVES];
    uint64_t size = p->t->layout.size, found = 0;
    for (;;) {
        uint64_t lo = atomic_fetch_add(&p->next, CHUNK);
        if (lo >= size || atomic_load(&p->failed))
            break;
        uint64_t hi = lo + CHUNK < size ? lo + CHUNK : size;
        for (uint64_t i = lo; i < hi; i++) {
            unsigned v;
            if (p->n == 0)
                v = !tb_setup(&p->t->layout, i, pos) ? TB_V_BROKEN : count_legal(pos) ? TB_V_DRAW : tb_encode_dtm(0);
            else if (tb_get(p->t, i) != TB_V_DRAW || !tb_setup(&p->t->layout, i, pos))
                continue;
            else
                v = solve_entry(p, pos, moves);
            if (v != TB_V_DRAW) {
                atomic_store_explicit(&p->t->val[i], (uint16_t)v, memory_order_relaxed);
                found += v != TB_V_BROKEN;
            }
        }
        if (first)
            report(p, hi);
    }
    atomic_fetch_add(&p->found, found);
    free(pos);
    return NULL;
}

/* Runs pass n on opt->threads threads (the caller's one among them); returns the entries resolved or -1. */
static int64_t run_pass(TbTable *t, TbSet *set, int n, const TbGenOptions *opt)
{
    Pass p = { .t = t, .set = set, .n = n, .progress = opt->progress };
    atomic_init(&p.next, 0);
    atomic_init(&p.found, 0);
    atomic_init(&p.failed, 0);
    p.start_ms = p.last_ms = now_ms();
    int threads = opt->threads < 1 ? 1 : opt->threads > TB_THREADS_MAX ? TB_THREADS_MAX : opt->threads;
    pthread_t tid[TB_THREADS_MAX];
    void *args[TB_THREADS_MAX][2];
    int started = 0;
    for (int i = 1; i < threads; i++) {
        args[i][0] = &p;
        args[i][1] = NULL;
        if (pthread_create(&tid[started + 1], NULL, pass_worker, args[i]) == 0)
            started++;
    }
    args[0][0] = &p;
    args[0][1] = &p;
    pass_worker(args[0]);
    for (int i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
    return atomic_load(&p.failed) ? -1 : (int64_t)atomic_load(&p.found);
}

/* Calls fn for each signature one capture from sig leads to that still has an attacking piece. */
static bool for_each_sub(const TbSig *sig, bool (*fn)(void *, const TbSig *), void *ctx)
{
    for (int side = RED; side <= BLACK; side++)
        for (int type = ADVISOR; type < PIECE_TYPES; type++) {
            if (!sig->count[side][type])
                continue;
            TbSig sub = *sig;
            sub.count[side][type]--;
            if (tb_sig_attackers(&sub, RED) && !fn(ctx, &sub))
                return false;
        }
    return true;
}

/* The longest distance of sig's sub-tables so far (ctx: {set, int *longest}). */
static bool note_longest(void *ctx, const TbSig *sub)
{
    void **c = ctx;
    const TbTable *t = tb_set_find(c[0], sub);
    int *longest = c[1];
    if (t) {
        int m = (int)(t->stats.longest_win > t->stats.longest_loss ? t->stats.longest_win : t->stats.longest_loss);
        *longest = m > *longest ? m : *longest;
    }
    return true;
}

/* The longest distance a capture from sig can reach (its sub-tables' longest win or loss). */
static int longest_below(TbSet *set, const TbSig *sig)
{
    int longest = 0;
    void *ctx[2] = { set, &longest };
    for_each_sub(sig, note_longest, ctx);
    return longest;
}

/* Solves one table whose sub-tables are all in the set; NULL with err filled. */
TbTable *tb_gen_solve(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err)
{
    TbTable *t = tb_table_new(sig);
    char name[TB_SIG_TEXT];
    tb_sig_name(sig, name, sizeof name);
    if (!t) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", name);
        return NULL;
    }
    if (opt->progress) {
        fprintf(opt->progress, "%s: %" PRIu64 " entries, %" PRIu64 " bytes of memory (2 per entry), %d thread(s)\n",
                name, t->layout.size, t->layout.size * (uint64_t)sizeof *t->val, opt->threads);
        fflush(opt->progress);
    }
    int64_t t0 = now_ms();
    int below = longest_below(set, sig);
    for (int n = 0; n <= TB_DTM_MAX; n++) {
        int64_t found = run_pass(t, set, n, opt);
        t->passes = n + 1;
        if (found < 0) {
            snprintf(err->msg, sizeof err->msg, "%s: a capture leads to a table the set lacks, or memory is short", name);
            tb_table_free(t);
            return NULL;
        }
        if (opt->progress && n > 0 && found)
            fprintf(opt->progress, "%s pass %d: %" PRId64 " resolved at DTM %d, %.1f s\n", name, n, found, n,
                    (now_ms() - t0) / 1000.0);
        if (n > 0 && !found && n > below + 1)
            break;
    }
    tb_table_count(t);
    if (opt->progress) {
        int64_t ms = now_ms() - t0;
        fprintf(opt->progress, "%s: done in %.1f s, %.0f positions/s\n", name, ms / 1000.0,
                ms > 0 ? t->stats.positions * 1000.0 / ms : 0.0);
    }
    return t;
}

/* Is the table of sig in the set, or loaded now from its directory? -1 (err filled) if its file is refused. */
static int have_table(TbSet *set, const TbSig *sig, XqError *err)
{
    char name[TB_SIG_TEXT], path[TB_PATH_MAX];
    if (tb_set_find(set, sig))
        return 1;
    if (!tb_file_path(set->dir, tb_sig_name(sig, name, sizeof name), path, sizeof path))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return tb_set_table(set, sig, err) ? 1 : -1;
}

typedef struct BuildCtx {
    TbSet *set;
    const TbGenOptions *opt;
    XqError *err;
} BuildCtx;

static bool build_sub(void *ctx, const TbSig *sub);

/* Generates the table of sig and every table a capture leads to that the set lacks; false with err filled. */
bool tb_gen_build(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err)
{
    const char *why = tb_sig_unsupported(sig);
    char name[TB_SIG_TEXT], path[TB_PATH_MAX];
    if (why) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", tb_sig_name(sig, name, sizeof name), why);
        return false;
    }
    TbSig canon = tb_sig_canonical(sig);
    int have = have_table(set, &canon, err);
    if (have)
        return have > 0;
    BuildCtx ctx = { set, opt, err };
    if (!for_each_sub(&canon, build_sub, &ctx))
        return false;
    TbTable *t = tb_gen_solve(set, &canon, opt, err);
    if (!t)
        return false;
    if (opt->write && (!tb_file_path(set->dir, t->name, path, sizeof path) || !tb_file_write(t, path, err))) {
        tb_table_free(t);
        return false;
    }
    if (!tb_set_add(set, t)) {
        snprintf(err->msg, sizeof err->msg, "too many tables in one run (at most %d)", TB_SET_MAX);
        tb_table_free(t);
        return false;
    }
    return true;
}

/* Builds one sub-table for tb_gen_build (ctx: a BuildCtx). */
static bool build_sub(void *ctx, const TbSig *sub)
{
    BuildCtx *c = ctx;
    return tb_gen_build(c->set, sub, c->opt, c->err);
}
