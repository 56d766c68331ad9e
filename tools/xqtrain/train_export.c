/* train_export.c - quantisation into an engine net, the integer reference evaluation and the export check. */
#include "train_export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { QAB = NNUE_QA * NNUE_QB };

/* Loads a little-endian 32-bit value. */
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Rounds x * scale to the nearest integer into *out; false if outside [lo, hi]. */
static bool quantise_one(float x, double scale, long lo, long hi, long *out)
{
    double r = round((double)x * scale);
    if (!(r >= (double)lo && r <= (double)hi))
        return false;
    *out = (long)r;
    return true;
}

/* Quantises n floats times scale within [-lim, lim] into out16 (int16) or, if it is NULL, out32 (int32); false if
 * one is outside. */
static bool quantise_span(const float *x, size_t n, double scale, long lim, int16_t *out16, int32_t *out32)
{
    long v;
    for (size_t i = 0; i < n; i++) {
        if (!quantise_one(x[i], scale, -lim, lim, &v))
            return false;
        if (out16)
            out16[i] = (int16_t)v;
        else
            out32[i] = (int32_t)v;
    }
    return true;
}

/* Quantises n floats times scale into int16 within [-lim, lim]; false if one is outside. */
static bool quantise_int16(const float *x, size_t n, double scale, long lim, int16_t *out)
{
    return quantise_span(x, n, scale, lim, out, NULL);
}

/* Quantises n floats times scale into int32 within [-lim, lim]; false if one is outside. */
static bool quantise_int32(const float *x, size_t n, double scale, long lim, int32_t *out)
{
    return quantise_span(x, n, scale, lim, NULL, out);
}

/* Quantises the second stage (weights * QW, biases * QX * QW) into q's arrays, bucket by bucket; true without one. */
static bool quantise_stage2(const Net *net, Network *q)
{
    const int l2 = net->shape.l2, l3 = net->shape.l3, in = 2 * net->shape.hidden;
    bool ok = true;
    for (int b = 0; ok && l2 && b < NNUE_OUTPUT_BUCKETS; b++) {
        S2Layers L = train_s2_layers(&net->shape, net->s2_w, net->s2_b, b);
        ok = quantise_int16(L.w2, (size_t)(l2 * in), NNUE_QW, NNUE_L_WEIGHT_MAX, q->l2_weight + (size_t)b * l2 * in)
          && quantise_int32(L.b2, (size_t)l2, NNUE_QXW, NNUE_L_BIAS_MAX, q->l2_bias + b * l2)
          && quantise_int16(L.w3, (size_t)(l3 * l2), NNUE_QW, NNUE_L_WEIGHT_MAX, q->l3_weight + b * l3 * l2)
          && quantise_int32(L.b3, (size_t)l3, NNUE_QXW, NNUE_L_BIAS_MAX, q->l3_bias + b * l3)
          && quantise_int16(L.w4, (size_t)l3, NNUE_QW, NNUE_L_WEIGHT_MAX, q->l4_weight + b * l3)
          && quantise_int32(L.b4, 1, NNUE_QXW, NNUE_L_BIAS_MAX, q->l4_bias + b);
    }
    return ok;
}

/* Quantises a float net into a new engine net of its shape. */
Network *qnet_quantise(const Net *net, const char *desc, XqError *err)
{
    if (!nnue_shape_ok(&net->shape)) {
        snprintf(err->msg, sizeof err->msg, "cannot export feature set %d, hidden %d: the engine runs widths that "
                 "are multiples of %d up to %d", net->shape.feature_set, net->shape.hidden, NNUE_HIDDEN_STEP,
                 NNUE_HIDDEN_MAX);
        return NULL;
    }
    Network *q = nnue_net_new(&net->shape);
    if (!q) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    size_t h = (size_t)net->shape.hidden, n_out = NNUE_OUTPUT_BUCKETS * 2 * h;
    /* the folded rows (net_sync); output weights as net_out_weight_q, what the qat forward pass uses */
    bool ok = quantise_int16(net->ft_eff, (size_t)net->shape.inputs * h, NNUE_QA, INT16_MAX, q->ft_weight)
           && quantise_int16(net->ft_b, h, NNUE_QA, INT16_MAX, q->ft_bias)
           && quantise_int16(net->out_w, n_out, NNUE_QB, NNUE_OUT_WEIGHT_MAX, q->out_weight);
    for (int b = 0; ok && b < NNUE_OUTPUT_BUCKETS; b++) {
        long v = 0;
        ok = quantise_one(net->out_b[b], QAB, INT32_MIN, INT32_MAX, &v);
        q->out_bias[b] = (int32_t)v;
    }
    ok = ok && quantise_stage2(net, q);
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "a weight is out of the quantised range (was the net clipped?)");
        nnue_net_free(q);
        return NULL;
    }
    snprintf(q->desc, sizeof q->desc, "%.*s", NNUE_DESC_SIZE, desc ? desc : "");
    return q;
}

