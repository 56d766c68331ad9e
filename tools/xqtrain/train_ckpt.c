/* train_ckpt.c - checkpoint files, and the -init start net. */
#include "train_ckpt.h"

#include <stdlib.h>
#include <string.h>

#include "train_export.h"

enum {
    CKPT_HEADER_SIZE = 48,
    CKPT_HEADER_SIZE_V3 = 40, /* version 3: no second stage */
    CKPT_HEADER_SIZE_V2 = 32, /* versions 1 and 2: no feature set, no inputs */
    CKPT_MAGIC_SIZE = 8,
    CKPT_VERSION_AT = 7,
    CKPT_VERSION = 4,
    CKPT_VERSION_SHAPE = 3,   /* feature set and inputs, no second stage */
    CKPT_VERSION_VIRT = 2,    /* feature set 1 with its 280 virtual rows */
    CKPT_VERSION_PLAIN = 1,   /* feature set 1 without virtual rows */
    CKPT_MAX_HIDDEN = 1 << 16,
};
static const uint8_t CKPT_MAGIC[CKPT_MAGIC_SIZE] = { 'X', 'Q', 'C', 'K', 'P', 'T', 0, CKPT_VERSION };

/* Stores a 32-bit value little-endian. */
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Loads a little-endian 32-bit value. */
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Encodes n floats little-endian into out (4 n bytes). */
static void put_floats(uint8_t *out, const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], sizeof u);
        put32(out + 4 * i, u);
    }
}

/* Decodes n little-endian floats. */
static void get_floats(const uint8_t *in, float *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u = get32(in + 4 * i);
        memcpy(&x[i], &u, sizeof u);
    }
}

/* Writes a checkpoint. */
bool ckpt_save(const char *path, const Net *net, const Adam *adam, int epoch, XqError *err)
{
    size_t arrays = adam ? 3 : 1;
    size_t bytes = CKPT_HEADER_SIZE + 4 * net->size * arrays;
    uint8_t *buf = calloc(bytes, 1);
    if (!buf) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return false;
    }
    memcpy(buf, CKPT_MAGIC, CKPT_MAGIC_SIZE);
    put32(buf + 8, (uint32_t)net->shape.hidden);
    put32(buf + 12, (uint32_t)epoch);
    uint64_t step = adam ? adam->step : 0;
    put32(buf + 16, (uint32_t)step);
    put32(buf + 20, (uint32_t)(step >> 32));
    put32(buf + 24, adam != NULL);
    put32(buf + 28, (uint32_t)net->virt_rows);
    put32(buf + 32, (uint32_t)net->shape.feature_set);
    put32(buf + 36, (uint32_t)net->shape.inputs);
    put32(buf + 40, (uint32_t)net->shape.l2);
    put32(buf + 44, (uint32_t)net->shape.l3);
    put_floats(buf + CKPT_HEADER_SIZE, net->params, net->size);
    if (adam) {
        put_floats(buf + CKPT_HEADER_SIZE + 4 * net->size, adam->m, net->size);
        put_floats(buf + CKPT_HEADER_SIZE + 8 * net->size, adam->v, net->size);
    }
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(buf, 1, bytes, f) == bytes;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "%s: cannot write", path);
    free(buf);
    return ok;
}

/*
 * Decodes one array of a checkpoint of this version into x (the net's layout, net->size floats); returns
 * the bytes read. Version 1 has no virtual rows: its real rows and dense parts go to their places.
 */
static size_t get_array(const uint8_t *in, int version, float *x, const Net *net)
{
    size_t h = (size_t)net->shape.hidden, real = (size_t)net->shape.inputs * h, virt = (size_t)net->virt_rows * h;
    if (version != CKPT_VERSION_PLAIN) {
        get_floats(in, x, net->size);
        return 4 * net->size;
    }
    get_floats(in, x, real);
    memset(x + real, 0, virt * sizeof *x);
    get_floats(in + 4 * real, x + real + virt, net->size - real - virt);
    return 4 * (net->size - virt);
}

/* The header bytes of a checkpoint version. */
static size_t ckpt_header_size(int version)
{
    return version == CKPT_VERSION ? CKPT_HEADER_SIZE : version == CKPT_VERSION_SHAPE ? CKPT_HEADER_SIZE_V3
                                                                                      : CKPT_HEADER_SIZE_V2;
}

