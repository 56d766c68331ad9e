/* tb_rule.c - the perpetual-check rule's regions and seeds in the generator (see tb_rule.h). */
#include "tb_rule.h"

#include <inttypes.h>

#include "base/platform.h"
#include "tb_unmove.h"

enum { FULL_PASS_RATIO = 8 }; /* a full pass replaces marks when more than 1/8 of Z has just left */

/* An entry's state in the region being computed. */
enum {
    REG_OUT,  /* not in the region */
    REG_IN,   /* in the region (Z) */
    REG_GONE, /* just removed from Z: its predecessors are to be looked at again */
    REG_HIT,  /* in the attractor R, its predecessors not yet marked */
    REG_HELD, /* in the attractor R, its predecessors marked */
};

/* What one pass does to each entry. */
typedef enum Step {
    STEP_INIT,      /* the candidates: unresolved, and in check when the winner is to move */
    STEP_SAFE_ALL,  /* every entry of Z that breaks the safety conditions leaves Z */
    STEP_SAFE_CAND, /* likewise, the marked entries only */
    STEP_MARK_GONE, /* mark the predecessors of the entries that left Z */
    STEP_DROP_GONE, /* the entries that left Z just leave (a full pass follows instead of marks) */
    STEP_TARGET,    /* the attractor's start: the entries of Z with the loser to move, not in check */
    STEP_MARK_HIT,  /* mark the predecessors of the entries the attractor took */
    STEP_ATTRACT,   /* marked entries of Z that the winner forces into R join R */
    STEP_NARROW,    /* Z := R (what R lacks leaves Z) */
    STEP_SEED,      /* the seeds: entries of Z with the loser to move, not in check */
} Step;

/* A pass's shared state. */
typedef struct Rule {
    TbRuleCtx *c;
    int winner;
    Step step;
} Rule;

/* The state of entry i. */
static unsigned reg_of(const Rule *r, uint64_t i) { return atomic_load_explicit(&r->c->reg[i], memory_order_relaxed); }

/* Sets the state of entry i. */
static void reg_set(const Rule *r, uint64_t i, unsigned state)
{
    atomic_store_explicit(&r->c->reg[i], (uint8_t)state, memory_order_relaxed);
}

/* Marks entry idx to be looked at in the next pass (an un-move's callback; ctx: the Rule). */
static void mark(void *ctx, uint64_t idx)
{
    tb_bit_set(((Rule *)ctx)->c->cand, idx);
}

/* Takes entry i's mark: was it marked? */
static bool take_mark(const Rule *r, uint64_t i)
{
    return tb_bit_take(r->c->cand, i);
}

/* The encoded value of the position after a move: a capture's from the set, else the table's entry. */
unsigned tb_child_value(const TbTable *t, TbSet *set, Position *pos)
{
    if (pos->hist[pos->ply - 1].captured) {
        TbValue v;
        XqError e;
        return tb_probe(set, pos, &v, &e) ? tb_encode_value(v) : TB_V_BROKEN;
    }
    uint64_t idx = tb_index_of(&t->layout, pos, false);
    return idx == TB_NO_INDEX ? TB_V_BROKEN : tb_get(t, idx);
}

/* Does the entry set up in s->pos meet the region's condition, a child counting as inside when its state
 * is in the bit mask `inside`? With the winner to move: a non-capture into the inside; with the loser to
 * move: every move into the inside or to a position already won for the winner. 1 yes, 0 no, -1 failure. */
static int holds(const Rule *r, TbScratch *s, unsigned inside)
{
    Position *pos = &s->pos;
    const TbTable *t = r->c->t;
    const bool winner_moves = pos->side == r->winner;
    const int n = gen_legal(pos, s->moves);
    for (int k = 0; k < n; k++) {
        const bool capture = pos->board[move_to(s->moves[k])] != EMPTY;
        if (winner_moves && capture) /* a capture to a win would have resolved the entry */
            continue;
        pos_make(pos, s->moves[k]);
        bool in = false;
        uint64_t idx = capture ? TB_NO_INDEX : tb_index_of(&t->layout, pos, false);
        if (idx != TB_NO_INDEX)
            in = (inside >> reg_of(r, idx)) & 1;
        if (!winner_moves && !in) {
            unsigned v = tb_child_value(t, r->c->set, pos);
            if (v == TB_V_BROKEN) {
                pos_unmake(pos);
                return -1;
            }
            in = tb_decode(v).wdl == TB_WIN;
        }
        pos_unmake(pos);
        if (winner_moves && in)
            return 1;
        if (!winner_moves && !in)
            return 0;
    }
    return winner_moves ? 0 : 1;
}

/* Does the step look at entry i in its state? (Cheap tests before a position is set up.) */
static bool wanted(const Rule *r, uint64_t i, unsigned state)
{
    switch (r->step) {
    case STEP_INIT:
        return true;
    case STEP_SAFE_ALL:
        return state == REG_IN;
    case STEP_SAFE_CAND:
        return take_mark(r, i) && state == REG_IN;
    case STEP_MARK_GONE:
    case STEP_DROP_GONE:
        return state == REG_GONE;
    case STEP_TARGET:
    case STEP_SEED:
        return state == REG_IN;
    case STEP_MARK_HIT:
        return state == REG_HIT;
    case STEP_ATTRACT:
        return take_mark(r, i) && state == REG_IN;
    case STEP_NARROW:
        return state == REG_IN || state == REG_HELD;
    }
    return false;
}

