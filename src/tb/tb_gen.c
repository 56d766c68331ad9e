/* tb_gen.c - the retrograde generator: rounds of passes, the rule between them (see tb_gen.h). */
#include "tb_gen.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileload.h"
#include "base/platform.h"
#include "tb_rule.h"
#include "tb_unmove.h"

enum { GEN_FAIL = 0x10000 }; /* an entry's answer when a capture reaches no table: not an encoded value */

/* What a pass does to each entry. */
typedef enum Phase {
    PHASE_INIT,    /* pass 0: broken entries, no-move losses (and the un-move method's capture triggers) */
    PHASE_FORWARD, /* forward method: every unresolved entry tries to resolve */
    PHASE_MARK,    /* un-move method: mark the entries a pass may resolve */
    PHASE_SOLVE,   /* un-move method: the marked entries try to resolve */
} Phase;

/* A table being generated, with its working arrays (one element per entry). */
typedef struct Gen {
    TbTable *t;
    TbSet *set;
    const TbGenOptions *opt;
    int n; /* the pass: 0 = initialisation */
    Phase phase;
    uint16_t *trig;        /* un-moves: the pass that a capture schedules this entry for (0: none), see init_entry */
    _Atomic uint8_t *cand; /* a bit per entry: marked for the next solve phase (and the rule's passes) */
    char what[TB_SIG_TEXT + 32]; /* "KR-KH pass 5", for progress lines */
} Gen;

/* Resolves unresolved entry i (set up in s->pos) in pass n >= 1 if it can: its new value, TB_V_DRAW, or
 * GEN_FAIL. An entry whose moves all reach wins, the longest beyond n-1, is scheduled (un-move method) for
 * the pass that will resolve it. */
static unsigned solve_entry(Gen *g, uint64_t i, TbScratch *s)
{
    Position *pos = &s->pos;
    const int count = gen_legal(pos, s->moves), n = g->n;
    int longest = -1;
    bool all_win = true, any_rule = false, win = false;
    for (int k = 0; k < count; k++) {
        pos_make(pos, s->moves[k]);
        unsigned c = tb_child_value(g->t, g->set, pos);
        pos_unmake(pos);
        if (c == TB_V_BROKEN)
            return GEN_FAIL;
        TbValue v = tb_decode(c);
        if (v.wdl == TB_LOSS && v.dtm == n - 1) { /* a win at n: one without the rule if there is one */
            if (!v.rule)
                return tb_encode(n, false);
            win = true;
        }
        all_win &= v.wdl == TB_WIN;
        longest = v.dtm > longest ? v.dtm : longest;
        any_rule |= v.rule;
    }
    if (win)
        return tb_encode(n, true);
    if (!all_win || !count)
        return TB_V_DRAW;
    if (longest <= n - 1)
        return tb_encode(longest + 1, any_rule);
    if (g->trig && longest + 1 > g->trig[i]) /* every move wins, one beyond n-1: resolve at longest + 1 */
        g->trig[i] = (uint16_t)(longest + 1);
    return TB_V_DRAW;
}

/* Marks an entry for the solve phase (an un-move's callback; ctx is the Gen). */
static void mark(void *ctx, uint64_t idx) { tb_bit_set(((Gen *)ctx)->cand, idx); }

/* Pass 0 of entry i: broken, lost without a move, or unresolved (with its capture trigger); GEN_FAIL when a
 * capture reaches no table. The trigger (un-move method) is the pass a capture decides the entry in: with a
 * capture to a lost position, 1 + the shortest such loss (the entry is won by then at the latest); else, when
 * every capture reaches a won position, 1 + the longest such win (the entry may be lost then, if its other
 * moves have all reached wins by then: solve_entry moves the trigger later when one of them is longer). One
 * 16-bit number serves both: an entry with a capture to a loss is never lost. */
