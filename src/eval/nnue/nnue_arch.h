/*
 * nnue_arch.h - the network's architecture, quantisation and file format,
 * shared by the engine (nnue.c runs nets, nnue_file.c loads them) and the
 * trainer (tools/xqtrain writes them).
 *
 * Architecture: `inputs` features (nnue_features.h: feature set 1, 1260
 * piece-square inputs; feature set 2, the same per king bucket, 7560) ->
 * `hidden` per perspective (the feature transformer, int16 accumulators), the
 * two accumulators [side to move, other side] through SCReLU
 * (clamp(x, 0, 1)^2), then one of NNUE_OUTPUT_BUCKETS linear outputs, picked
 * by the number of pieces other than kings (nnue_output_bucket). A net may
 * add a second stage beside the linear output (l2, l3 > 0): per output bucket,
 * the same 2 x hidden activations -> l2 -> l3 -> 1, CReLU (clamp(x, 0, 1))
 * between, its output added to the linear one (a net without it is the
 * same net with a zero second stage). The shape (feature set, inputs,
 * hidden, l2, l3) is read from the file's header (version 3); versions 1
 * and 2 have the one shape NNUE_SHAPE_V1 (1260 -> 256, no second stage).
 *
 * Float model:  x = screlu(acc) (2 * hidden values, side to move's first);
 *               out = sum_i x_i * w_i + b  [+ w4 . crelu(W3 crelu(W2 x + b2) + b3) + b4];
 *               eval (centipawns) = out * NNUE_SCALE.
 * Quantised:    feature weights and biases * NNUE_QA (int16); output weights * NNUE_QB (int16, |w| <= 127
 *               so that clamp(acc) * w fits int16); output bias * NNUE_QA * NNUE_QB (int32).
 *               lin = sum_i clamp(acc_i, 0, QA)^2 * w_i / QA + b  (the first "/" truncating, in int64)
 *               Without a second stage: eval = lin * SCALE / (QA * QB).
 *   Second stage: weights * NNUE_QW (int16, |w| <= NNUE_L_WEIGHT_MAX), biases * NNUE_QX * NNUE_QW (int32,
 *               |b| <= NNUE_L_BIAS_MAX); activations on 0..NNUE_QX:
 *               xq_i = (clamp(acc_i, 0, QA)^2 + 256) >> 9             (0..127, about x_i * 127)
 *               yq = (clamp(W2q xq + b2q, 0, QX * QW) + QW / 2) >> 10   (int32 sums; 0..127)
 *               zq = (clamp(W3q yq + b3q, 0, QX * QW) + QW / 2) >> 10
 *               o = w4q . zq + b4q                                     (out2 = o / (QX * QW))
 *               eval = (lin * QX * QW + o * QA * QB) * SCALE / (QA * QB * QX * QW)   (int64, truncating)
 *
 * File (all little-endian):
 *   header, NNUE_HEADER_SIZE (128) bytes:
 *     0   8 bytes magic "JJNNUE\r\n"
 *     8   uint32 version (NNUE_VERSION = 3; versions 1 and 2 still load)
 *     12  uint32 feature set (1 or 2)
 *     16  uint32 inputs, 20 uint32 hidden, 24 uint32 output buckets
 *     28  uint32 QA, 32 uint32 QB, 36 uint32 SCALE
 *     40  uint32 payload size in bytes
 *     44  uint32 FNV-1a (32-bit) checksum: versions 2 and 3, of the whole file but these 4 bytes (the header's
 *         fields and description too, so a description edited after export fails); version 1, of the payload
 *     48  the description, NUL-padded (provenance; not interpreted): 80 bytes in versions 1 and 2, 64 in 3
 *     112 (version 3) uint32 second-stage widths l2, 116 uint32 l3: both 0 (no second stage) or both in
 *         1..NNUE_L2_MAX, 1..NNUE_L3_MAX
 *     120 (version 3) 8 reserved bytes, 0
 *   payload:
 *     int16 ft_weight[inputs][hidden]      (feature-major: one row per input)
 *     int16 ft_bias[hidden]
 *     int16 out_weight[buckets][2 * hidden] (side to move's half first)
 *     int32 out_bias[buckets]
 *   then, with a second stage:
 *     int16 l2_weight[buckets][l2][2 * hidden]  int32 l2_bias[buckets][l2]
 *     int16 l3_weight[buckets][l3][l2]          int32 l3_bias[buckets][l3]
 *     int16 l4_weight[buckets][l3]              int32 l4_bias[buckets]
 */
#ifndef XQ_NNUE_ARCH_H
#define XQ_NNUE_ARCH_H

#include <stddef.h>

#include "nnue_features.h"

