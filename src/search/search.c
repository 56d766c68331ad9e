/* search.c - PVS alpha-beta with a transposition table, and quiescence (iterate.c deepens). */
#include "search_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "base/platform.h"
#include "rules/rules.h"
#include "see.h"
#include "strength.h"
#include "tb/tb_probe.h"

/* Search constants that are not tuned (the tuned ones are in search_params.h, used through SP). */
enum {
    CURRMOVE_AFTER_MS = 1000, /* root moves are announced (currmove) once the search is this old */
    MAX_CHECK_EXTENSION_PLY = MAX_PLY / 2,
};

/* 100 * ln(i) for i < 64: integer logarithms keep LMR (and the bench) free of libm. */
static const int LN100[LMR_TABLE] = {
    0,   0,   69,  110, 139, 161, 179, 195, 208, 220, 230, 240, 248, 256, 264, 271,
    277, 283, 289, 294, 300, 304, 309, 314, 318, 322, 326, 330, 333, 337, 340, 343,
    347, 350, 353, 356, 358, 361, 364, 366, 369, 371, 374, 376, 378, 381, 383, 385,
    387, 389, 391, 393, 395, 397, 399, 401, 403, 404, 406, 408, 409, 411, 413, 414,
};

/* Fills the thread's reduction table: (base + 100 ln(depth) * 100 ln(moves) / divisor) / 100 plies. */
static void lmr_table_init(SearchThread *st, int base, int divisor)
{
    for (int d = 1; d < LMR_TABLE; d++)
        for (int m = 1; m < LMR_TABLE; m++)
            st->lmr[d][m] = (uint8_t)((base + LN100[d] * LN100[m] / divisor) / 100);
    st->lmr_base = base;
    st->lmr_divisor = divisor;
}

/* Allocates a search thread and its reduction table. */
SearchThread *search_thread_new(void)
{
    SearchThread *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    lmr_table_init(st, SPD_lmr_base, SPD_lmr_divisor);
    st->params = &EVAL_DEFAULTS;
    return st;
}

/* Does this build's search read SearchShared.params (a tuning build), rather than the defaults? */
bool search_params_tunable(void) { return XQ_TUNE_SEARCH; }

/* Frees a search thread. */
void search_thread_free(SearchThread *st) { free(st); }

/* Forgets history, countermoves and killers. */
void search_thread_clear(SearchThread *st)
{
    memset(&st->order, 0, sizeof st->order);
    memset(&st->corr, 0, sizeof st->corr);
    memset(&st->null_cont, 0, sizeof st->null_cont);
    memset(st->stack, 0, sizeof st->stack);
}

/* Sets the thread's index in its pool. */
void search_thread_set_index(SearchThread *st, int index) { st->index = index; }

/* Network work of the last search. */
uint64_t search_thread_nnue_work(const SearchThread *st)
{
    return st->nnue.refreshes + st->nnue.updates - st->nnue_work0;
}

/* Prepares shared state for a new search. */
void search_shared_init(SearchShared *shared, TT *tt, const SearchLimits *limits, const RuleSet *rules,
                        SearchReportFn report, void *report_ctx)
{
    shared->tt = tt;
    tt_new_search(tt); /* once per search, before any thread reads the generation */
    shared->limits = *limits;
    shared->rules = rules ? rules : rules_default();
    atomic_store(&shared->stop, false);
    atomic_store(&shared->start_ms, now_ms());
    atomic_store(&shared->nodes, 0);
    shared->report = report;
    shared->report_ctx = report_ctx;
    shared->net = NULL;
    shared->eval_noise = 0;
    shared->noise_seed = 0;
    atomic_store(&shared->serve_wanted, false);
    shared->serve = NULL;
    shared->serve_ctx = NULL;
    shared->currmove = NULL;
    shared->tb = NULL;
    shared->tb_probe_limit = 0;
    atomic_store(&shared->tbhits, 0);
    search_params_default(&shared->params);
}