static unsigned init_entry(Gen *g, uint64_t i, TbScratch *s)
{
    Position *pos = &s->pos;
    if (!tb_setup(&g->t->layout, i, pos))
        return TB_V_BROKEN;
    int count = gen_legal(pos, s->moves);
    if (!count)
        return tb_encode(0, false);
    unsigned win = 0, loss = 0; /* 1 + the shortest capture to a loss, 1 + the longest capture to a win */
    bool all_win = true;        /* every capture reaches a win */
    for (int k = 0; g->trig && k < count; k++) {
        if (!pos->board[move_to(s->moves[k])])
            continue;
        pos_make(pos, s->moves[k]);
        unsigned c = tb_child_value(g->t, g->set, pos);
        pos_unmake(pos);
        if (c == TB_V_BROKEN)
            return GEN_FAIL;
        TbValue v = tb_decode(c);
        unsigned trigger = (unsigned)v.dtm + 1;
        if (v.wdl == TB_LOSS && (!win || trigger < win))
            win = trigger;
        if (v.wdl == TB_WIN && trigger > loss)
            loss = trigger;
        all_win &= v.wdl == TB_WIN;
    }
    if (g->trig)
        g->trig[i] = (uint16_t)(win ? win : all_win ? loss : 0);
    return TB_V_DRAW;
}

/* Mark phase of entry i: the positions before one of distance n-1 may resolve in pass n, and so may the
 * entries a capture or solve_entry scheduled for pass n. */
static void mark_entry(Gen *g, uint64_t i, TbScratch *s)
{
    unsigned v = tb_get(g->t, i);
    if (v != TB_V_DRAW && v != TB_V_BROKEN && (int)(v & TB_V_DIST) == g->n && tb_setup(&g->t->layout, i, &s->pos))
        tb_unmoves(&g->t->layout, &s->pos, mark, g);
    if (g->trig[i] == g->n)
        mark(g, i);
}

/* The new value of entry i in a pass n >= 1 (TB_V_DRAW: unchanged; GEN_FAIL). */
static unsigned pass_entry(Gen *g, uint64_t i, TbScratch *s)
{
    if (g->phase == PHASE_SOLVE && !tb_bit_take(g->cand, i))
        return TB_V_DRAW;
    if (tb_get(g->t, i) != TB_V_DRAW || !tb_setup(&g->t->layout, i, &s->pos))
        return TB_V_DRAW;
    return solve_entry(g, i, s);
}

/* A chunk of a pass (a TbChunkFn; ctx: the Gen): returns the entries resolved, or -1. */
static int64_t gen_chunk(void *ctx, uint64_t lo, uint64_t hi, TbScratch *s)
{
    Gen *g = ctx;
    int64_t found = 0;
    for (uint64_t i = lo; i < hi; i++) {
        unsigned v;
        if (g->phase == PHASE_MARK) {
            mark_entry(g, i, s);
            continue;
        }
        v = g->phase == PHASE_INIT ? init_entry(g, i, s) : pass_entry(g, i, s);
        if (v == GEN_FAIL)
            return -1;
        if (v != TB_V_DRAW) {
            atomic_store_explicit(&g->t->val[i], (uint16_t)v, memory_order_relaxed);
            found += v != TB_V_BROKEN;
        }
    }
    return found;
}

/* Runs one phase of pass n; returns the entries resolved or -1. */
static int64_t run_phase(Gen *g, int n, Phase phase)
{
    g->n = n;
    g->phase = phase;
    snprintf(g->what, sizeof g->what, "%s pass %d", g->t->name, n);
    TbWork w = { .size = g->t->layout.size,
                 .threads = g->opt->threads,
                 .fn = gen_chunk,
                 .ctx = g,
                 .progress = g->opt->progress,
                 .what = g->what };
    return tb_work_run(&w);
}

/* Runs passes first, first + 1, ... of a round until one finds nothing beyond `bound` (the longest distance
 * a child can have so far) + 1; false on failure. */
