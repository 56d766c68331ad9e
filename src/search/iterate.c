/* iterate.c - iterative deepening with aspiration windows over the root-move list, and the reports. */
#include <string.h>

#include "base/platform.h"
#include "search_int.h"
#include "timeman.h"

/* Iterative deepening constants. */
enum {
    ASPIRATION_MIN_DEPTH = 5,
    SKIP_PATTERNS = 20,
    TREND_ITERATIONS = 3,  /* the time manager compares the score with this many iterations back */
    CHANGE_WEIGHT = 1000,  /* one change of the best move in the time manager's instability count */
};

/* Lazy SMP: helper i skips the iterations d with ((d + SKIP_PHASE[k]) / SKIP_SIZE[k]) odd, k = (i - 1) % 20,
 * so the helpers spread over the depths around the main thread's (Stockfish 9's skip blocks). */
static const int SKIP_SIZE[SKIP_PATTERNS] = { 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4 };
static const int SKIP_PHASE[SKIP_PATTERNS] = { 0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7 };

/* Does this thread skip iteration `depth` (helpers only; never the first)? */
static bool skips_depth(const SearchThread *st, int depth)
{
    if (st->index == 0 || depth == 1)
        return false;
    int k = (st->index - 1) % SKIP_PATTERNS;
    return (depth + SKIP_PHASE[k]) / SKIP_SIZE[k] % 2 != 0;
}

/* Fills a report of root move `at` (a line, exact unless it was cut by an aspiration fail) for line
 * `multipv` (1-based), or of the aspiration fail just seen when at < 0. */
static void report(SearchThread *st, int at, int multipv, int depth, int score, int bound)
{
    SearchShared *sh = st->shared;
    if (!sh->report)
        return;
    SearchReport r;
    r.multipv = multipv;
    r.nodes = search_flush_nodes(st);
    r.time_ms = now_ms() - atomic_load(&sh->start_ms);
    r.hashfull = tt_hashfull(sh->tt);
    r.tbhits = atomic_load_explicit(&sh->tbhits, memory_order_relaxed);
    if (at >= 0) {
        const RootMove *m = &st->rm.move[at];
        r.depth = m->depth;
        r.seldepth = m->seldepth;
        r.score = m->score;
        r.bound = m->bound;
        r.pv_len = m->pv_len;
        memcpy(r.pv, m->pv, sizeof(Move) * (size_t)r.pv_len);
    } else {
        /* a fail low has no move of its own: the line's last PV stands (never an empty pv) */
        const bool own = st->pv_len[0] > 0;
        const RootMove *m = &st->rm.move[multipv - 1];
        r.depth = depth;
        r.seldepth = st->seldepth;
        r.score = score;
        r.bound = bound;
        r.pv_len = own ? st->pv_len[0] : m->pv_len;
        memcpy(r.pv, own ? st->pv[0] : m->pv, sizeof(Move) * (size_t)r.pv_len);
    }
    sh->report(sh->report_ctx, &r);
}

/* Reports the thread's best line as the search's last word (the pool, when it plays a helper's move). */
void search_report_line(SearchThread *st, Move best)
{
    const RootMove *r = &st->rm.move[0];
    SearchShared *sh = st->shared;
    if (!sh->report || r->depth == 0 || r->move != best)
        return;
    SearchReport rep;
    rep.multipv = 1;
    rep.depth = r->depth;
    rep.seldepth = r->seldepth;
    rep.score = r->score;
    rep.bound = BOUND_EXACT;
    rep.nodes = atomic_load(&sh->nodes);
    rep.time_ms = now_ms() - atomic_load(&sh->start_ms);
    rep.hashfull = tt_hashfull(sh->tt);
    rep.tbhits = atomic_load_explicit(&sh->tbhits, memory_order_relaxed);
    rep.pv_len = r->pv_len;
    memcpy(rep.pv, r->pv, sizeof(Move) * (size_t)r->pv_len);
    sh->report(sh->report_ctx, &rep);
}

/* Should iterative deepening stop before the next iteration (depth, the time manager's target, mate found)?
 * The clock is the main thread's to watch; a mate found within `go mate` by any thread stops them all. */
static bool stop_iterating(SearchThread *st, int depth, const TmIteration *it, int n_root)
{
    SearchShared *sh = st->shared;
    const SearchLimits *lim = &sh->limits;
    if (lim->depth > 0 && depth >= lim->depth)
        return true;
    if (lim->mate > 0 && it->score >= SCORE_MATE_MIN && SCORE_MATE - it->score <= 2 * lim->mate) {
        atomic_store(&sh->stop, true);
        return true;
    }
    if (st->index != 0 || lim->infinite || atomic_load(&sh->pondering) || lim->soft_ms <= 0)
        return false;
    if (n_root == 1)
        return true; /* a forced move needs no thought */
    return tm_stop_after_iteration(search_elapsed_ms(sh), lim->soft_ms, lim->hard_ms, it);
}

/* The time manager's view of the iteration just completed: its score, the trend, the best move's stability
 * (instability: decayed changes) and its share of the nodes (one line only). */
static TmIteration iteration_signs(const SearchThread *st, const int *scores, int depth, int instability)
{
    const SearchLimits *lim = &st->shared->limits;
    TmIteration it;
    it.score = scores[depth];
    it.prev_iter_score = depth > TREND_ITERATIONS ? scores[depth - TREND_ITERATIONS] : TM_NO_SCORE;
    it.prev_move_score = lim->has_prev_score ? lim->prev_score : TM_NO_SCORE;
    it.instability = instability;
    it.best_share = st->lines == 1 ? rootmoves_best_share(&st->rm) : -1;
    return it;
}