/* Probes the tablebases at a node of at most shared->tb_probe_limit pieces; true with *score set on a hit. */
static bool tb_score_at(SearchThread *st, int ply, int *score)
{
    const Position *pos = &st->pos;
    int pieces = 0;
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++)
        pieces += pos->piece_sq[id] != 0;
    TbValue v;
    if (pieces > st->shared->tb_probe_limit || !tb_probe_loaded(st->shared->tb, pos, &v))
        return false;
    atomic_fetch_add_explicit(&st->shared->tbhits, 1, memory_order_relaxed);
    /* DTM tables know the mate's distance: within the mate band it is an exact mate score, beyond it (or
     * when the value rests on the perpetual-check rule, no mate) the tablebase band (which the root's DTM
     * filter turns into the fastest win) */
    const int mate_ply = ply + v.dtm;
    if (v.wdl == TB_DRAW)
        *score = SCORE_DRAW;
    else if (mate_ply < MAX_PLY && !v.rule)
        *score = v.wdl == TB_WIN ? -score_mated_in(mate_ply) : score_mated_in(mate_ply);
    else
        *score = v.wdl == TB_WIN ? score_tb_win_at(ply) : -score_tb_win_at(ply);
    return true;
}

/* Tells the network's accumulators and the structure keys about m, before it is played. */
static inline void before_move(SearchThread *st, Move m)
{
    if (st->net)
        nnue_push(&st->nnue, &st->pos, m);
    corr_keys_after(&st->pos, &st->corr_keys[st->pos.ply], m, &st->corr_keys[st->pos.ply + 1]);
}

/* Plays m on the thread's position (and tells the network's accumulators). */
static inline void make_move(SearchThread *st, Move m)
{
    before_move(st, m);
    pos_make(&st->pos, m);
}

/* make_move for a move whose check is known (gives_check_with_ctx before the move). */
static inline void make_move_known_check(SearchThread *st, Move m, bool gives_check)
{
    before_move(st, m);
    pos_make_known_check(&st->pos, m, gives_check);
}

/* Takes back the last move made with make_move. */
static inline void unmake_move(SearchThread *st)
{
    pos_unmake(&st->pos);
    if (st->net)
        nnue_pop(&st->nnue);
}

/* The static evaluation of the thread's position for the side to move: the network's, or the hand-crafted one
 * (plus a strength limit's noise). */
static int static_eval(SearchThread *st)
{
    int v = st->net ? nnue_evaluate(st->net, &st->nnue, &st->pos) : evaluate(&st->pos, st->params);
    return st->noise ? v + strength_noise(st->pos.key, st->noise_seed, st->noise) : v;
}

/* Milliseconds since the limits' reference time. */
int64_t search_elapsed_ms(const SearchShared *sh) { return now_ms() - atomic_load(&sh->start_ms); }

/* Adds the nodes searched since the last flush to the count of all threads. */
uint64_t search_flush_nodes(SearchThread *st)
{
    uint64_t fresh = st->nodes - st->nodes_flushed;
    st->nodes_flushed = st->nodes;
    return atomic_fetch_add_explicit(&st->shared->nodes, fresh, memory_order_relaxed) + fresh;
}

/* Checks the node limit (over all threads; once this thread has a whole first iteration) and, on the main
 * thread, the hard time limit (setting the stop flag when one is reached) and a pending request. */
static void check_limits(SearchThread *st)
{
    SearchShared *sh = st->shared;
    const SearchLimits *lim = &sh->limits;
    uint64_t nodes = search_flush_nodes(st);
    if (lim->nodes && nodes >= lim->nodes && st->rm.move[0].depth > 0) /* a move from one whole iteration at least */
        atomic_store(&sh->stop, true);
    if (st->index != 0)
        return;
    if (sh->serve && atomic_load_explicit(&sh->serve_wanted, memory_order_relaxed))
        sh->serve(sh->serve_ctx);
    if (!lim->infinite && !atomic_load(&sh->pondering) && lim->hard_ms > 0 && search_elapsed_ms(sh) >= lim->hard_ms)
        atomic_store(&sh->stop, true);
}