/* The file image of an engine net. */
uint8_t *qnet_image(const Network *q, size_t *size)
{
    *size = nnue_net_file_size(q);
    uint8_t *file = malloc(*size);
    if (file)
        nnue_serialise(q, file);
    return file;
}

/* Reads the header fields. */
bool nnue_parse_header(const uint8_t *buf, size_t n, NnueHeader *h, XqError *err)
{
    if (n < NNUE_HEADER_SIZE || memcmp(buf, NNUE_MAGIC, NNUE_MAGIC_SIZE) != 0) {
        snprintf(err->msg, sizeof err->msg, "not a .nnue file (%s)", n < NNUE_HEADER_SIZE ? "too short" : "bad magic");
        return false;
    }
    h->version = get32(buf + NNUE_OFF_VERSION);
    h->feature_set = get32(buf + NNUE_OFF_FEATURE_SET);
    h->inputs = get32(buf + NNUE_OFF_INPUTS);
    h->hidden = get32(buf + NNUE_OFF_HIDDEN);
    h->buckets = get32(buf + NNUE_OFF_BUCKETS);
    h->qa = get32(buf + NNUE_OFF_QA);
    h->qb = get32(buf + NNUE_OFF_QB);
    h->scale = get32(buf + NNUE_OFF_SCALE);
    h->l2 = h->version == NNUE_VERSION ? get32(buf + NNUE_OFF_L2) : 0;
    h->l3 = h->version == NNUE_VERSION ? get32(buf + NNUE_OFF_L3) : 0;
    h->payload_size = get32(buf + NNUE_OFF_PAYLOAD);
    h->checksum = get32(buf + NNUE_OFF_CHECKSUM);
    size_t present = n - NNUE_HEADER_SIZE < h->payload_size ? n - NNUE_HEADER_SIZE : h->payload_size;
    h->actual_checksum = nnue_file_checksum(buf, NNUE_HEADER_SIZE + present);
    size_t desc = h->version == NNUE_VERSION ? NNUE_DESC_SIZE : NNUE_DESC_SIZE_V2;
    memcpy(h->desc, buf + NNUE_DESC_OFFSET, desc);
    h->desc[desc] = '\0';
    return true;
}