static bool run_round(Gen *g, int first, int bound, int64_t t0)
{
    for (int n = first; n <= TB_DTM_MAX; n++) {
        int64_t found = g->trig ? run_phase(g, n, PHASE_MARK) : 0;
        if (found >= 0)
            found = run_phase(g, n, g->trig ? PHASE_SOLVE : PHASE_FORWARD);
        if (found < 0)
            return false;
        g->t->passes++;
        if (g->opt->progress && found)
            fprintf(g->opt->progress, "%s pass %d: %" PRId64 " resolved at distance %d, %.1f s\n", g->t->name, n, found,
                    n, (now_ms() - t0) / 1000.0);
        if (!found && n > bound + 1)
            return true;
    }
    return true;
}

/* Calls fn for each signature one capture from sig leads to that still has an attacking piece (canonical). */
static bool for_each_sub(const TbSig *sig, bool (*fn)(void *, const TbSig *), void *ctx)
{
    for (int side = RED; side <= BLACK; side++)
        for (int type = ADVISOR; type < PIECE_TYPES; type++) {
            if (!sig->count[side][type])
                continue;
            TbSig sub = *sig;
            sub.count[side][type]--;
            if (!tb_sig_attackers(&sub, RED) && !tb_sig_attackers(&sub, BLACK))
                continue;
            sub = tb_sig_canonical(&sub);
            if (!fn(ctx, &sub))
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

/* The longest distance an entry of the table holds so far. */
static int longest_in(const TbTable *t)
{
    int longest = 0;
    for (uint64_t i = 0; i < t->layout.size; i++) {
        unsigned v = tb_get(t, i);
        if (v != TB_V_DRAW && v != TB_V_BROKEN && (int)(v & TB_V_DIST) - 1 > longest)
            longest = (int)(v & TB_V_DIST) - 1;
    }
    return longest;
}

/* Frees a Gen's working arrays. */
static void free_arrays(Gen *g)
{
    free(g->trig);
    free((void *)g->cand);
    g->trig = NULL;
    g->cand = NULL;
}

/* The perpetual-check rule between two rounds: the seeds of both winners; returns how many, or -1 on failure.
 * Its region states (a byte per entry) take the memory of the triggers, which are all spent when a round ends
 * (every trigger names a pass the round has run) and come back zeroed for the next round. */
static int64_t rule_phase(Gen *g, TbRuleCtx *rule)
{
    const size_t entries = (size_t)g->t->layout.size;
    free(g->trig);
    g->trig = NULL;
    rule->reg = calloc(entries, sizeof *rule->reg);
    int64_t red = rule->reg ? tb_rule_seeds(rule, RED) : -1, black = red < 0 ? -1 : tb_rule_seeds(rule, BLACK);
    free((void *)rule->reg);
    rule->reg = NULL;
    if (!g->opt->forward && (g->trig = calloc(entries, sizeof *g->trig)) == NULL)
        return -1;
    return red < 0 || black < 0 ? -1 : red + black;
}

/* Rounds of passes and the rule until a round's rule finds no seed; false on failure. */
static bool solve_rounds(Gen *g, int64_t t0)
{
    const int below = longest_below(g->set, &g->t->layout.sig);
    if (run_phase(g, 0, PHASE_INIT) < 0)
        return false;
    g->t->passes = 1;
    TbRuleCtx rule = {
        .t = g->t, .set = g->set, .threads = g->opt->threads, .progress = g->opt->progress, .cand = g->cand
    };
    for (int first = 1, bound = below;;) {
        if (!run_round(g, first, bound, t0))
            return false;
        if (g->opt->no_rule)
            return true;
        const int in = longest_in(g->t), top = in > below ? in : below;
        rule.base = top + 1 + ((top + 1) & 1); /* even (a loss), beyond every distance so far */
        if (rule.base > TB_DTM_MAX)
            return false;
        int64_t seeds = rule_phase(g, &rule);
        if (seeds <= 0)
            return seeds == 0;
        g->t->rounds++;
        first = rule.base + 1; /* the round's passes: from the seeds on, until one finds nothing */
        bound = rule.base - 1;
    }
}

/* Bytes of working memory per 8 entries, at the peak: the entries (2 bytes each) and the marks (a bit each)
 * throughout, and either the triggers (un-moves: 2 bytes each) in the passes or the rule's region states
 * (a byte each) between rounds. */
static unsigned bytes_per_8_entries(bool forward) { return 8 * 2 + 1 + (forward ? 8 * 1 : 8 * 2); }

/* Solves one table (sig canonical) whose sub-tables are all in the set; NULL with err filled. */
TbTable *tb_gen_solve(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err)
{
    Gen g = { .t = tb_table_new(sig), .set = set, .opt = opt };
    char name[TB_SIG_TEXT];
    tb_sig_name(sig, name, sizeof name);
    size_t entries = g.t ? (size_t)g.t->layout.size : 0;
    if (g.t) {
        g.cand = calloc(tb_bits_bytes(entries), 1);
        if (!opt->forward)
            g.trig = calloc(entries, sizeof *g.trig);
    }
    if (!g.t || !g.cand || (!opt->forward && !g.trig)) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", name);
        tb_table_free(g.t);
        free_arrays(&g);
        return NULL;
    }
    if (opt->progress) {
        unsigned per8 = bytes_per_8_entries(opt->forward);
        fprintf(opt->progress,
                "%s: %" PRIu64 " entries, %" PRIu64 " bytes of memory at most (%.3f per entry), %d thread(s), %s\n",
                name, g.t->layout.size, g.t->layout.size * per8 / 8, per8 / 8.0, opt->threads,
                opt->forward ? "forward passes" : "un-move passes");
        fflush(opt->progress);
    }
    int64_t t0 = now_ms();
    bool ok = solve_rounds(&g, t0);
    free_arrays(&g);
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "%s: a capture leads to a table the set lacks, or memory is short", name);
        tb_table_free(g.t);
        return NULL;
    }
    tb_table_count(g.t);
    if (opt->progress) {
        int64_t ms = now_ms() - t0;
        fprintf(opt->progress, "%s: done in %.1f s, %.0f positions/s, %d rule round(s)\n", name, ms / 1000.0,
                ms > 0 ? g.t->stats.positions * 1000.0 / ms : 0.0, g.t->rounds);
    }
    return g.t;
}