/* Has the search been told to stop (polling the limits every few nodes)? The main thread first finishes
 * depth 1 (a fraction of a millisecond), so a `stop` or a clock run out at once still answers a searched move,
 * not the first one generated. */
static inline bool should_stop(SearchThread *st)
{
    if ((st->nodes & st->check_mask) == 0)
        check_limits(st);
    if (atomic_load_explicit(&st->shared->stop, memory_order_relaxed) && (st->index != 0 || st->rm.move[0].depth > 0))
        st->stopped = true;
    return st->stopped;
}

/* Has the quiet-move limit (the 60-move rule) drawn the game here? A mate on its last ply still counts, so not
 * while in check. */
static bool quiet_limit_draw(const SearchThread *st)
{
    const Position *pos = &st->pos;
    const int quiet_limit = st->shared->rules->quiet_limit;
    return pos->rule60 >= quiet_limit && !pos->in_check && rules_quiet_plies(pos, st->shared->rules) >= quiet_limit;
}

/* Does a repetition end the game here, for the search? The position's third occurrence does, as in a game (AXF
 * rule 3, CXA 循环反复三次). A second one whose earlier occurrence is the root or lies after it (first is its
 * history index), a cycle of searched moves only, stands for the third, which the side the cycle favours could
 * bring about, unless the 60-move rule draws first. One whose earlier occurrence lies in the game before the root
 * does not: the game goes on from there, and the side a ruling would go against may still deviate (Stockfish and
 * Pikafish likewise want a third occurrence when the cycle reaches back before the root). */
static bool repetition_ends(const SearchThread *st, int first, int ply)
{
    const Position *pos = &st->pos;
    if (first >= pos->ply - ply && !quiet_limit_draw(st)) /* the common case, decided without a scan */
        return true;
    int first_ever;
    return rules_count_occurrences(pos, &first_ever) >= RULES_REPEAT_LIMIT; /* the adjudicator's own count */
}

/* Score of a repeated position for the side to move at ply: a forbidden perpetual loses with a
 * ban score (below any mate, never stored as a value in the TT), anything else is a draw. */
static int repetition_score(SearchThread *st, int first, int ply)
{
    RulesVerdict v = rules_judge_cycle(&st->pos, first, st->shared->rules, NULL);
    int outcome = rules_verdict_for_side(v, st->pos.side);
    if (outcome > 0)
        return SCORE_BAN - ply;
    if (outcome < 0)
        return -SCORE_BAN + ply;
    return SCORE_DRAW;
}

/* Did the last move, a capture, leave a dead position (rules.h)? Only captures change material: cheap. */
static inline bool dead_after_capture(const Position *pos)
{
    return pos->rule60 == 0 && pos->ply > 0 && rules_dead_position(pos);
}

/* Does the side to move have rooks, horses or cannons (so a null move is not a zugzwang trap)? */
static bool has_major_pieces(const Position *pos)
{
    const int tag = side_tag(pos->side);
    for (int i = TYPE_FIRST[HORSE]; i < TYPE_FIRST[PAWN]; i++)
        if (pos->piece_sq[tag + i])
            return true;
    return false;
}

/* Does a TT entry's bound and score allow a cutoff in the window (depth checked by the caller)? */
static bool tt_cutoff(const TTEntry *e, int alpha, int beta)
{
    int bound = e->gen_bound & 3;
    return bound == BOUND_EXACT || (bound == BOUND_LOWER && e->score >= beta)
           || (bound == BOUND_UPPER && e->score <= alpha);
}

/* The corrected static eval, sharpened by a TT score whose bound says the truth lies beyond it. */
static int refined_eval(const TTEntry *e, bool tt_hit, int static_eval)
{
    if (!tt_hit || e->score >= SCORE_KNOWN_WIN || e->score <= -SCORE_KNOWN_WIN)
        return static_eval;
    int bound = e->gen_bound & 3;
    if ((bound == BOUND_LOWER && e->score > static_eval) || (bound == BOUND_UPPER && e->score < static_eval)
        || bound == BOUND_EXACT)
        return e->score;
    return static_eval;
}

