/* nnue_file.c - nets in memory and in files: allocation, parsing with every check, writing, the built-in net. */
#include "nnue.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/fileload.h"
#include "nnue_embed.h"

enum {
    NET_ALIGN = 64, /* every array starts on a cache line */
    FIRST_ARRAYS = 4, /* the arrays before the second stage: ft weights and biases, output weights and biases */
    S2_ARRAYS = 6,    /* the second stage's arrays: l2, l3 and l4 weights (int16) and biases (int32), by layer */
};

/* Reads a little-endian int16. */
static int16_t get16(const uint8_t *p) { return (int16_t)le16(p); }

/* Rounds n up to a multiple of NET_ALIGN. */
static size_t aligned(size_t n) { return (n + NET_ALIGN - 1) / NET_ALIGN * NET_ALIGN; }

/* Values in each of the second stage's arrays, in file order: l2 weights and biases, l3's, l4's (the weights,
 * at even indices, are int16; the biases int32). All 0 without a second stage. */
static void stage2_counts(const NnueShape *s, size_t n[S2_ARRAYS])
{
    const size_t nb = NNUE_OUTPUT_BUCKETS, l2 = (size_t)s->l2, l3 = (size_t)s->l3;
    const size_t counts[S2_ARRAYS] = { nb * l2 * 2 * (size_t)s->hidden, nb * l2, nb * l3 * l2, nb * l3, nb * l3,
                                       l2 ? nb : 0 };
    memcpy(n, counts, sizeof counts);
}

/* Bytes of one value of second-stage array i (stage2_counts' order). */
static size_t stage2_value_bytes(int i) { return i % 2 ? 4 : 2; }

/* The second stage's arrays of a net, in stage2_counts' order. */
static void stage2_arrays(const Network *net, void *a[S2_ARRAYS])
{
    void *arrays[S2_ARRAYS] = { net->l2_weight, net->l2_bias, net->l3_weight, net->l3_bias, net->l4_weight,
                                net->l4_bias };
    memcpy(a, arrays, sizeof arrays);
}

/* Allocates a zeroed net of a shape, its arrays in one aligned block. */
Network *nnue_net_new(const NnueShape *shape)
{
    if (!nnue_shape_ok(shape))
        return NULL;
    const size_t h = (size_t)shape->hidden, nb = NNUE_OUTPUT_BUCKETS;
    /* byte sizes of the arrays, in their order in the block: the first layer, the output, the second stage */
    size_t sizes[FIRST_ARRAYS + S2_ARRAYS] = { (size_t)shape->inputs * h * 2, h * 2, nb * 2 * h * 2, nb * 4 };
    stage2_counts(shape, sizes + FIRST_ARRAYS);
    for (int i = 0; i < S2_ARRAYS; i++)
        sizes[FIRST_ARRAYS + i] *= stage2_value_bytes(i);
    size_t at[FIRST_ARRAYS + S2_ARRAYS], total = 0;
    for (int i = 0; i < FIRST_ARRAYS + S2_ARRAYS; i++) {
        at[i] = total;
        total += aligned(sizes[i]);
    }
    Network *net = calloc(1, sizeof *net);
    uint8_t *raw = calloc(1, total + NET_ALIGN); /* aligned by hand: MinGW has no aligned_alloc */
    if (!net || !raw) {
        free(net);
        free(raw);
        return NULL;
    }
    uint8_t *block = raw + (NET_ALIGN - (uintptr_t)raw % NET_ALIGN) % NET_ALIGN;
    net->shape = *shape;
    net->block = raw;
    net->ft_weight = (int16_t *)(block + at[0]);
    net->ft_bias = (int16_t *)(block + at[1]);
    net->out_weight = (int16_t *)(block + at[2]);
    net->out_bias = (int32_t *)(block + at[3]);
    if (shape->l2) {
        net->l2_weight = (int16_t *)(block + at[4]);
        net->l2_bias = (int32_t *)(block + at[5]);
        net->l3_weight = (int16_t *)(block + at[6]);
        net->l3_bias = (int32_t *)(block + at[7]);
        net->l4_weight = (int16_t *)(block + at[8]);
        net->l4_bias = (int32_t *)(block + at[9]);
    }
    return net;
}

