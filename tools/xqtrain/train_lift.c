/* train_lift.c - widening a net and lifting feature set 1 to feature set 2, the evaluation unchanged. */
#include "train_lift.h"

#include <string.h>

/* Can a net of shape `from` be lifted to shape `to`? */
bool net_can_lift(const NnueShape *from, const NnueShape *to)
{
    bool sets = from->feature_set == to->feature_set
             || (from->feature_set == NNUE_FEATURE_SET_PSQ && to->feature_set == NNUE_FEATURE_SET_KING);
    bool stage2 = from->l2 == 0 || (to->l2 == from->l2 && to->l3 == from->l3 && to->hidden == from->hidden);
    return sets && to->hidden >= from->hidden && stage2;
}

/* Copies the first n floats of each of `rows` rows of width hf (from) into rows of width ht (to). */
static void copy_rows(float *to, size_t ht, const float *from, size_t hf, size_t rows)
{
    for (size_t r = 0; r < rows; r++)
        memcpy(to + r * ht, from + r * hf, hf * sizeof *to);
}

/* Fills out (allocated with shape `to`) from `from`. */
bool net_lift(const Net *from, const NnueShape *to, uint64_t seed, Net *out, XqError *err)
{
    if (!net_can_lift(&from->shape, to)) {
        snprintf(err->msg, sizeof err->msg, "cannot lift set %d, hidden %d, stage %dx%d to set %d, hidden %d, stage "
                 "%dx%d: width may grow, set 1 become 2, a stage be added (one kept as is)", from->shape.feature_set,
                 from->shape.hidden, from->shape.l2, from->shape.l3, to->feature_set, to->hidden, to->l2, to->l3);
        return false;
    }
    if (!net_alloc(out, to)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return false;
    }
    size_t hf = (size_t)from->shape.hidden, ht = (size_t)to->hidden;
    TrainRng r = { seed };
    for (size_t i = 0; i < (size_t)to->inputs; i++) /* the new units' real rows, row by row */
        for (size_t j = hf; j < ht; j++)
            out->ft_w[i * ht + j] = rng_ft_init(&r);
    if (from->shape.feature_set == to->feature_set) {
        copy_rows(out->ft_w, ht, from->ft_w, hf, (size_t)from->rows); /* the real rows, then the virtual ones */
    } else {
        copy_rows(out->virt, ht, from->ft_w, hf, (size_t)from->shape.inputs); /* A's rows: the shared psq rows */
        copy_rows(out->groups, ht, from->groups, hf, TRAIN_GROUP_ROWS);
    }
    memcpy(out->ft_b, from->ft_b, hf * sizeof *out->ft_b);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        copy_rows(out->out_w + b * 2 * ht, ht, from->out_w + b * 2 * hf, hf, 2); /* both halves of the bucket */
    memcpy(out->out_b, from->out_b, NNUE_OUTPUT_BUCKETS * sizeof *out->out_b);
    if (from->shape.l2) { /* the same widths and first layer: the same blocks */
        memcpy(out->s2_w, from->s2_w, nnue_stage2_weights(to) * sizeof *out->s2_w);
        memcpy(out->s2_b, from->s2_b, nnue_stage2_biases(to) * sizeof *out->s2_b);
    } else {
        net_init_stage2(out, rng_next(&r));
    }
    out->qat = from->qat;
    out->factorised = from->factorised;
    net_sync(out);
    return true;
}