/* Static eval of a node not in check: raw (from the TT entry if any, for storing back) and corrected. */
static int corrected_eval(SearchThread *st, const TTEntry *tte, bool tt_hit, CorrSlots *cs, int *raw)
{
    const CorrKeys *keys = &st->corr_keys[st->pos.ply];
#ifndef NDEBUG
    CorrKeys fresh;
    corr_keys(&st->pos, &fresh);
    assert(memcmp(&fresh, keys, sizeof fresh) == 0); /* the keys kept along the path are the position's */
#endif
    corr_slots(keys, cs);
    *raw = tt_hit ? tte->eval : static_eval(st);
    return corr_apply(&st->corr, &st->pos, cs, *raw);
}

/* Quiescence: stand pat, then captures (all evasions when in check). */
static int qsearch(SearchThread *st, int alpha, int beta, int ply)
{
    Position *pos = &st->pos;
    st->nodes++;
    if (ply > st->seldepth)
        st->seldepth = ply;
    if (should_stop(st))
        return 0;
    if (ply >= MAX_PLY)
        return static_eval(st);
    if (dead_after_capture(pos) || quiet_limit_draw(st)) /* a quiet evasion can play the 60-move rule's last ply */
        return SCORE_DRAW;
    int tb_score; /* a table's value is exact here too (the root's only move is searched to depth 1) */
    if (st->shared->tb && tb_score_at(st, ply, &tb_score))
        return tb_score;
    const bool in_check = pos->in_check;
    const int alpha0 = alpha;
    TTEntry tte;
    bool tt_hit = tt_probe(st->shared->tt, pos->key, ply, &tte);
    if (tt_hit && tt_cutoff(&tte, alpha, beta))
        return tte.score;
    int best = -SCORE_INF, stand = -SCORE_INF, raw_eval = 0;
    if (!in_check) {
        CorrSlots cs;
        stand = refined_eval(&tte, tt_hit, corrected_eval(st, &tte, tt_hit, &cs, &raw_eval));
        if (stand >= beta)
            return stand;
        if (stand > alpha)
            alpha = stand;
        best = stand;
    }
    MovePicker mp;
    if (in_check) {
        static const Move no_killers[2] = { MOVE_NONE, MOVE_NONE };
        ContHist *const conts[PICKER_CONTS] = { &st->null_cont, &st->null_cont, &st->null_cont };
        picker_init(&mp, pos, &st->order, MOVE_NONE, no_killers, MOVE_NONE, conts);
    } else {
        picker_init_captures(&mp, pos);
    }
    LegalCtx ctx;
    legal_ctx_init(pos, &ctx);
    int legal = 0;
    Move m, best_move = MOVE_NONE;
    while ((m = picker_next(&mp, NULL)) != MOVE_NONE) {
        if (!legal_with_ctx(pos, &ctx, m))
            continue;
        legal++;
        if (!in_check) {
            int victim = eval_piece_value(pos->board[move_to(m)]);
            if (stand + victim + SP(st, qs_delta_margin) < alpha)
                continue; /* delta pruning */
            if (capture_needs_see(pos, m) && !see_ge(pos, m, 0))
                continue;
        }
        make_move(st, m);
        tt_prefetch(st->shared->tt, pos->key);
        int score = -qsearch(st, -beta, -alpha, ply + 1);
        unmake_move(st);
        if (st->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                if (score >= beta)
                    break;
            }
        }
    }
    if (in_check && legal == 0)
        return score_mated_in(ply);
    tt_store(st->shared->tt, pos->key, ply, best_move, best, raw_eval, 0,
             best >= beta ? BOUND_LOWER : (best > alpha0 ? BOUND_EXACT : BOUND_UPPER));
    return best;
}

/* Moves a history value toward +-HISTORY_MAX by delta, slowing as it nears the bound. */
static void history_add(int16_t *h, int delta)
{
    int v = *h + delta - *h * (delta < 0 ? -delta : delta) / HISTORY_MAX;
    *h = (int16_t)(v > HISTORY_MAX ? HISTORY_MAX : (v < -HISTORY_MAX ? -HISTORY_MAX : v));
}