/* Frees a net. */
void nnue_net_free(Network *net)
{
    if (!net)
        return;
    free(net->block);
    free(net);
}

/* Fills err with a message about a net file and returns false. */
static bool net_fail(XqError *err, const char *what, long long got, long long want)
{
    if (want >= 0)
        snprintf(err->msg, sizeof err->msg, "bad net file: %s is %lld, this engine needs %lld", what, got, want);
    else
        snprintf(err->msg, sizeof err->msg, "bad net file: %s", what);
    return false;
}

/* The checksum a net file image should store, by its version's definition. */
uint32_t nnue_file_checksum(const uint8_t *file, size_t size)
{
    if (le32(file + NNUE_OFF_VERSION) == NNUE_VERSION_PAYLOAD_SUM)
        return nnue_fnv1a(file + NNUE_HEADER_SIZE, size - NNUE_HEADER_SIZE);
    uint32_t h = nnue_fnv1a(file, NNUE_OFF_CHECKSUM);
    return nnue_fnv1a_more(h, file + NNUE_OFF_CHECKSUM + 4, size - NNUE_OFF_CHECKSUM - 4);
}

/* Reads the shape a header states: version 1 and 2 have the one shape, version 3 its own fields. */
static bool header_shape(const uint8_t *h, uint32_t version, NnueShape *shape, XqError *err)
{
    if (version != NNUE_VERSION) {
        *shape = NNUE_SHAPE_V1;
        return true;
    }
    shape->feature_set = (int)le32(h + NNUE_OFF_FEATURE_SET);
    if (nnue_feature_count(shape->feature_set) == 0)
        return net_fail(err, "an unknown feature set", le32(h + NNUE_OFF_FEATURE_SET), -1);
    shape->inputs = nnue_feature_count(shape->feature_set);
    uint32_t hidden = le32(h + NNUE_OFF_HIDDEN);
    if (hidden < NNUE_HIDDEN_STEP || hidden > NNUE_HIDDEN_MAX || hidden % NNUE_HIDDEN_STEP != 0) {
        snprintf(err->msg, sizeof err->msg, "bad net file: hidden size %lu, this engine runs multiples of %d up to %d",
                 (unsigned long)hidden, NNUE_HIDDEN_STEP, NNUE_HIDDEN_MAX);
        return false;
    }
    shape->hidden = (int)hidden;
    uint32_t l2 = le32(h + NNUE_OFF_L2), l3 = le32(h + NNUE_OFF_L3);
    if (!nnue_stage2_ok((long)l2, (long)l3)) {
        snprintf(err->msg, sizeof err->msg, "bad net file: second stage %lu x %lu, this engine runs none (0 x 0) or "
                 "up to %d x %d", (unsigned long)l2, (unsigned long)l3, NNUE_L2_MAX, NNUE_L3_MAX);
        return false;
    }
    shape->l2 = (int)l2;
    shape->l3 = (int)l3;
    for (int i = NNUE_OFF_RESERVED; i < NNUE_HEADER_SIZE; i++)
        if (h[i] != 0)
            return net_fail(err, "reserved header bytes are not 0", 0, -1);
    return true;
}