/* Searches line `line` of iteration `depth` with aspiration windows around center (the line's last score;
 * reporting each fail on the main thread). Returns the score; st->stopped if the search was stopped. */
static int search_line(SearchThread *st, int line, int depth, int center)
{
    int window = SP(st, aspiration_window), alpha = -SCORE_INF, beta = SCORE_INF;
    st->line = line;
    st->seldepth = 0;
    if (depth >= ASPIRATION_MIN_DEPTH && center > -SCORE_INF && !score_is_mate(center)) {
        alpha = center - window;
        beta = center + window;
    }
    int fail_highs = 0; /* each fail high re-searches a ply shallower (Stockfish's failedHighCnt) */
    for (;;) {
        int result = search_root(st, alpha, beta, depth - fail_highs > 1 ? depth - fail_highs : 1);
        if (st->stopped)
            return result;
        if (result <= alpha) {
            if (st->index == 0)
                report(st, -1, line + 1, depth, result, BOUND_UPPER);
            beta = (alpha + beta) / 2;
            alpha = result - window > -SCORE_INF ? result - window : -SCORE_INF;
            fail_highs = 0;
        } else if (result >= beta) {
            if (st->index == 0)
                report(st, -1, line + 1, depth, result, BOUND_LOWER);
            beta = result + window < SCORE_INF ? result + window : SCORE_INF;
            fail_highs++;
        } else {
            return result;
        }
        window += window / 2;
    }
}

/* Copies the best line of the thread's root moves into out (move, ponder, score, depth). */
static void take_best(const SearchThread *st, SearchResult *out)
{
    const RootMove *r = &st->rm.move[0];
    out->best = r->move;
    out->ponder = r->pv_len > 1 ? r->pv[1] : MOVE_NONE;
    out->score = r->score;
    out->depth = r->depth;
}

/* Iterative deepening: each iteration searches every MultiPV line with aspiration windows. */
void search_run(SearchThread *st, SearchShared *shared, const Position *pos, SearchResult *out)
{
    memcpy(&st->pos, pos, offsetof(Position, hist) + sizeof(Undo) * pos->ply);
    corr_keys(&st->pos, &st->corr_keys[st->pos.ply]);
    st->shared = shared;
    st->nodes = st->nodes_flushed = 0;
    st->stopped = false;
    st->check_mask = CHECK_NODES_MASK;
    if (shared->limits.nodes && shared->limits.nodes <= CHECK_NODES_MASK) { /* tiny budgets (skill levels) */
        uint64_t every = 1;
        while (every * CHECK_PER_LIMIT <= shared->limits.nodes)
            every *= 2;
        st->check_mask = every - 1;
    }
    st->net = shared->net;
    if (st->net)
        nnue_reset(&st->nnue, st->net, &st->pos, NULL);
    st->nnue_work0 = st->nnue.refreshes + st->nnue.updates;
    st->noise = shared->eval_noise;
    st->noise_seed = shared->noise_seed;
    memset(out, 0, sizeof *out);
    st->line = 0;
    int n_root = rootmoves_init(&st->rm, &st->pos, shared->limits.root_moves, shared->limits.n_root_moves);
    out->best = n_root > 0 ? st->rm.move[0].move : MOVE_NONE;
    if (out->best == MOVE_NONE) {
        out->score = score_mated_in(0);
        return;
    }
    const SearchLimits *lim = &shared->limits;
    const int max_depth = lim->depth > 0 && lim->depth < MAX_PLY ? lim->depth : MAX_PLY - 1;
    st->lines = lim->multipv > 1 ? (lim->multipv < n_root ? lim->multipv : n_root) : 1;
    int instability = 0, scores[MAX_PLY];
    for (int depth = 1; depth <= max_depth && !st->stopped; depth++) {
        if (skips_depth(st, depth))
            continue;
        rootmoves_new_iteration(&st->rm);
        for (int line = 0; line < st->lines; line++) {
            int result = search_line(st, line, depth, st->rm.move[line].prev_score);
            if (st->stopped) {
                /* A partial line 0 is used only if its move already beat the last full iteration's. */
                if (line == 0 && st->pv_len[0] > 0 && st->pv[0][0] != MOVE_NONE && depth > 1
                    && st->pv[0][0] != out->best) {
                    out->best = st->pv[0][0];
                    out->ponder = st->pv_len[0] > 1 ? st->pv[0][1] : MOVE_NONE;
                }
                break;
            }
            rootmoves_set_line(&st->rm, line, result, BOUND_EXACT, depth, st->seldepth, st->pv[0], st->pv_len[0]);
            if (line == 0) {
                instability = instability / 2 + (depth > 1 && st->rm.move[0].move != out->best ? CHANGE_WEIGHT : 0);
                take_best(st, out);
            }
        }
        if (st->stopped)
            break;
        rootmoves_sort(&st->rm, 0, st->lines);
        take_best(st, out);
        if (st->index == 0)
            for (int line = 0; line < st->lines; line++)
                report(st, line, line + 1, depth, 0, BOUND_EXACT);
        scores[depth] = out->score;
        TmIteration it = iteration_signs(st, scores, depth, instability);
        if (stop_iterating(st, depth, &it, n_root))
            break;
    }
    out->nodes = st->nodes;
    search_flush_nodes(st);
}
