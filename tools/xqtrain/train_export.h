/*
 * train_export.h - quantising a float net into an engine net of its shape
 * (src/eval/nnue/nnue.h's Network, written and read by the engine's own
 * nnue_serialise and nnue_parse), the trainer's integer reference evaluation
 * (what the engine computes, bit for bit, written here independently of the
 * engine's kernels) and the export check.
 *
 * Quantisation (round to nearest, halves away from zero), of the folded rows ft_eff (train_model.h):
 *   ft_w_q = round(ft_eff * QA), ft_b_q = round(ft_b * QA)          int16
 *   out_w_q = round(out_w * QB)  (|out_w_q| <= 127)                int16
 *   out_b_q = round(out_b * QA * QB)                                int32
 *
 * Integer reference evaluation (side to move's view, centipawns), in this order:
 *   1. acc[p][j] = ft_b_q[j] + sum of ft_w_q[f][j] over the active features f of perspective p
 *      (train_features of the net's feature set; p = 0 side to move, 1 the other), in int16 (the clipping of
 *      the float net keeps every partial sum within +-16665, so there is no overflow and the order of the terms
 *      is free)
 *   2. v = clamp(acc[p][j], 0, QA)
 *   3. sum = sum over p, j of (int16)(v * out_w_q[b][p * hidden + j]) * v, in int64
 *      (each v * w fits int16: 255 * 127 = 32385; b is the output bucket)
 *   4. eval = (sum / QA + out_b_q[b]) * SCALE / (QA * QB), in int64, where both "/" are C
 *      integer divisions (truncating toward zero): first sum / QA, then the bias is added,
 *      then the product with SCALE is divided by QA * QB = 16320
 * If every bucket satisfies QA * QA * sum_j |out_w_q[b][j]| <= INT32_MAX (reported by the check),
 * step 3 may be done in int32 with the same result.
 *   5. with a second stage (nnue_arch.h): its weights round(w * QW) (int16, |.| <= 2047), its biases
 *      round(b * QX * QW) (int32); x[p * hidden + j] = (v^2 + 256) >> 9 with v of step 2; each layer's sum
 *      (bias + weights . inputs) becomes its next input as (clamp(sum, 0, QX * QW) + QW / 2) / QW; the last
 *      gives o = b4 + w4 . z; then eval = (lin * QX * QW + o * QA * QB) * SCALE / (QA * QB * QX * QW), lin
 *      = sum / QA + out_b_q[b] of step 4.
 * A float net with a second stage differs from its integer net by more than the truncations: its
 * activations are continuous where the integer ones have 128 levels (EXPORT_DEQUANT_TOLERANCE_S2_CP).
 */
#ifndef XQ_TRAIN_EXPORT_H
#define XQ_TRAIN_EXPORT_H

#include "eval/nnue/nnue.h"
#include "train_model.h"

enum {
    EXPORT_CHECK_MAX = 10000, /* positions the export check evaluates */
};

/* Default mean |float eval - integer eval| (cp) above which the final export fails (see tools/xqtrain/README.md). */
#define EXPORT_MEAN_TOLERANCE_CP 5.0
/* Max |dequantised float eval - integer eval| (cp): the two truncating divisions lose < 1 + 400 / 16320. */
#define EXPORT_DEQUANT_TOLERANCE_CP 1.05
/* The same with a second stage, whose activations the integer net rounds to 1/127 (measured: 1.02-1.12 cp on
 * second stages trained from n11a, 5.17 cp on a fresh net trained with one, 2.8 cp on
 * tests/test_xqtrain_stage2.c's active random one; tools/xqtrain/README.md). */
#define EXPORT_DEQUANT_TOLERANCE_S2_CP 10.0

/* The header fields of a .nnue file, as stored (any version). */
typedef struct NnueHeader {
    uint32_t version, feature_set, inputs, hidden, buckets, qa, qb, scale, payload_size, checksum;
    uint32_t l2, l3; /* the second stage's widths (version 3; 0 before) */
    uint32_t actual_checksum; /* nnue_file_checksum of the header and the payload bytes present */
    char desc[NNUE_DESC_SIZE_V2 + 1]; /* the description field of the file's version */
} NnueHeader;

/* What the export check measured. */
typedef struct ExportCheck {
    size_t positions;
    double mean_diff, max_diff;  /* |float net - integer reference| in cp */
    double max_dequant_diff;     /* |dequantised float net - integer reference| in cp */
    double dequant_limit;        /* the limit of max_dequant_diff: EXPORT_DEQUANT_TOLERANCE_(S2_)CP */
    double float_loss, quant_loss; /* mean loss of the float and the dequantised net on those positions */
    int64_t int32_worst;         /* max over buckets of QA * QA * sum |out_w_q| */
    bool passed;
} ExportCheck;

/* Quantises a float net (its folded rows ft_eff) into a new engine net of its shape with a description (its first
 * NNUE_DESC_SIZE bytes are written); NULL (with err) if the engine does not run the shape or a value is out of
 * range. Free with nnue_net_free. */
Network *qnet_quantise(const Net *net, const char *desc, XqError *err);
/* The file image of an engine net (nnue_serialise), malloc'd, *size bytes; NULL if out of memory. */
uint8_t *qnet_image(const Network *q, size_t *size);
/* Reads the header of a .nnue file of n bytes; false (with err) if it is shorter than a header or not one. */
bool nnue_parse_header(const uint8_t *buf, size_t n, NnueHeader *h, XqError *err);
/* Reads a file whole into a malloc'd buffer (*n bytes); NULL with err on failure. */
uint8_t *read_whole_file(const char *path, size_t *n, XqError *err);
/* Reads and parses a .nnue file with the engine's checks (nnue_load_file); NULL with err naming the file. */
Network *qnet_read_file(const char *path, XqError *err);
/* Integer reference evaluation in centipawns, side to move's view. */
int qnet_eval(const Network *q, const TrainPos *p);
/* Allocates a float net of q's shape holding q dequantised: real rows, zero virtual rows; false if out of memory. */
bool qnet_dequantise(const Network *q, Net *net);
/*
 * Compares the float net with the integer reference of a serialised net (size bytes) on up to EXPORT_CHECK_MAX
 * positions; chk->passed if the mean difference is within mean_tolerance (cp) and the dequantised net within
 * EXPORT_DEQUANT_TOLERANCE_CP everywhere. False (with err) if the image does not parse.
 */
bool export_check(const Net *net, const uint8_t *file, size_t size, const TrainSet *positions, const LossSpec *loss,
                  double mean_tolerance, ExportCheck *chk, XqError *err);
/* Writes a net file image of size bytes to path; false with err filled if it cannot. */
bool write_net_file(const char *path, const uint8_t *file, size_t size, XqError *err);
/* Quantises, serialises, parses back, checks on positions and writes path only if the check passes. */
bool export_net(const Net *net, const char *desc, const char *path, const TrainSet *positions, const LossSpec *loss,
                double mean_tolerance, ExportCheck *chk, XqError *err);

#endif