/* Checks the header against this engine's architecture and reads the shape. */
static bool check_header(const uint8_t *h, size_t size, NnueShape *shape, XqError *err)
{
    if (size < NNUE_HEADER_SIZE)
        return net_fail(err, "shorter than its 128-byte header", 0, -1);
    if (memcmp(h, NNUE_MAGIC, NNUE_MAGIC_SIZE) != 0)
        return net_fail(err, "no JJNNUE magic (not a Jiangjun net)", 0, -1);
    uint32_t version = le32(h + NNUE_OFF_VERSION);
    if (version != NNUE_VERSION && version != NNUE_VERSION_WHOLE_SUM && version != NNUE_VERSION_PAYLOAD_SUM)
        return net_fail(err, "version", version, NNUE_VERSION);
    if (!header_shape(h, version, shape, err))
        return false;
    const struct {
        int offset;
        const char *what;
        uint32_t want;
    } FIELDS[] = {
        { NNUE_OFF_FEATURE_SET, "feature set", (uint32_t)shape->feature_set },
        { NNUE_OFF_INPUTS, "input count", (uint32_t)shape->inputs },
        { NNUE_OFF_HIDDEN, "hidden size", (uint32_t)shape->hidden },
        { NNUE_OFF_BUCKETS, "output buckets", NNUE_OUTPUT_BUCKETS },
        { NNUE_OFF_QA, "QA", NNUE_QA },
        { NNUE_OFF_QB, "QB", NNUE_QB },
        { NNUE_OFF_SCALE, "SCALE", NNUE_SCALE },
        { NNUE_OFF_PAYLOAD, "payload size", (uint32_t)nnue_payload_size(shape) },
    };
    for (size_t i = 0; i < sizeof FIELDS / sizeof *FIELDS; i++)
        if (le32(h + FIELDS[i].offset) != FIELDS[i].want)
            return net_fail(err, FIELDS[i].what, le32(h + FIELDS[i].offset), FIELDS[i].want);
    const size_t want = nnue_file_size(shape);
    if (size != want)
        return net_fail(err, size < want ? "truncated: file size" : "trailing bytes: file size", (long long)size,
                        (long long)want);
    if (nnue_file_checksum(h, size) != le32(h + NNUE_OFF_CHECKSUM))
        return net_fail(err, "checksum mismatch (corrupt file)", 0, -1);
    return true;
}

/* Reads n little-endian int16 into out, each within +-lim; false at the first beyond. */
static bool get16s(const uint8_t **p, int16_t *out, size_t n, int lim)
{
    for (size_t i = 0; i < n; i++, *p += 2) {
        out[i] = get16(*p);
        if (out[i] > lim || out[i] < -lim)
            return false;
    }
    return true;
}

/* Reads n little-endian int32 into out, each within +-lim; false at the first beyond. */
static bool get32s(const uint8_t **p, int32_t *out, size_t n, int64_t lim)
{
    for (size_t i = 0; i < n; i++, *p += 4) {
        out[i] = (int32_t)le32(*p);
        if (out[i] > lim || out[i] < -lim)
            return false;
    }
    return true;
}

/* Reads the second stage's arrays; false with err filled if a value is beyond its range. */
static bool parse_stage2(const uint8_t *p, Network *net, XqError *err)
{
    size_t n[S2_ARRAYS];
    void *a[S2_ARRAYS];
    stage2_counts(&net->shape, n);
    stage2_arrays(net, a);
    for (int i = 0; i < S2_ARRAYS; i++)
        if (!(stage2_value_bytes(i) == 2 ? get16s(&p, a[i], n[i], NNUE_L_WEIGHT_MAX)
                                         : get32s(&p, a[i], n[i], NNUE_L_BIAS_MAX)))
            return net_fail(err, "a second-stage weight beyond +-2047 or bias beyond +-2^30 (its int32 sums would "
                            "overflow)", 0, -1);
    return true;
}

/* Checks a net file image and returns a new net holding it; NULL with err filled on any error. */
Network *nnue_parse(const uint8_t *data, size_t size, XqError *err)
{
    NnueShape shape;
    if (!check_header(data, size, &shape, err))
        return NULL;
    const size_t h = (size_t)shape.hidden, n_ft = (size_t)shape.inputs * h, n_out = NNUE_OUTPUT_BUCKETS * 2 * h;
    Network *net = nnue_net_new(&shape);
    if (!net) {
        net_fail(err, "out of memory for the net", 0, -1);
        return NULL;
    }
    const uint8_t *p = data + NNUE_HEADER_SIZE;
    for (size_t i = 0; i < n_ft; i++, p += 2)
        net->ft_weight[i] = get16(p);
    for (size_t i = 0; i < h; i++, p += 2)
        net->ft_bias[i] = get16(p);
    if (!get16s(&p, net->out_weight, n_out, NNUE_OUT_WEIGHT_MAX)) {
        net_fail(err, "an output weight beyond +-127 (the kernels' 16-bit product would overflow)", 0, -1);
        nnue_net_free(net);
        return NULL;
    }
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++, p += 4)
        net->out_bias[b] = (int32_t)le32(p);
    if (shape.l2 && !parse_stage2(p, net, err)) {
        nnue_net_free(net);
        return NULL;
    }
    size_t desc = le32(data + NNUE_OFF_VERSION) == NNUE_VERSION ? NNUE_DESC_SIZE : NNUE_DESC_SIZE_V2;
    memcpy(net->desc, data + NNUE_DESC_OFFSET, desc);
    net->desc[desc] = '\0';
    return net;
}