/* Continuation history of the move played `back` plies before ply (the null table if none). */
static ContHist *cont_before(SearchThread *st, int ply, int back)
{
    return ply >= back ? st->stack[ply - back].cont : &st->null_cont;
}

/* History bonus of a cutoff at this depth (a malus is its negative). */
static int history_bonus(const SearchThread *st, int depth)
{
    int bonus = SP(st, history_bonus_per_depth) * depth - SP(st, history_bonus_offset);
    return bonus > SP(st, history_bonus_max) ? SP(st, history_bonus_max) : bonus;
}

/* After a cutoff: rewards the capture that caused it (if any) and punishes the other captures tried. */
static void update_capture_stats(SearchThread *st, Move best, const Move *captures, int n_captures, int depth)
{
    int bonus = history_bonus(st, depth);
    for (int i = 0; i < n_captures; i++)
        history_add(capture_slot(&st->order, st->pos.board, captures[i]), captures[i] == best ? bonus : -bonus);
}

/* Adds delta to quiet move m's butterfly history and its continuation histories (1, 2 and 4 plies back). */
static void reward_quiet(SearchThread *st, int ply, Move m, int delta)
{
    int kind = piece_kind(st->pos.board[move_from(m)]), to = play_index(move_to(m));
    history_add(&st->order.history[st->pos.side][move_from(m)][move_to(m)], delta);
    history_add(&(*cont_before(st, ply, 1))[kind][to], delta);
    history_add(&(*cont_before(st, ply, 2))[kind][to], delta);
    history_add(&(*cont_before(st, ply, 4))[kind][to], delta);
}

/* Records a quiet move that caused a cutoff: killers, countermove, history. */
static void update_quiet_stats(SearchThread *st, int ply, Move best, const Move *quiets, int n_quiets, int depth)
{
    OrderTables *ot = &st->order;
    StackEntry *ss = &st->stack[ply];
    if (ss->killers[0] != best) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best;
    }
    Move prev = ply > 0 ? st->stack[ply - 1].move : MOVE_NONE;
    if (prev != MOVE_NONE)
        ot->counter[move_from(prev)][move_to(prev)] = best;
    int bonus = history_bonus(st, depth);
    for (int i = 0; i < n_quiets; i++)
        reward_quiet(st, ply, quiets[i], quiets[i] == best ? bonus : -bonus);
}

