/*
 * nnue_arch.h - the network's architecture, quantisation and file format,
 * shared by the engine (nnue.c loads and runs nets) and the trainer
 * (tools/xqtrain writes them).
 *
 * Architecture: NNUE_FEATURES (1260, nnue_features.h) -> NNUE_HIDDEN per
 * perspective (the feature transformer, int16 accumulators), the two
 * accumulators [side to move, other side] through SCReLU (clamp(x, 0, 1)^2),
 * then one of NNUE_OUTPUT_BUCKETS linear outputs, picked by the number of
 * pieces other than kings (nnue_output_bucket).
 *
 * Float model:  out = sum_i screlu(acc_i) * w_i + b;  eval (centipawns) = out * NNUE_SCALE.
 * Quantised:    feature weights and biases * NNUE_QA (int16); output weights * NNUE_QB (int16, |w| <= 127
 *               so that clamp(acc) * w fits int16); output bias * NNUE_QA * NNUE_QB (int32).
 *               eval = (sum_i clamp(acc_i, 0, QA)^2 * w_i / QA + b) * SCALE / (QA * QB).
 *
 * File (all little-endian):
 *   header, NNUE_HEADER_SIZE (128) bytes:
 *     0   8 bytes magic "JJNNUE\r\n"
 *     8   uint32 version (NNUE_VERSION; NNUE_VERSION_PAYLOAD_SUM files still load)
 *     12  uint32 feature set (NNUE_FEATURE_SET)
 *     16  uint32 inputs, 20 uint32 hidden, 24 uint32 output buckets
 *     28  uint32 QA, 32 uint32 QB, 36 uint32 SCALE
 *     40  uint32 payload size in bytes
 *     44  uint32 FNV-1a (32-bit) checksum of the whole file but these 4 bytes (version 2: the header's fields
 *         and description too, so a description edited after export fails); version 1: of the payload only
 *     48  80 bytes: a description, NUL-padded (provenance; not interpreted)
 *   payload:
 *     int16 ft_weight[inputs][hidden]      (feature-major: one row per input)
 *     int16 ft_bias[hidden]
 *     int16 out_weight[buckets][2 * hidden] (side to move's half first)
 *     int32 out_bias[buckets]
 */
#ifndef XQ_NNUE_ARCH_H
#define XQ_NNUE_ARCH_H

#include <stddef.h>

#include "nnue_features.h"

enum {
    NNUE_HIDDEN = 256,
    NNUE_OUTPUT_BUCKETS = 8,
    NNUE_BUCKET_DIVISOR = 4, /* bucket = (pieces other than kings) / this, capped */
    NNUE_QA = 255,
    NNUE_QB = 64,
    NNUE_SCALE = 400,
    NNUE_OUT_WEIGHT_MAX = 127, /* |quantised output weight| */
    NNUE_VERSION = 2,             /* the checksum covers the whole file but itself */
    NNUE_VERSION_PAYLOAD_SUM = 1, /* older files: the checksum covers the payload only (still loaded) */
    NNUE_FEATURE_SET = 1,      /* nnue_features.h as it is: 2 x 7 x 90, mirrored by king file */
    NNUE_HEADER_SIZE = 128,
    NNUE_MAGIC_SIZE = 8,       /* header offsets of the fields listed above: */
    NNUE_OFF_VERSION = 8, NNUE_OFF_FEATURE_SET = 12, NNUE_OFF_INPUTS = 16, NNUE_OFF_HIDDEN = 20,
    NNUE_OFF_BUCKETS = 24, NNUE_OFF_QA = 28, NNUE_OFF_QB = 32, NNUE_OFF_SCALE = 36, NNUE_OFF_PAYLOAD = 40,
    NNUE_OFF_CHECKSUM = 44,
    NNUE_DESC_OFFSET = 48,
    NNUE_DESC_SIZE = 80,
    NNUE_PAYLOAD_SIZE = 2 * (NNUE_FEATURES * NNUE_HIDDEN + NNUE_HIDDEN + NNUE_OUTPUT_BUCKETS * 2 * NNUE_HIDDEN)
                      + 4 * NNUE_OUTPUT_BUCKETS,
    NNUE_FILE_SIZE = NNUE_HEADER_SIZE + NNUE_PAYLOAD_SIZE,
};

#define NNUE_MAGIC "JJNNUE\r\n"

/* Output bucket of a position with this many pieces besides the two kings (0..30). */
static inline int nnue_output_bucket(int pieces)
{
    int b = pieces / NNUE_BUCKET_DIVISOR;
    return b < NNUE_OUTPUT_BUCKETS ? b : NNUE_OUTPUT_BUCKETS - 1;
}

/* FNV-1a 32-bit hash continued from h over a byte string. */
static inline uint32_t nnue_fnv1a_more(uint32_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* FNV-1a 32-bit hash of a byte string. */
static inline uint32_t nnue_fnv1a(const uint8_t *p, size_t n) { return nnue_fnv1a_more(2166136261u, p, n); }

#endif
