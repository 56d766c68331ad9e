/*
 * train_lift.h - starting a net of one shape from a trained net of another,
 * so that it evaluates exactly as the trained one did: a wider first layer,
 * and feature set 1 lifted to feature set 2 (king buckets).
 *
 * Lifting net A (feature set a, width ha) to shape B (feature set b, width
 * hb >= ha; b = a, or a = 1 and b = 2):
 *   - units j < ha keep A's parameters: bias, output weights of both halves
 *     (unit j of the side to move's half and of the other's), and first-layer
 *     rows. With a = b the real and virtual rows are copied row for row. From
 *     set 1 to set 2, A's real row f goes to B's psq virtual row f (shared by
 *     the six king buckets), A's group rows (material, file, rank) to B's,
 *     and B's real rows are 0; so B's folded row b * 1260 + f is
 *     (((0 + A's row f) + material) + file) + rank, A's folded row f to the
 *     last bit.
 *   - units j >= ha get random real rows (the fresh-net initialisation,
 *     seeded), bias 0, zero virtual rows and zero output weights: they add
 *     exactly 0 to every evaluation until training moves their output weights
 *     (random rows give them activations, so their output weights get a
 *     gradient from the first batch).
 *   - the output biases are A's.
 *   - a second stage: B may add one A lacks (net_init_stage2, seeded: zero
 *     output weights, so it adds exactly 0 until trained); one A has is
 *     copied, B keeping its widths and A's first-layer width (its weights
 *     are per first-layer unit).
 * B's float evaluation then equals A's on every position, bit for bit (the
 * forward pass adds the new units' zero products to the same partial sums).
 */
#ifndef XQ_TRAIN_LIFT_H
#define XQ_TRAIN_LIFT_H

#include "train_model.h"

/* Can a net of shape `from` be lifted to shape `to` (the same or a wider width; set 1 to 1, 2 to 2 or 1 to 2; a
 * second stage added, or kept as it is at the same width)? */
bool net_can_lift(const NnueShape *from, const NnueShape *to);
/* Allocates out with shape `to` and fills it from `from` as above (its qat and factorised flags too); false with
 * err filled if the shapes do not allow it or out of memory. */
bool net_lift(const Net *from, const NnueShape *to, uint64_t seed, Net *out, XqError *err);

#endif
