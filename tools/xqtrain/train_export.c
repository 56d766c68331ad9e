/* train_export.c - .nnue quantisation, file layout, integer reference evaluation and the export check. */
#include "train_export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval/nnue/nnue.h"

enum { QAB = NNUE_QA * NNUE_QB };

/* Loads a little-endian 32-bit value. */
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Allocates a zeroed quantised net. */
bool qnet_alloc(QNet *q)
{
    memset(q, 0, sizeof *q);
    q->ft_w = calloc((size_t)NNUE_FEATURES * NNUE_HIDDEN, sizeof *q->ft_w);
    return q->ft_w != NULL;
}

/* Frees a quantised net. */
void qnet_free(QNet *q)
{
    free(q->ft_w);
    q->ft_w = NULL;
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

/* Quantises a float net. */
bool qnet_quantise(const Net *net, QNet *q, XqError *err)
{
    if (net->hidden != NNUE_HIDDEN) {
        snprintf(err->msg, sizeof err->msg, "cannot export hidden %d: the file format has %d", net->hidden, NNUE_HIDDEN);
        return false;
    }
    long v;
    for (size_t i = 0; i < (size_t)NNUE_FEATURES * NNUE_HIDDEN; i++) { /* the folded rows (net_sync) */
        if (!quantise_one(net->ft_eff[i], NNUE_QA, INT16_MIN, INT16_MAX, &v))
            goto range;
        q->ft_w[i] = (int16_t)v;
    }
    for (int j = 0; j < NNUE_HIDDEN; j++) {
        if (!quantise_one(net->ft_b[j], NNUE_QA, INT16_MIN, INT16_MAX, &v))
            goto range;
        q->ft_b[j] = (int16_t)v;
    }
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        for (int j = 0; j < 2 * NNUE_HIDDEN; j++) {
            if (!quantise_one(net->out_w[b * 2 * NNUE_HIDDEN + j], NNUE_QB, -NNUE_OUT_WEIGHT_MAX, NNUE_OUT_WEIGHT_MAX, &v))
                goto range;
            q->out_w[b][j] = (int16_t)v; /* = net_out_weight_q(), what the qat forward pass uses */
        }
        if (!quantise_one(net->out_b[b], QAB, INT32_MIN, INT32_MAX, &v))
            goto range;
        q->out_b[b] = (int32_t)v;
    }
    return true;
range:
    snprintf(err->msg, sizeof err->msg, "a weight is out of the quantised range (was the net clipped?)");
    return false;
}

/* Writes header and payload (nnue.c's layout). */
void qnet_serialise(const QNet *q, const char *desc, uint8_t *out)
{
    nnue_serialise_arrays(q->ft_w, q->ft_b, q->out_w, q->out_b, desc, out);
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
    h->payload_size = get32(buf + NNUE_OFF_PAYLOAD);
    h->checksum = get32(buf + NNUE_OFF_CHECKSUM);
    size_t present = n - NNUE_HEADER_SIZE < h->payload_size ? n - NNUE_HEADER_SIZE : h->payload_size;
    h->actual_checksum = nnue_file_checksum(buf, NNUE_HEADER_SIZE + present);
    memcpy(h->desc, buf + NNUE_DESC_OFFSET, NNUE_DESC_SIZE);
    h->desc[NNUE_DESC_SIZE] = '\0';
    return true;
}

/* Parses a whole .nnue file (nnue.c's checks). */
bool qnet_parse(const uint8_t *buf, size_t n, QNet *q, XqError *err)
{
    const NnueArrays to = { q->ft_w, q->ft_b, q->out_w, q->out_b, q->desc };
    return nnue_parse_arrays(buf, n, &to, err);
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
bool qnet_read_file(const char *path, QNet *q, XqError *err)
{
    size_t n;
    uint8_t *buf = read_whole_file(path, &n, err);
    if (!buf)
        return false;
    XqError e;
    bool ok = qnet_parse(buf, n, q, &e);
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "%.60s: %.96s", path, e.msg);
    free(buf);
    return ok;
}

/* Integer reference evaluation (steps 1-4 of train_export.h). */
int qnet_eval(const QNet *q, const TrainPos *p)
{
    TrainFeatures f;
    train_features(p, &f);
    int64_t sum = 0;
    for (int k = 0; k < 2; k++) {
        int16_t acc[NNUE_HIDDEN];
        memcpy(acc, q->ft_b, sizeof acc);
        for (int i = 0; i < f.count[k]; i++) {
            const int16_t *row = q->ft_w + (size_t)f.index[k][i] * NNUE_HIDDEN;
            for (int j = 0; j < NNUE_HIDDEN; j++)
                acc[j] = (int16_t)(acc[j] + row[j]);
        }
        const int16_t *w = q->out_w[f.bucket] + k * NNUE_HIDDEN;
        for (int j = 0; j < NNUE_HIDDEN; j++) {
            int v = acc[j] < 0 ? 0 : acc[j] > NNUE_QA ? NNUE_QA : acc[j];
            int16_t vw = (int16_t)(v * w[j]);
            sum += (int64_t)vw * v;
        }
    }
    int64_t eval = (sum / NNUE_QA + q->out_b[f.bucket]) * NNUE_SCALE / QAB;
    return (int)eval;
}

