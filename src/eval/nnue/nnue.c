/* nnue.c - the lazily updated accumulator stack, its cache per king square, and the evaluation (see nnue.h). */
#include "nnue.h"

#include <string.h>

enum { EVAL_LIMIT = SCORE_KNOWN_WIN - 1 };

/* Plain square of a board square. */
static inline uint8_t plain_sq(int sq) { return (uint8_t)nnue_sq(sq_file(sq), sq_rank(sq)); }

/* Row of input f. */
static inline const int16_t *ft_row(const Network *net, int f)
{
    return net->ft_weight + (size_t)f * (size_t)net->shape.hidden;
}

/* Sums a perspective's feature rows for every piece of pos on top of the bias into out (no cache). */
static void refresh_full(const Network *net, const NnueKernels *k, const Position *pos, int persp, int16_t *out)
{
    const int16_t *rows[NNUE_MAX_ACTIVE];
    int n = 0;
    const NnueView view = nnue_view(net->shape.feature_set, persp, plain_sq(pos_king_sq(pos, persp)));
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++) {
        int sq = pos->piece_sq[id];
        if (sq)
            rows[n++] = ft_row(net, nnue_view_feature(view, persp, piece_side(id), piece_type(id), plain_sq(sq)));
    }
    k->update(out, net->ft_bias, rows, n, NULL, 0, net->shape.hidden);
}

/* Empties the cache: every entry holds the bias and no piece. */
static void cache_clear(NnueStack *s, const Network *net)
{
    const size_t bytes = (size_t)net->shape.hidden * sizeof(int16_t);
    for (int persp = RED; persp <= BLACK; persp++)
        for (int slot = 0; slot < NNUE_KING_SLOTS; slot++) {
            NnueCacheEntry *e = &s->cache[persp][slot];
            memcpy(e->v, net->ft_bias, bytes);
            memset(e->sq, NNUE_NO_SQ, sizeof e->sq);
        }
}

/* Refreshes a perspective into out through its cache entry for the king's square: the entry is brought to
 * pos by removing the rows of pieces that left or moved and adding those of pieces that came or moved. */
static void refresh_cached(const Network *net, NnueStack *s, const Position *pos, int persp, int16_t *out)
{
    const uint8_t ksq = plain_sq(pos_king_sq(pos, persp));
    NnueCacheEntry *e = &s->cache[persp][nnue_king_slot(ksq)];
    const NnueView view = nnue_view(net->shape.feature_set, persp, ksq);
    const int16_t *add[2 * SIDE_PIECES], *sub[2 * SIDE_PIECES];
    int n_add = 0, n_sub = 0;
    for (int i = 0; i < 2 * SIDE_PIECES; i++) {
        const int id = RED_TAG + i, side = piece_side(id), type = piece_type(id);
        const uint8_t now = pos->piece_sq[id] ? plain_sq(pos->piece_sq[id]) : NNUE_NO_SQ;
        if (now == e->sq[i])
            continue;
        if (e->sq[i] != NNUE_NO_SQ)
            sub[n_sub++] = ft_row(net, nnue_view_feature(view, persp, side, type, e->sq[i]));
        if (now != NNUE_NO_SQ)
            add[n_add++] = ft_row(net, nnue_view_feature(view, persp, side, type, now));
        e->sq[i] = now;
    }
    s->k->update(e->v, e->v, add, n_add, sub, n_sub, net->shape.hidden);
    memcpy(out, e->v, (size_t)net->shape.hidden * sizeof(int16_t));
    s->cache_rows += (uint64_t)(n_add + n_sub);
}

/* Starts a stack at pos with one fully computed entry and an empty cache. */
void nnue_reset(NnueStack *s, const Network *net, const Position *pos, const NnueKernels *k)
{
    s->k = k ? k : nnue_best_kernels();
    s->top = 0;
    cache_clear(s, net);
    NnueAccum *a = &s->acc[0];
    for (int persp = RED; persp <= BLACK; persp++) {
        refresh_cached(net, s, pos, persp, a->v[persp]);
        a->computed[persp] = true;
        a->king_sq[persp] = plain_sq(pos_king_sq(pos, persp));
    }
    a->n_dirty = 0;
}

/* Pushes an entry that inherits the king squares and has no accumulator yet. */
static NnueAccum *push_entry(NnueStack *s)
{
    NnueAccum *prev = &s->acc[s->top], *a = &s->acc[++s->top];
    a->computed[RED] = a->computed[BLACK] = false;
    a->king_sq[RED] = prev->king_sq[RED];
    a->king_sq[BLACK] = prev->king_sq[BLACK];
    a->n_dirty = 0;
    return a;
}

/* Records move m, about to be played on pos. */
void nnue_push(NnueStack *s, const Position *pos, Move m)
{
    NnueAccum *a = push_entry(s);
    const int from = move_from(m), to = move_to(m);
    const int mover = pos->board[from], victim = pos->board[to];
    a->dirty[a->n_dirty++] = (NnueDirty){ (uint8_t)piece_side(mover), (uint8_t)piece_type(mover), plain_sq(from),
                                          plain_sq(to) };
    if (victim)
        a->dirty[a->n_dirty++] = (NnueDirty){ (uint8_t)piece_side(victim), (uint8_t)piece_type(victim), plain_sq(to),
                                              NNUE_NO_SQ };
    if (piece_type(mover) == KING)
        a->king_sq[piece_side(mover)] = plain_sq(to);
}

/* Records a null move: the board, so every accumulator, stays as it was. */
void nnue_push_null(NnueStack *s) { push_entry(s); }