/* Is the table of sig in the set, or loaded now from its directory? A file there that is refused (an old
 * version, a damaged file) is generated anew, with a line on the progress stream. */
static bool have_table(TbSet *set, const TbSig *sig, FILE *progress)
{
    char name[TB_SIG_TEXT], path[TB_PATH_MAX];
    XqError err;
    if (tb_set_find(set, sig))
        return true;
    if (!tb_file_path(set->dir, tb_sig_name(sig, name, sizeof name), path, sizeof path)
        || !file_is_regular(path, SIZE_MAX, &err))
        return false;
    if (tb_set_table(set, sig, &err))
        return true;
    if (progress)
        fprintf(progress, "%s; generating it anew\n", err.msg);
    return false;
}

typedef struct BuildCtx {
    TbSet *set;
    const TbGenOptions *opt;
    XqError *err;
} BuildCtx;

static bool build_sub(void *ctx, const TbSig *sub);

/* Generates the table of sig and every table a capture leads to that the set lacks (a file already in the
 * directory is loaded instead); false with err filled. */
bool tb_gen_build(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err)
{
    const char *why = tb_sig_unsupported(sig);
    char name[TB_SIG_TEXT], path[TB_PATH_MAX];
    if (why) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", tb_sig_name(sig, name, sizeof name), why);
        return false;
    }
    TbSig canon = tb_sig_canonical(sig);
    if (have_table(set, &canon, opt->progress))
        return true;
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
    if (opt->write && opt->reload) { /* the compressed file instead of 2 bytes an entry */
        TbTable *f = tb_file_read(path, err);
        tb_table_free(t);
        if (!f)
            return false;
        t = f;
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