/* One entry of a step, its position set up in s->pos; returns 1 if it counts, 0 if not, -1 on failure. */
static int step_entry(Rule *r, uint64_t i, TbScratch *s, unsigned state)
{
    Position *pos = &s->pos;
    const TbLayout *layout = &r->c->t->layout;
    const bool loser_free = pos->side != r->winner && !pos->in_check; /* the loser to move, not in check */
    int h;
    switch (r->step) {
    case STEP_INIT:
        reg_set(r, i, pos->side != r->winner || pos->in_check ? REG_IN : REG_OUT);
        return pos->side != r->winner || pos->in_check;
    case STEP_SAFE_ALL:
    case STEP_SAFE_CAND:
        if ((h = holds(r, s, 1u << REG_IN)) == 0)
            reg_set(r, i, REG_GONE);
        return h < 0 ? -1 : !h;
    case STEP_MARK_GONE:
        tb_unmoves(layout, pos, mark, r);
        reg_set(r, i, REG_OUT);
        return 1;
    case STEP_DROP_GONE:
        reg_set(r, i, REG_OUT);
        return 1;
    case STEP_TARGET:
        if (loser_free)
            reg_set(r, i, REG_HIT);
        return loser_free;
    case STEP_MARK_HIT:
        tb_unmoves(layout, pos, mark, r);
        reg_set(r, i, REG_HELD);
        return 1;
    case STEP_ATTRACT:
        if ((h = holds(r, s, 1u << REG_HIT | 1u << REG_HELD)) == 1)
            reg_set(r, i, REG_HIT);
        return h;
    case STEP_NARROW:
        reg_set(r, i, state == REG_IN ? REG_GONE : REG_IN);
        return state == REG_IN;
    case STEP_SEED:
        if (loser_free)
            atomic_store_explicit(&r->c->t->val[i], (uint16_t)tb_encode(r->c->base, true), memory_order_relaxed);
        return loser_free;
    }
    return 0;
}

/* A chunk of a step (a TbChunkFn; ctx: the Rule). */
static int64_t rule_chunk(void *ctx, uint64_t lo, uint64_t hi, TbScratch *s)
{
    Rule *r = ctx;
    int64_t count = 0;
    for (uint64_t i = lo; i < hi; i++) {
        unsigned state = reg_of(r, i);
        if (!wanted(r, i, state))
            continue;
        bool setup = tb_setup(&r->c->t->layout, i, &s->pos);
        if (r->step == STEP_INIT && (!setup || tb_get(r->c->t, i) != TB_V_DRAW)) {
            reg_set(r, i, REG_OUT);
            continue;
        }
        if (!setup) /* only legal entries ever enter the region */
            continue;
        int n = step_entry(r, i, s, state);
        if (n < 0)
            return -1;
        count += n;
    }
    return count;
}

/* Runs one step over every entry; returns its count or -1. */
static int64_t run_step(Rule *r, Step step)
{
    r->step = step;
    TbWork w = { .size = r->c->t->layout.size, .threads = r->c->threads, .fn = rule_chunk, .ctx = r };
    return tb_work_run(&w);
}

/* Removes from Z what breaks the safety conditions until nothing leaves: `gone` entries have just left and
 * `in` remain. While many leave at once, a full pass over Z is cheaper than marking the predecessors of
 * each; then the marked predecessors only. False on failure. */
static bool restore_safety(Rule *r, int64_t gone, int64_t in)
{
    while (gone > 0) {
        bool full = gone * FULL_PASS_RATIO > in;
        if (run_step(r, full ? STEP_DROP_GONE : STEP_MARK_GONE) < 0)
            return false;
        gone = run_step(r, full ? STEP_SAFE_ALL : STEP_SAFE_CAND);
        if (gone < 0)
            return false;
        in -= gone;
    }
    return true;
}

/* Takes into R what the winner forces into it (from the targets), until nothing joins; returns R's size,
 * or -1 on failure. */
static int64_t attract(Rule *r)
{
    int64_t held = 0;
    if (run_step(r, STEP_TARGET) < 0)
        return -1;
    for (;;) {
        int64_t hit = run_step(r, STEP_MARK_HIT);
        if (hit <= 0)
            return hit < 0 ? -1 : held;
        held += hit;
        if (run_step(r, STEP_ATTRACT) < 0)
            return -1;
    }
}

/* Marks the rule seeds where `winner` wins; returns how many, or -1 on failure. */
int64_t tb_rule_seeds(TbRuleCtx *c, int winner)
{
    Rule r = { .c = c, .winner = winner };
    const int64_t t0 = now_ms();
    int64_t in = run_step(&r, STEP_INIT), gone = in < 0 ? -1 : run_step(&r, STEP_SAFE_ALL);
    if (gone < 0 || !restore_safety(&r, gone, in - gone))
        return -1;
    for (;;) { /* the Büchi loop: Z := R (what the winner attracts to the targets), then safety again */
        int64_t held = attract(&r), left = held < 0 ? -1 : run_step(&r, STEP_NARROW);
        if (left < 0 || (left > 0 && !restore_safety(&r, left, held)))
            return -1;
        if (left == 0)
            break;
    }
    int64_t seeds = run_step(&r, STEP_SEED);
    if (c->progress) {
        fprintf(c->progress,
                "%s: %" PRId64 " rule seeds where %s wins (the other side can only check forever), "
                "%.1f s\n",
                c->t->name, seeds, winner == RED ? "red" : "black", (now_ms() - t0) / 1000.0);
        fflush(c->progress);
    }
    return seeds;
}
