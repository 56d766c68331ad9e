/* tb_gen.c - the retrograde generator: passes over the entries, threads, progress (see tb_gen.h). */
#include "tb_gen.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "base/platform.h"
#include "tb_unmove.h"

enum { CHUNK = 4096, PROGRESS_MS = 1000 };

/* What a pass does to each entry. */
typedef enum Phase {
    PHASE_INIT,    /* pass 0: broken entries, no-move losses (and the un-move method's capture triggers) */
    PHASE_FORWARD, /* forward method: every unresolved entry tries to resolve */
    PHASE_MARK,    /* un-move method: mark the entries a pass may resolve */
    PHASE_SOLVE,   /* un-move method: the marked entries try to resolve */
} Phase;

/* The un-move method's arrays, one element per entry. */
typedef struct Aux {
    uint16_t *t_win;      /* the pass a capture to a lost position resolves this entry as won (0: none) */
    uint16_t *t_loss;     /* the pass after the longest capture to a won position (0: none) */
    _Atomic uint8_t *cand; /* marked for this pass's solve phase */
} Aux;

/* The shared state of one pass. */
typedef struct Pass {
    TbTable *t;
    TbSet *set;
    int n;                        /* pass number: 0 = initialisation */
    Phase phase;
    Aux *aux;                     /* NULL for the forward method */
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

/* Marks an entry for the solve phase (an un-move's callback; ctx is the Pass). */
static void mark(void *ctx, uint64_t idx)
{
    atomic_store_explicit(&((Pass *)ctx)->aux->cand[idx], 1, memory_order_relaxed);
}

/* Pass 0 of entry i: broken, lost without a move, or unresolved (with its capture triggers). */
static unsigned init_entry(Pass *p, uint64_t i, Position *pos, Move *moves)
{
    if (!tb_setup(&p->t->layout, i, pos))
        return TB_V_BROKEN;
    int count = gen_legal(pos, moves);
    if (!count)
        return tb_encode_dtm(0);
    for (int k = 0; p->aux && k < count; k++) {
        if (!pos->board[move_to(moves[k])])
            continue;
        pos_make(pos, moves[k]);
        unsigned c = child_from_set(p, pos);
        pos_unmake(pos);
        if (c == TB_V_BROKEN) {
            atomic_store(&p->failed, 1);
            return TB_V_DRAW;
        }
        TbValue v = tb_decode(c);
        unsigned trigger = (unsigned)v.dtm + 1;
        if (v.wdl == TB_LOSS && (!p->aux->t_win[i] || trigger < p->aux->t_win[i]))
            p->aux->t_win[i] = (uint16_t)trigger;
        if (v.wdl == TB_WIN && trigger > p->aux->t_loss[i])
            p->aux->t_loss[i] = (uint16_t)trigger;
    }
    return TB_V_DRAW;
}

/* Mark phase of entry i: the positions before one resolved last pass, and the entries a capture
 * triggers now, may resolve in this pass. */
static void mark_entry(Pass *p, uint64_t i, Position *pos)
{
    if (tb_get(p->t, i) == tb_encode_dtm(p->n - 1) && tb_setup(&p->t->layout, i, pos))
        tb_unmoves(&p->t->layout, pos, mark, p);
    if (p->aux->t_win[i] == p->n || p->aux->t_loss[i] == p->n)
        mark(p, i);
}

/* The new value of entry i in a pass n >= 1 (TB_V_DRAW: unchanged). */
static unsigned pass_entry(Pass *p, uint64_t i, Position *pos, Move *moves)
{
    if (p->phase == PHASE_SOLVE) {
        if (!atomic_load_explicit(&p->aux->cand[i], memory_order_relaxed))
            return TB_V_DRAW;
        atomic_store_explicit(&p->aux->cand[i], 0, memory_order_relaxed);
    }
    if (tb_get(p->t, i) != TB_V_DRAW || !tb_setup(&p->t->layout, i, pos))
        return TB_V_DRAW;
    return solve_entry(p, pos, moves);
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
            unsigned v = TB_V_DRAW;
            if (p->phase == PHASE_INIT)
                v = init_entry(p, i, pos, moves);
            else if (p->phase == PHASE_MARK)
                mark_entry(p, i, pos);
            else
                v = pass_entry(p, i, pos, moves);
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

/* Runs one phase of pass n on opt->threads threads (the caller's one among them); returns the entries
 * resolved or -1. */
static int64_t run_pass(TbTable *t, TbSet *set, int n, Phase phase, Aux *aux, const TbGenOptions *opt)
{
    Pass p = { .t = t, .set = set, .n = n, .phase = phase, .aux = aux, .progress = opt->progress };
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

/* Frees the un-move method's arrays. */
static void free_aux(Aux *aux)
{
    free(aux->t_win);
    free(aux->t_loss);
    free((void *)aux->cand);
}

/* Solves one table whose sub-tables are all in the set; NULL with err filled. */
TbTable *tb_gen_solve(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err)
{
    TbTable *t = tb_table_new(sig);
    char name[TB_SIG_TEXT];
    tb_sig_name(sig, name, sizeof name);
    Aux aux = { NULL, NULL, NULL }, *use = opt->forward ? NULL : &aux;
    size_t entries = t ? (size_t)t->layout.size : 0;
    if (t && use) {
        aux.t_win = calloc(entries, sizeof *aux.t_win);
        aux.t_loss = calloc(entries, sizeof *aux.t_loss);
        aux.cand = calloc(entries, sizeof *aux.cand);
    }
    if (!t || (use && (!aux.t_win || !aux.t_loss || !aux.cand))) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", name);
        tb_table_free(t);
        free_aux(&aux);
        return NULL;
    }
    unsigned per_entry = (unsigned)(sizeof *t->val + (use ? sizeof *aux.t_win + sizeof *aux.t_loss + sizeof *aux.cand : 0));
    if (opt->progress) {
        fprintf(opt->progress, "%s: %" PRIu64 " entries, %" PRIu64 " bytes of memory (%u per entry), %d thread(s), %s\n",
                name, t->layout.size, t->layout.size * per_entry, per_entry, opt->threads,
                use ? "un-move passes" : "forward passes");
        fflush(opt->progress);
    }
    int64_t t0 = now_ms();
    int below = longest_below(set, sig);
    for (int n = 0; n <= TB_DTM_MAX; n++) {
        int64_t found = n == 0 ? run_pass(t, set, n, PHASE_INIT, use, opt)
                      : !use ? run_pass(t, set, n, PHASE_FORWARD, use, opt)
                      : run_pass(t, set, n, PHASE_MARK, use, opt) < 0 ? -1 : run_pass(t, set, n, PHASE_SOLVE, use, opt);
        t->passes = n + 1;
        if (found < 0) {
            snprintf(err->msg, sizeof err->msg, "%s: a capture leads to a table the set lacks, or memory is short", name);
            tb_table_free(t);
            free_aux(&aux);
            return NULL;
        }
        if (opt->progress && n > 0 && found)
            fprintf(opt->progress, "%s pass %d: %" PRId64 " resolved at DTM %d, %.1f s\n", name, n, found, n,
                    (now_ms() - t0) / 1000.0);
        if (n > 0 && !found && n > below + 1)
            break;
    }
    free_aux(&aux);
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