/* Dequantises into a float net of width NNUE_HIDDEN (real rows; the virtual rows are zeroed). */
void qnet_dequantise(const QNet *q, Net *net)
{
    memset(net->virt, 0, (size_t)TRAIN_VIRTUAL_ROWS * NNUE_HIDDEN * sizeof *net->virt);
    for (size_t i = 0; i < (size_t)NNUE_FEATURES * NNUE_HIDDEN; i++)
        net->ft_w[i] = (float)q->ft_w[i] / NNUE_QA;
    for (int j = 0; j < NNUE_HIDDEN; j++)
        net->ft_b[j] = (float)q->ft_b[j] / NNUE_QA;
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        for (int j = 0; j < 2 * NNUE_HIDDEN; j++)
            net->out_w[b * 2 * NNUE_HIDDEN + j] = (float)q->out_w[b][j] / NNUE_QB;
        net->out_b[b] = (float)((double)q->out_b[b] / QAB);
    }
    net_sync(net);
}

/* Max over buckets of QA * QA * sum_j |out_w_q[b][j]|: the largest |sum| of step 3. */
static int64_t int32_worst_case(const QNet *q)
{
    int64_t worst = 0;
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        int64_t s = 0;
        for (int j = 0; j < 2 * NNUE_HIDDEN; j++)
            s += abs(q->out_w[b][j]);
        s *= (int64_t)NNUE_QA * NNUE_QA;
        worst = s > worst ? s : worst;
    }
    return worst;
}

/* Compares the float net, the dequantised net and the integer reference of a serialised net. */
bool export_check(const Net *net, const uint8_t *file, const TrainSet *positions, const LossSpec *loss,
                  double mean_tolerance, ExportCheck *chk, XqError *err)
{
    memset(chk, 0, sizeof *chk);
    QNet q;
    Net dq;
    Scratch s;
    bool ok = false;
    q.ft_w = NULL;
    memset(&dq, 0, sizeof dq);
    memset(&s, 0, sizeof s);
    if (!qnet_alloc(&q) || !net_alloc(&dq, NNUE_HIDDEN) || !scratch_alloc(&s, NNUE_HIDDEN)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        goto done;
    }
    if (!qnet_parse(file, NNUE_FILE_SIZE, &q, err))
        goto done;
    qnet_dequantise(&q, &dq);
    size_t n = positions->count < EXPORT_CHECK_MAX ? positions->count : EXPORT_CHECK_MAX;
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        const TrainPos *p = &positions->pos[i * positions->count / n]; /* evenly spaced */
        double ref = qnet_eval(&q, p);
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
    chk->int32_worst = int32_worst_case(&q);
    chk->passed = chk->mean_diff <= mean_tolerance && chk->max_dequant_diff <= EXPORT_DEQUANT_TOLERANCE_CP;
    ok = true;
done:
    qnet_free(&q);
    net_free(&dq);
    scratch_free(&s);
    return ok;
}

/* Quantises, serialises, checks and writes a net. */
/* Writes a net file image (NNUE_FILE_SIZE bytes) to path. */
bool write_net_file(const char *path, const uint8_t *file, XqError *err)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(file, 1, NNUE_FILE_SIZE, f) == NNUE_FILE_SIZE;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "%.140s: cannot write", path);
    return ok;
}

bool export_net(const Net *net, const char *desc, const char *path, const TrainSet *positions, const LossSpec *loss,
                double mean_tolerance, ExportCheck *chk, XqError *err)
{
    QNet q;
    q.ft_w = NULL;
    uint8_t *file = malloc(NNUE_FILE_SIZE);
    bool ok = file && qnet_alloc(&q);
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    ok = ok && qnet_quantise(net, &q, err);
    if (ok)
        qnet_serialise(&q, desc, file);
    ok = ok && export_check(net, file, positions, loss, mean_tolerance, chk, err);
    if (ok && !chk->passed) {
        snprintf(err->msg, sizeof err->msg, "export check failed: mean |float - int| %.2f cp (limit %.1f), "
                 "max |dequantised - int| %.2f cp (limit %.2f)", chk->mean_diff, mean_tolerance,
                 chk->max_dequant_diff, EXPORT_DEQUANT_TOLERANCE_CP);
        ok = false;
    }
    ok = ok && write_net_file(path, file, err);
    qnet_free(&q);
    free(file);
    return ok;
}