/* Brings entry i's perspective up to date from entry i - 1's (which is computed, in the same view). */
static void apply_dirty(const Network *net, NnueStack *s, int i, int persp)
{
    const NnueAccum *prev = &s->acc[i - 1];
    NnueAccum *a = &s->acc[i];
    const NnueView view = nnue_view(net->shape.feature_set, persp, a->king_sq[persp]);
    const int16_t *add[NNUE_MAX_DIRTY], *sub[NNUE_MAX_DIRTY];
    int n_add = 0, n_sub = 0;
    for (int d = 0; d < a->n_dirty; d++) {
        const NnueDirty *dp = &a->dirty[d];
        if (dp->from != NNUE_NO_SQ)
            sub[n_sub++] = ft_row(net, nnue_view_feature(view, persp, dp->side, dp->type, dp->from));
        if (dp->to != NNUE_NO_SQ)
            add[n_add++] = ft_row(net, nnue_view_feature(view, persp, dp->side, dp->type, dp->to));
    }
    s->k->update(a->v[persp], prev->v[persp], add, n_add, sub, n_sub, net->shape.hidden);
    a->computed[persp] = true;
    s->updates++;
}

/* Makes the top entry's accumulator of a perspective current: replays moves from the nearest computed
 * ancestor, unless that perspective's view changed on the way, then refreshes through the cache. */
static void update_perspective(const Network *net, NnueStack *s, const Position *pos, int persp)
{
    int i = s->top;
    while (!s->acc[i].computed[persp]) {
        if (nnue_view_changes(net->shape.feature_set, s->acc[i - 1].king_sq[persp], s->acc[i].king_sq[persp])) {
            refresh_cached(net, s, pos, persp, s->acc[s->top].v[persp]);
            s->acc[s->top].computed[persp] = true;
            s->refreshes++;
            return;
        }
        i--;
    }
    for (i++; i <= s->top; i++)
        apply_dirty(net, s, i, persp);
}

/* Pieces on the board besides the two kings. */
static int count_pieces(const Position *pos)
{
    int n = 0;
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++)
        n += pos->piece_sq[id] != 0;
    return n - 2;
}

/* A second-stage activation: clamp(sum, 0, QX * QW) / QW rounded, on 0..QX. */
static inline int16_t stage2_activation(int32_t sum)
{
    int32_t v = sum < 0 ? 0 : (sum > NNUE_QXW ? NNUE_QXW : sum);
    return (int16_t)((v + NNUE_QW / 2) >> NNUE_QW_SHIFT);
}

/* The second stage of a bucket on the accumulators: its output o (1.0 = NNUE_QXW; nnue_arch.h). */
static int64_t stage2(const Network *net, const NnueKernels *k, const int16_t *stm, const int16_t *other, int bucket)
{
    const int n = net->shape.hidden, l2 = net->shape.l2, l3 = net->shape.l3;
    int16_t x[2 * NNUE_HIDDEN_MAX], y[NNUE_L2_MAX], z[NNUE_L3_MAX];
    int32_t sum[NNUE_L2_MAX];
    k->stage2_input(x, stm, other, n);
    k->affine(sum, x, net->l2_weight + (size_t)bucket * (size_t)l2 * 2 * (size_t)n, net->l2_bias + bucket * l2,
              2 * n, l2);
    for (int i = 0; i < l2; i++)
        y[i] = stage2_activation(sum[i]);
    const int16_t *w3 = net->l3_weight + (size_t)bucket * (size_t)(l3 * l2);
    int64_t o = net->l4_bias[bucket];
    for (int j = 0; j < l3; j++) {
        int32_t t = net->l3_bias[bucket * l3 + j];
        for (int i = 0; i < l2; i++)
            t += y[i] * w3[j * l2 + i];
        z[j] = stage2_activation(t);
        o += (int64_t)z[j] * net->l4_weight[bucket * l3 + j];
    }
    return o;
}

/* The output layer (and the second stage, where the net has one) on a pair of current accumulators, clamped
 * below the known-win band. */
static int output(const Network *net, const NnueKernels *k, const int16_t *stm, const int16_t *other, int pieces)
{
    enum { QAB = NNUE_QA * NNUE_QB };
    const int bucket = nnue_output_bucket(pieces);
    int64_t lin = k->output(stm, other, nnue_out_row(net, bucket), net->shape.hidden) / NNUE_QA + net->out_bias[bucket];
    int64_t v = net->shape.l2 ? (lin * NNUE_QXW + stage2(net, k, stm, other, bucket) * QAB) * NNUE_SCALE
                                    / ((int64_t)QAB * NNUE_QXW)
                              : lin * NNUE_SCALE / QAB;
    return (int)(v > EVAL_LIMIT ? EVAL_LIMIT : (v < -EVAL_LIMIT ? -EVAL_LIMIT : v));
}

/* Evaluates the stack's top position for the side to move. */
int nnue_evaluate(const Network *net, NnueStack *s, const Position *pos)
{
    update_perspective(net, s, pos, RED);
    update_perspective(net, s, pos, BLACK);
    const NnueAccum *a = &s->acc[s->top];
    return output(net, s->k, a->v[pos->side], a->v[pos->side ^ 1], count_pieces(pos));
}

/* Evaluates pos from scratch. */
int nnue_evaluate_fresh(const Network *net, const Position *pos, const NnueKernels *k)
{
    int16_t acc[2][NNUE_HIDDEN_MAX];
    if (!k)
        k = nnue_best_kernels();
    refresh_full(net, k, pos, RED, acc[RED]);
    refresh_full(net, k, pos, BLACK, acc[BLACK]);
    return output(net, k, acc[pos->side], acc[pos->side ^ 1], count_pieces(pos));
}