/* Reads a file whole. */
uint8_t *read_whole_file(const char *path, size_t *n, XqError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot open", path);
        return NULL;
    }
    uint8_t *buf = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size + 1)) != NULL
        && fread(buf, 1, (size_t)size, f) == (size_t)size) {
        *n = (size_t)size;
    } else {
        snprintf(err->msg, sizeof err->msg, "%s: cannot read", path);
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* Reads and parses a .nnue file. */
Network *qnet_read_file(const char *path, XqError *err) { return nnue_load_file(path, NULL, err); }

/* A second-stage activation of the integer reference (step 5): round(clamp(sum, 0, QX * QW) / QW). */
static int32_t s2_act(int64_t sum)
{
    int64_t v = sum < 0 ? 0 : sum > NNUE_QXW ? NNUE_QXW : sum;
    return (int32_t)((v + NNUE_QW / 2) / NNUE_QW);
}

/* The second stage of the integer reference (step 5) on the inputs x (2 * hidden of them): its output o. */
static int64_t qnet_stage2(const Network *q, int b, const int32_t *x)
{
    const int l2 = q->shape.l2, l3 = q->shape.l3, in = 2 * q->shape.hidden;
    int32_t y[NNUE_L2_MAX];
    for (int i = 0; i < l2; i++) {
        int64_t t = q->l2_bias[b * l2 + i];
        const int16_t *w = q->l2_weight + ((size_t)b * (size_t)l2 + (size_t)i) * (size_t)in;
        for (int j = 0; j < in; j++)
            t += (int64_t)x[j] * w[j];
        y[i] = s2_act(t);
    }
    int64_t o = q->l4_bias[b];
    for (int j = 0; j < l3; j++) {
        int64_t t = q->l3_bias[b * l3 + j];
        for (int i = 0; i < l2; i++)
            t += (int64_t)y[i] * q->l3_weight[(b * l3 + j) * l2 + i];
        o += (int64_t)s2_act(t) * q->l4_weight[b * l3 + j];
    }
    return o;
}

/* Integer reference evaluation (steps 1-5 of train_export.h). */
int qnet_eval(const Network *q, const TrainPos *p)
{
    TrainFeatures f;
    train_features(p, q->shape.feature_set, &f);
    const int n = q->shape.hidden;
    const int16_t *out_w = nnue_out_row(q, f.bucket);
    int64_t sum = 0;
    int32_t x[2 * NNUE_HIDDEN_MAX]; /* the second stage's inputs */
    for (int k = 0; k < 2; k++) {
        int16_t acc[NNUE_HIDDEN_MAX];
        memcpy(acc, q->ft_bias, (size_t)n * sizeof *acc);
        for (int i = 0; i < f.count[k]; i++) {
            const int16_t *row = q->ft_weight + (size_t)f.index[k][i] * (size_t)n;
            for (int j = 0; j < n; j++)
                acc[j] = (int16_t)(acc[j] + row[j]);
        }
        const int16_t *w = out_w + k * n;
        for (int j = 0; j < n; j++) {
            int v = acc[j] < 0 ? 0 : acc[j] > NNUE_QA ? NNUE_QA : acc[j];
            int16_t vw = (int16_t)(v * w[j]);
            sum += (int64_t)vw * v;
            x[k * n + j] = (v * v + (1 << (NNUE_X_SHIFT - 1))) >> NNUE_X_SHIFT;
        }
    }
    int64_t lin = sum / NNUE_QA + q->out_bias[f.bucket];
    if (!q->shape.l2)
        return (int)(lin * NNUE_SCALE / QAB);
    return (int)((lin * NNUE_QXW + qnet_stage2(q, f.bucket, x) * QAB) * NNUE_SCALE / ((int64_t)QAB * NNUE_QXW));
}

/* Allocates a float net of q's shape holding q dequantised (real rows; the virtual rows are zero). */
bool qnet_dequantise(const Network *q, Net *net)
{
    if (!net_alloc(net, &q->shape))
        return false;
    size_t h = (size_t)q->shape.hidden, n_out = NNUE_OUTPUT_BUCKETS * 2 * h;
    for (size_t i = 0; i < (size_t)q->shape.inputs * h; i++)
        net->ft_w[i] = (float)q->ft_weight[i] / NNUE_QA;
    for (size_t j = 0; j < h; j++)
        net->ft_b[j] = (float)q->ft_bias[j] / NNUE_QA;
    for (size_t i = 0; i < n_out; i++)
        net->out_w[i] = (float)q->out_weight[i] / NNUE_QB;
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        net->out_b[b] = (float)((double)q->out_bias[b] / QAB);
    const int l2 = q->shape.l2, l3 = q->shape.l3, in = 2 * q->shape.hidden;
    for (int b = 0; l2 && b < NNUE_OUTPUT_BUCKETS; b++) {
        S2Layers L = train_s2_layers(&q->shape, net->s2_w, net->s2_b, b);
        for (int i = 0; i < l2 * in; i++)
            L.w2[i] = (float)q->l2_weight[(size_t)b * (size_t)(l2 * in) + (size_t)i] / NNUE_QW;
        for (int i = 0; i < l3 * l2; i++)
            L.w3[i] = (float)q->l3_weight[b * l3 * l2 + i] / NNUE_QW;
        for (int j = 0; j < l3; j++) {
            L.w4[j] = (float)q->l4_weight[b * l3 + j] / NNUE_QW;
            L.b3[j] = (float)((double)q->l3_bias[b * l3 + j] / NNUE_QXW);
        }
        for (int i = 0; i < l2; i++)
            L.b2[i] = (float)((double)q->l2_bias[b * l2 + i] / NNUE_QXW);
        L.b4[0] = (float)((double)q->l4_bias[b] / NNUE_QXW);
    }
    net_sync(net);
    return true;
}

/* Max over buckets of QA * QA * sum_j |out_w_q[b][j]|: the largest |sum| of step 3. */
static int64_t int32_worst_case(const Network *q)
{
    int64_t worst = 0;
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        const int16_t *w = nnue_out_row(q, b);
        int64_t s = 0;
        for (int j = 0; j < 2 * q->shape.hidden; j++)
            s += abs(w[j]);
        s *= (int64_t)NNUE_QA * NNUE_QA;
        worst = s > worst ? s : worst;
    }
    return worst;
}