/* The shape a checkpoint header states (versions 1 and 2: feature set 1; before 4: no second stage); false if its
 * fields do not fit. */
static bool ckpt_shape(const uint8_t *buf, size_t n, int version, NnueShape *shape)
{
    uint32_t hidden = get32(buf + 8), set = NNUE_FEATURE_SET_PSQ, inputs = NNUE_FEATURES, l2 = 0, l3 = 0;
    if (n < ckpt_header_size(version))
        return false;
    if (version >= CKPT_VERSION_SHAPE) {
        set = get32(buf + 32);
        inputs = get32(buf + 36);
    }
    if (version == CKPT_VERSION) {
        l2 = get32(buf + 40);
        l3 = get32(buf + 44);
    }
    if (hidden == 0 || hidden > CKPT_MAX_HIDDEN || nnue_feature_count((int)set) == 0
        || inputs != (uint32_t)nnue_feature_count((int)set) || !nnue_stage2_ok((long)l2, (long)l3))
        return false;
    *shape = train_shape((int)set, (int)hidden);
    shape->l2 = (int)l2;
    shape->l3 = (int)l3;
    return true;
}

/* Loads a checkpoint (version 1 to 4) held in buf. */
static bool ckpt_parse(const uint8_t *buf, size_t n, Net *net, Adam *adam, XqError *err)
{
    int version = buf[CKPT_VERSION_AT];
    size_t header = ckpt_header_size(version);
    uint32_t has_adam = get32(buf + 24), virt = get32(buf + 28);
    NnueShape shape;
    if (!ckpt_shape(buf, n, version, &shape) || has_adam > 1) {
        snprintf(err->msg, sizeof err->msg, "bad checkpoint header");
        return false;
    }
    if (!net_alloc(net, &shape) || !adam_alloc(adam, net)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return false;
    }
    if (virt != (version == CKPT_VERSION_PLAIN ? 0u : (uint32_t)net->virt_rows)) {
        snprintf(err->msg, sizeof err->msg, "bad checkpoint header: %u virtual rows", virt);
        return false;
    }
    size_t h = (size_t)shape.hidden;
    size_t array = version == CKPT_VERSION_PLAIN ? net->size - (size_t)net->virt_rows * h : net->size;
    if (n != header + 4 * array * (has_adam ? 3 : 1)) {
        snprintf(err->msg, sizeof err->msg, "checkpoint (version %d) of feature set %d, hidden %d has %zu bytes, "
                 "want %zu", version, shape.feature_set, shape.hidden, n, header + 4 * array * (has_adam ? 3 : 1));
        return false;
    }
    const uint8_t *p = buf + header;
    p += get_array(p, version, net->params, net);
    if (has_adam) {
        adam->step = get32(buf + 16) | (uint64_t)get32(buf + 20) << 32;
        p += get_array(p, version, adam->m, net);
        get_array(p, version, adam->v, net);
    }
    net_clip(net);
    return true;
}

/* Loads a start net from a checkpoint or a .nnue file. */
bool init_from_file(const char *path, Net *net, Adam *adam, XqError *err)
{
    memset(net, 0, sizeof *net);
    memset(adam, 0, sizeof *adam);
    size_t n;
    uint8_t *buf = read_whole_file(path, &n, err);
    if (!buf)
        return false;
    XqError e;
    bool ok = false;
    if (n >= CKPT_HEADER_SIZE_V2 && memcmp(buf, CKPT_MAGIC, CKPT_VERSION_AT) == 0
        && buf[CKPT_VERSION_AT] >= CKPT_VERSION_PLAIN && buf[CKPT_VERSION_AT] <= CKPT_VERSION) {
        ok = ckpt_parse(buf, n, net, adam, &e);
    } else {
        Network *q = nnue_parse(buf, n, &e);
        if (q) {
            ok = qnet_dequantise(q, net) && adam_alloc(adam, net);
            if (!ok)
                snprintf(e.msg, sizeof e.msg, "out of memory");
        }
        nnue_net_free(q);
    }
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "%.60s: %.96s", path, e.msg);
        net_free(net);
        adam_free(adam);
    }
    free(buf);
    return ok;
}