/* Principal variation search. */
static int search(SearchThread *st, int alpha, int beta, int depth, int ply, bool null_ok)
{
    Position *pos = &st->pos;
    const bool pv_node = beta - alpha > 1, root = ply == 0;
    const Move excluded = st->stack[ply].excluded; /* set: a singular-extension search of this node */
    st->pv_len[ply] = ply;

    /* Step 1. Repetitions (ruled by the repetition rules) and the 60-move rule, then quiescence at the horizon. */
    if (!root) {
        int first = rules_find_repetition(pos);
        if (first >= 0 && repetition_ends(st, first, ply))
            return repetition_score(st, first, ply);
        if (quiet_limit_draw(st)) /* before the horizon: a quiet move that ends the game is a draw there too */
            return SCORE_DRAW;
    }
    if (depth <= 0)
        return qsearch(st, alpha, beta, ply);
    st->nodes++;
    if (ply > st->seldepth)
        st->seldepth = ply;
    if (should_stop(st))
        return 0;

    /* Step 2. Dead positions; mate distance pruning. */
    if (!root) {
        if (dead_after_capture(pos))
            return SCORE_DRAW;
        if (ply >= MAX_PLY - 1)
            return static_eval(st);
        alpha = alpha > score_mated_in(ply) ? alpha : score_mated_in(ply);
        beta = beta < -score_mated_in(ply + 1) ? beta : -score_mated_in(ply + 1);
        if (alpha >= beta)
            return alpha;
    }

    /* Step 2b. Endgame tablebases: a win or loss scores in the tablebase band (score.h), a draw 0. */
    if (st->shared->tb && !root && !excluded) {
        int tb_score;
        if (tb_score_at(st, ply, &tb_score))
            return tb_score;
    }

    /* Step 3. Transposition table. */
    TTEntry tte;
    Move tt_move = MOVE_NONE;
    bool tt_hit = !excluded && tt_probe(st->shared->tt, pos->key, ply, &tte); /* the entry is of all moves */
    if (tt_hit) {
        tt_move = tte.move;
        if (!pv_node && tte.depth >= depth && tt_cutoff(&tte, alpha, beta)) {
            /* a quiet TT move that still beats beta is rewarded as if it had cut here */
            if (tt_move && tte.score >= beta && pos->board[move_to(tt_move)] == EMPTY
                && move_is_pseudo_legal(pos, tt_move))
                reward_quiet(st, ply, tt_move, history_bonus(st, depth));
            return tte.score;
        }
    }
    if (root && st->lines > 1)
        tt_move = st->rm.move[st->line].move; /* MultiPV: the table holds another line's move; try this line's */
    if (tt_move && (!move_is_pseudo_legal(pos, tt_move) || !move_is_legal(pos, tt_move)))
        tt_move = MOVE_NONE;

    /* Step 4. Static evaluation and pruning before moves. */
    const bool in_check = pos->in_check;
    int raw_eval = 0, static_eval = -SCORE_INF, eval = -SCORE_INF;
    CorrSlots cs;
    if (!in_check) {
        static_eval = corrected_eval(st, &tte, tt_hit, &cs, &raw_eval);
        eval = refined_eval(&tte, tt_hit, static_eval);
    }
    st->stack[ply].eval = static_eval;
    st->stack[ply + 2].killers[0] = st->stack[ply + 2].killers[1] = MOVE_NONE;
    /* Is the position better for us than two plies ago? Prune less when it is not. */
    const bool improving = !in_check && ply >= 2 && st->stack[ply - 2].eval != -SCORE_INF
                        && static_eval > st->stack[ply - 2].eval;
    if (!pv_node && !in_check && !score_is_mate(beta) && !excluded) {
        /* Reverse futility: far above beta at shallow depth. */
        if (depth <= SP(st, rfp_max_depth) && eval - SP(st, rfp_margin) * (depth - improving) >= beta)
            return eval;
        /* Null move, guarded against zugzwang-prone endings (no rooks, horses or cannons); reduced more the
         * further the eval stands above beta. */
        if (null_ok && depth >= SP(st, null_min_depth) && eval >= beta && has_major_pieces(pos)) {
            int r = SP(st, null_base_reduction) + depth / SP(st, null_depth_divisor);
            const int r_eval = (eval - beta) / SP(st, null_eval_divisor);
            r += r_eval < SP(st, null_eval_max) ? r_eval : SP(st, null_eval_max);
            st->stack[ply].move = MOVE_NONE;
            st->stack[ply].cont = &st->null_cont;
            if (st->net)
                nnue_push_null(&st->nnue);
            st->corr_keys[pos->ply + 1] = st->corr_keys[pos->ply];
            pos_make_null(pos);
            int score = -search(st, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
            pos_unmake_null(pos);
            if (st->net)
                nnue_pop(&st->nnue);
            if (st->stopped)
                return 0;
            if (score >= beta)
                return score_null_cutoff(score, beta);
        }
    }

    /* Internal iterative reduction: without a TT move, search this node less deeply. */
    if (!tt_move && !excluded && depth >= SP(st, iir_min_depth))
        depth--;

    /* Step 5. The move loop. */
    Move prev = ply > 0 ? st->stack[ply - 1].move : MOVE_NONE;
    Move counter = prev ? st->order.counter[move_from(prev)][move_to(prev)] : MOVE_NONE;
    MovePicker mp;
    ContHist *const conts[PICKER_CONTS] = { cont_before(st, ply, 1), cont_before(st, ply, 2), cont_before(st, ply, 4) };
    picker_init(&mp, pos, &st->order, tt_move, st->stack[ply].killers, counter, conts);
    LegalCtx ctx;
    legal_ctx_init(pos, &ctx);
    CheckCtx check_ctx;
    check_ctx_init(&check_ctx);
    Move quiets[MAX_MOVES], captures[MAX_MOVES], best_move = MOVE_NONE, m;
    int n_quiets = 0, n_captures = 0, legal = 0, best = -SCORE_INF, order_score;
    const int alpha0 = alpha;
    const bool futile = !pv_node && !in_check && depth <= SP(st, futility_max_depth)
                        && eval + SP(st, futility_base) + SP(st, futility_per_depth) * depth <= alpha;
    while ((m = picker_next(&mp, &order_score)) != MOVE_NONE) {
        if ((root && !rootmoves_searchable(&st->rm, st->line, m)) || m == excluded)
            continue;
        if (!legal_with_ctx(pos, &ctx, m))
            continue;
        legal++;
        if (root && st->index == 0 && st->shared->currmove && search_elapsed_ms(st->shared) >= CURRMOVE_AFTER_MS)
            st->shared->currmove(st->shared->report_ctx, m, st->line + legal);
        const bool capture = pos->board[move_to(m)] != EMPTY;
        const bool quiet = !capture;
        /* Losing captures are not tried near the horizon outside the PV. */
        if (!root && !pv_node && !in_check && capture && order_score < 0 && depth <= SP(st, see_prune_depth)
            && best > -SCORE_MATE_MIN)
            continue;
        if (quiet)
            quiets[n_quiets++] = m; /* at most MAX_MOVES moves reach here */
        else
            captures[n_captures++] = m;
        /* Late move, futility, history and SEE pruning of late quiet moves, applied below unless the move
         * checks; the costly SEE (does the move hang material near the horizon?) only when nothing else prunes. */
        const bool prunable =
            !root && quiet && best > -SCORE_MATE_MIN && order_score < ORDER_COUNTER
            && ((depth <= SP(st, lmp_max_depth) && legal > (SP(st, lmp_base) + depth * depth) / (2 - improving))
                || futile
                || (depth <= SP(st, history_prune_depth) && order_score < -SP(st, history_prune_margin) * depth)
                || (!pv_node && depth <= SP(st, quiet_see_depth)
                    && !see_ge(pos, m, -SP(st, quiet_see_margin) * depth * depth)));
        const bool checks = gives_check_with_ctx(pos, &check_ctx, m); /* on the board alone, before the move */
        if (prunable && !checks)
            continue; /* a pruned move is never made */
        /* Singular extension: the TT move is searched a ply deeper when every other move, searched to half
         * depth, fails below its TT score less a margin; when even without it the search beats beta, the node
         * is cut (multi-cut); when it only beats the TT score, the TT move is searched a ply shallower. */
        int singular_ext = 0;
        if (m == tt_move && !root && ply < 2 * st->root_depth && depth >= SP(st, se_min_depth)
            && tte.depth >= depth - SP(st, se_tt_depth_slack) && (tte.gen_bound & BOUND_LOWER)
            && tte.score < SCORE_KNOWN_WIN && tte.score > -SCORE_KNOWN_WIN) {
            const int s_beta = tte.score - SP(st, se_margin) * depth;
            st->stack[ply].excluded = m;
            int s_score = search(st, s_beta - 1, s_beta, (depth - 1) / 2, ply, false);
            st->stack[ply].excluded = MOVE_NONE;
            st->pv_len[ply] = ply; /* that search's line is not this node's */
            if (st->stopped)
                return 0;
            if (s_score < s_beta)
                singular_ext = 1;
            else if (s_beta >= beta)
                return s_beta;
            else if (tte.score >= beta)
                singular_ext = -1;
        }
        st->stack[ply].cont = &st->order.cont[piece_kind(pos->board[move_from(m)])][play_index(move_to(m))];
        /* A check whose checker is simply taken (SEE below zero) is not extended: xiangqi's horses, cannons and
         * pawns can check almost every move, and such sacrifices only lengthen the line. */
        const bool losing_check = checks && !see_ge(pos, m, 0);
        make_move_known_check(st, m, checks);
        const bool gives_check = pos->in_check;
        tt_prefetch(st->shared->tt, pos->key); /* only for a move that will be searched */
        st->stack[ply].move = m;
        const uint64_t nodes_before = st->nodes;
        const int check_ext = gives_check && !losing_check && ply < MAX_CHECK_EXTENSION_PLY;
        int new_depth = depth - 1 + (singular_ext ? singular_ext : check_ext);
        int score;
        if (legal == 1) {
            score = -search(st, -beta, -alpha, new_depth, ply + 1, true);
        } else {
            /* Late move reductions for quiet moves searched late. */
            int r = 0;
            if (depth >= SP(st, lmr_min_depth) && legal > SP(st, lmr_min_moves) && quiet && !in_check) {
                r = st->lmr[depth < LMR_TABLE ? depth : LMR_TABLE - 1][legal < LMR_TABLE ? legal : LMR_TABLE - 1];
                r -= pv_node;
                r -= gives_check; /* a late quiet check: one ply less than a late quiet move that does not check */
                r -= order_score >= ORDER_COUNTER;
                r += !improving;
                if (order_score < ORDER_COUNTER)
                    r -= order_score / SP(st, lmr_history_divisor);
                if (r < 0)
                    r = 0;
                if (r > new_depth - 1)
                    r = new_depth - 1 > 0 ? new_depth - 1 : 0;
            }
            score = -search(st, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (score > alpha && r > 0)
                score = -search(st, -alpha - 1, -alpha, new_depth, ply + 1, true);
            if (score > alpha && score < beta)
                score = -search(st, -beta, -alpha, new_depth, ply + 1, true);
        }
        unmake_move(st);
        if (root)
            rootmoves_add_nodes(&st->rm, m, st->nodes - nodes_before);
        if (st->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                st->pv[ply][ply] = m;
                for (int i = ply + 1; i < st->pv_len[ply + 1]; i++)
                    st->pv[ply][i] = st->pv[ply + 1][i];
                st->pv_len[ply] = st->pv_len[ply + 1] > ply + 1 ? st->pv_len[ply + 1] : ply + 1;
                if (score >= beta) {
                    if (quiet)
                        update_quiet_stats(st, ply, m, quiets, n_quiets, depth);
                    update_capture_stats(st, m, captures, n_captures, depth);
                    break;
                }
            }
        }
    }

    /* Step 6. No legal move: mate or stalemate, both lost in xiangqi. */
    if (legal == 0)
        return excluded ? alpha : score_mated_in(ply); /* a singular search: the TT move was the only one */

    if (excluded)
        return best; /* a search without the TT move: neither a table entry nor a correction */
    int bound = best >= beta ? BOUND_LOWER : (alpha > alpha0 ? BOUND_EXACT : BOUND_UPPER);
    /* Teach the correction history where a quiet result says the static eval was wrong. */
    if (!in_check && (best_move == MOVE_NONE || pos->board[move_to(best_move)] == EMPTY)
        && best < SCORE_KNOWN_WIN && best > -SCORE_KNOWN_WIN && !(bound == BOUND_LOWER && best <= static_eval)
        && !(bound == BOUND_UPPER && best >= static_eval))
        corr_update(&st->corr, pos, &cs, best - static_eval, depth);
    tt_store(st->shared->tt, pos->key, ply, best_move, best, raw_eval, depth, bound);
    return best;
}

/* Searches the root (ply 0) in the window (a tuning build first remakes the reduction table if its parameters
 * changed). */
int search_root(SearchThread *st, int alpha, int beta, int depth)
{
#if XQ_TUNE_SEARCH
    if (st->lmr_base != SP(st, lmr_base) || st->lmr_divisor != SP(st, lmr_divisor))
        lmr_table_init(st, SP(st, lmr_base), SP(st, lmr_divisor));
#endif
    st->root_depth = depth;
    return search(st, alpha, beta, depth, 0, false);
}