/* Bytes of net's file image. */
size_t nnue_net_file_size(const Network *net) { return nnue_file_size(&net->shape); }

/* Writes net as a version 3 file image. */
void nnue_serialise(const Network *net, uint8_t *out)
{
    const NnueShape *s = &net->shape;
    memset(out, 0, NNUE_HEADER_SIZE);
    memcpy(out, NNUE_MAGIC, NNUE_MAGIC_SIZE);
    const uint32_t fields[] = { NNUE_VERSION, (uint32_t)s->feature_set, (uint32_t)s->inputs, (uint32_t)s->hidden,
                                NNUE_OUTPUT_BUCKETS, NNUE_QA, NNUE_QB, NNUE_SCALE, (uint32_t)nnue_payload_size(s) };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        le_put(out + NNUE_OFF_VERSION + 4 * i, fields[i], 4); /* the fields are consecutive */
    size_t len = 0; /* the description's bytes, at most the field's (NUL-padded, not always NUL-terminated) */
    while (len < NNUE_DESC_SIZE && net->desc[len])
        len++;
    memcpy(out + NNUE_DESC_OFFSET, net->desc, len);
    const size_t h = (size_t)s->hidden, n_ft = (size_t)s->inputs * h, n_out = NNUE_OUTPUT_BUCKETS * 2 * h;
    uint8_t *p = out + NNUE_HEADER_SIZE;
    for (size_t i = 0; i < n_ft; i++, p += 2)
        le_put(p, (uint16_t)net->ft_weight[i], 2);
    for (size_t i = 0; i < h; i++, p += 2)
        le_put(p, (uint16_t)net->ft_bias[i], 2);
    for (size_t i = 0; i < n_out; i++, p += 2)
        le_put(p, (uint16_t)net->out_weight[i], 2);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++, p += 4)
        le_put(p, (uint32_t)net->out_bias[b], 4);
    le_put(out + NNUE_OFF_L2, (uint32_t)s->l2, 4);
    le_put(out + NNUE_OFF_L3, (uint32_t)s->l3, 4);
    size_t n[S2_ARRAYS];
    void *a[S2_ARRAYS];
    stage2_counts(s, n);
    stage2_arrays(net, a);
    for (int k = 0; k < S2_ARRAYS; k++) /* none without a second stage */
        for (size_t i = 0; i < n[k]; i++, p += stage2_value_bytes(k))
            le_put(p, stage2_value_bytes(k) == 2 ? (uint16_t)((const int16_t *)a[k])[i]
                                                 : (uint32_t)((const int32_t *)a[k])[i], (int)stage2_value_bytes(k));
    /* the field's own bytes are not hashed */
    le_put(out + NNUE_OFF_CHECKSUM, nnue_file_checksum(out, nnue_file_size(s)), 4);
}

/* Loads a net file (fileload.h's rule: a regular file only, a relative name also beside exe_dir). */
Network *nnue_load_file(const char *path, const char *exe_dir, XqError *err)
{
    uint8_t *buf;
    size_t n;
    XqError why;
    NnueShape widest = { NNUE_FEATURE_SET_KING, nnue_feature_count(NNUE_FEATURE_SET_KING), NNUE_HIDDEN_MAX,
                         NNUE_L2_MAX, NNUE_L3_MAX };
    /* one byte more than the largest net may pass the cap, so that the parser names a longer file's bytes */
    if (!file_load(path, exe_dir, nnue_file_size(&widest) + 1, &buf, &n, &why)) {
        snprintf(err->msg, sizeof err->msg, "net file '%.50s': %.90s", path, why.msg);
        return NULL;
    }
    Network *net = nnue_parse(buf, n, err);
    free(buf);
    return net;
}

static Network *default_net;            /* written once, under default_once */
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

/* Parses the embedded net (run once). */
static void load_default(void)
{
    XqError err;
    if (embedded_net_size())
        default_net = nnue_parse(embedded_net_data(), embedded_net_size(), &err);
}

/* The embedded net, parsed on first use. */
const Network *nnue_default(void)
{
    pthread_once(&default_once, load_default);
    return default_net;
}