enum {
    NNUE_HIDDEN_V1 = 256,      /* the width of version 1 and 2 files */
    NNUE_HIDDEN_MAX = 1024,    /* the widest first layer this engine runs */
    NNUE_HIDDEN_STEP = 32,     /* a width is a multiple of this (the SIMD kernels' lanes) */
    NNUE_OUTPUT_BUCKETS = 8,
    NNUE_BUCKET_DIVISOR = 4, /* bucket = (pieces other than kings) / this, capped */
    NNUE_QA = 255,
    NNUE_QB = 64,
    NNUE_SCALE = 400,
    NNUE_OUT_WEIGHT_MAX = 127, /* |quantised output weight| */
    NNUE_VERSION = 3,             /* the shape from the header; the checksum covers the whole file but itself */
    NNUE_VERSION_WHOLE_SUM = 2,   /* the shape of NNUE_SHAPE_V1, the checksum of version 3 (still loaded) */
    NNUE_VERSION_PAYLOAD_SUM = 1, /* older files: the checksum covers the payload only (still loaded) */
    NNUE_HEADER_SIZE = 128,
    NNUE_MAGIC_SIZE = 8,       /* header offsets of the fields listed above: */
    NNUE_OFF_VERSION = 8, NNUE_OFF_FEATURE_SET = 12, NNUE_OFF_INPUTS = 16, NNUE_OFF_HIDDEN = 20,
    NNUE_OFF_BUCKETS = 24, NNUE_OFF_QA = 28, NNUE_OFF_QB = 32, NNUE_OFF_SCALE = 36, NNUE_OFF_PAYLOAD = 40,
    NNUE_OFF_CHECKSUM = 44,
    NNUE_DESC_OFFSET = 48,
    NNUE_DESC_SIZE_V2 = 80,    /* the description field of versions 1 and 2 */
    NNUE_DESC_SIZE = 64,       /* the description field of version 3 (what a written net keeps) */
    NNUE_OFF_L2 = 112, NNUE_OFF_L3 = 116, NNUE_OFF_RESERVED = 120,
    NNUE_L2_MAX = 32,          /* the widest second-stage layers this engine runs */
    NNUE_L3_MAX = 32,
    NNUE_QX = 127,             /* second-stage activations: 0..QX stands for 0..1 */
    NNUE_QW = 1024,            /* second-stage weight scale */
    NNUE_QW_SHIFT = 10,        /* log2(NNUE_QW) */
    NNUE_QXW = NNUE_QX * NNUE_QW, /* second-stage sums and biases: 1.0 = QX * QW */
    NNUE_X_SHIFT = 9,          /* xq = (clamp(acc)^2 + 2^8) >> 9: QA^2 / 2^9 = 127.0 */
    NNUE_L_WEIGHT_MAX = 2047,  /* |second-stage weight|: 2 * 1024 * 127 * 2047 sums fit int32 */
    NNUE_L_BIAS_MAX = 1 << 30, /* |second-stage bias| */
};

/* The shape of a net: what its header says and its arrays' sizes follow from. */
typedef struct NnueShape {
    int feature_set; /* NNUE_FEATURE_SET_PSQ or NNUE_FEATURE_SET_KING */
    int inputs;      /* nnue_feature_count(feature_set) */
    int hidden;      /* first-layer width per perspective, a multiple of NNUE_HIDDEN_STEP up to NNUE_HIDDEN_MAX */
    int l2, l3;      /* second-stage widths, both 0 without one */
} NnueShape;

/* The one shape of version 1 and 2 files (and of the nets built into the engine until version 3). */
static const NnueShape NNUE_SHAPE_V1 = { NNUE_FEATURE_SET_PSQ, NNUE_FEATURES, NNUE_HIDDEN_V1, 0, 0 };

#define NNUE_MAGIC "JJNNUE\r\n"

/* Are these second-stage widths ones the engine runs: none (0 x 0), or 1..NNUE_L2_MAX x 1..NNUE_L3_MAX? */
static inline bool nnue_stage2_ok(long l2, long l3)
{
    return (l2 == 0 && l3 == 0) || (l2 >= 1 && l2 <= NNUE_L2_MAX && l3 >= 1 && l3 <= NNUE_L3_MAX);
}

/* Second-stage weights (int16) of a net of this shape, all buckets (0 without a second stage). */
static inline size_t nnue_stage2_weights(const NnueShape *s)
{
    size_t l2 = (size_t)s->l2, l3 = (size_t)s->l3;
    return s->l2 ? NNUE_OUTPUT_BUCKETS * (l2 * 2 * (size_t)s->hidden + l3 * l2 + l3) : 0;
}

/* Second-stage biases (int32) of a net of this shape, all buckets (0 without a second stage). */
static inline size_t nnue_stage2_biases(const NnueShape *s)
{
    return s->l2 ? NNUE_OUTPUT_BUCKETS * ((size_t)s->l2 + (size_t)s->l3 + 1) : 0;
}

/* Payload bytes of a net of this shape. */
static inline size_t nnue_payload_size(const NnueShape *s)
{
    size_t h = (size_t)s->hidden;
    return 2 * ((size_t)s->inputs * h + h + NNUE_OUTPUT_BUCKETS * 2 * h) + 4 * NNUE_OUTPUT_BUCKETS
         + 2 * nnue_stage2_weights(s) + 4 * nnue_stage2_biases(s);
}

/* Whole file bytes of a net of this shape. */
static inline size_t nnue_file_size(const NnueShape *s) { return NNUE_HEADER_SIZE + nnue_payload_size(s); }

/* Is this a shape the engine runs (a known feature set with its input count, widths it supports)? */
static inline bool nnue_shape_ok(const NnueShape *s)
{
    return (s->feature_set == NNUE_FEATURE_SET_PSQ || s->feature_set == NNUE_FEATURE_SET_KING)
        && s->inputs == nnue_feature_count(s->feature_set) && s->hidden >= NNUE_HIDDEN_STEP
        && s->hidden <= NNUE_HIDDEN_MAX && s->hidden % NNUE_HIDDEN_STEP == 0 && nnue_stage2_ok(s->l2, s->l3);
}

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