/* Compares the float net, the dequantised net and the integer reference of a serialised net. */
bool export_check(const Net *net, const uint8_t *file, size_t size, const TrainSet *positions, const LossSpec *loss,
                  double mean_tolerance, ExportCheck *chk, XqError *err)
{
    memset(chk, 0, sizeof *chk);
    Net dq;
    Scratch s;
    bool ok = false;
    memset(&dq, 0, sizeof dq);
    memset(&s, 0, sizeof s);
    Network *q = nnue_parse(file, size, err);
    if (!q)
        return false;
    if (!qnet_dequantise(q, &dq) || !scratch_alloc(&s, q->shape.hidden)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        goto done;
    }
    size_t n = positions->count < EXPORT_CHECK_MAX ? positions->count : EXPORT_CHECK_MAX;
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        const TrainPos *p = &positions->pos[i * positions->count / n]; /* evenly spaced */
        double ref = qnet_eval(q, p);
        double d = fabs(net_eval_cp(net, p, &s) - ref), dd = fabs(net_eval_cp(&dq, p, &s) - ref);
        total += d;
        chk->float_loss += net_loss(net, p, loss, &s);
        chk->quant_loss += net_loss(&dq, p, loss, &s);
        chk->max_diff = d > chk->max_diff ? d : chk->max_diff;
        chk->max_dequant_diff = dd > chk->max_dequant_diff ? dd : chk->max_dequant_diff;
    }
    chk->positions = n;
    chk->mean_diff = n ? total / (double)n : 0;
    chk->float_loss = n ? chk->float_loss / (double)n : 0;
    chk->quant_loss = n ? chk->quant_loss / (double)n : 0;
    chk->int32_worst = int32_worst_case(q);
    chk->dequant_limit = q->shape.l2 ? EXPORT_DEQUANT_TOLERANCE_S2_CP : EXPORT_DEQUANT_TOLERANCE_CP;
    chk->passed = chk->mean_diff <= mean_tolerance && chk->max_dequant_diff <= chk->dequant_limit;
    ok = true;
done:
    nnue_net_free(q);
    net_free(&dq);
    scratch_free(&s);
    return ok;
}

/* Writes a net file image to path. */
bool write_net_file(const char *path, const uint8_t *file, size_t size, XqError *err)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(file, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "%.140s: cannot write", path);
    return ok;
}

/* Quantises, serialises, checks and writes a net. */
bool export_net(const Net *net, const char *desc, const char *path, const TrainSet *positions, const LossSpec *loss,
                double mean_tolerance, ExportCheck *chk, XqError *err)
{
    memset(chk, 0, sizeof *chk);
    Network *q = qnet_quantise(net, desc, err);
    if (!q)
        return false;
    size_t size;
    uint8_t *file = qnet_image(q, &size);
    nnue_net_free(q);
    bool ok = file != NULL;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    ok = ok && export_check(net, file, size, positions, loss, mean_tolerance, chk, err);
    if (ok && !chk->passed) {
        snprintf(err->msg, sizeof err->msg, "export check failed: mean |float - int| %.2f cp (limit %.1f), "
                 "max |dequantised - int| %.2f cp (limit %.2f)", chk->mean_diff, mean_tolerance,
                 chk->max_dequant_diff, chk->dequant_limit);
        ok = false;
    }
    ok = ok && write_net_file(path, file, size, err);
    free(file);
    return ok;
}
