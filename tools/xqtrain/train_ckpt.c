/* train_ckpt.c - checkpoint files, and the -init start net. */
#include "train_ckpt.h"

#include <stdlib.h>
#include <string.h>

#include "train_export.h"

enum { CKPT_HEADER_SIZE = 32, CKPT_MAGIC_SIZE = 8, CKPT_VERSION_AT = 7, CKPT_VERSION = 2, CKPT_MAX_HIDDEN = 1 << 16 };
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
    put32(buf + 8, (uint32_t)net->hidden);
    put32(buf + 12, (uint32_t)epoch);
    uint64_t step = adam ? adam->step : 0;
    put32(buf + 16, (uint32_t)step);
    put32(buf + 20, (uint32_t)(step >> 32));
    put32(buf + 24, adam != NULL);
    put32(buf + 28, TRAIN_VIRTUAL_ROWS);
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
 * Decodes one array of a checkpoint of this version into x (the net's layout, size floats); returns
 * the bytes read. Version 1 has no virtual rows: its real rows and dense parts go to their places.
 */
static size_t get_array(const uint8_t *in, int version, float *x, size_t size, int hidden)
{
    size_t h = (size_t)hidden, real = NNUE_FEATURES * h, virt = TRAIN_VIRTUAL_ROWS * h;
    if (version == CKPT_VERSION) {
        get_floats(in, x, size);
        return 4 * size;
    }
    get_floats(in, x, real);
    memset(x + real, 0, virt * sizeof *x);
    get_floats(in + 4 * real, x + real + virt, size - real - virt);
    return 4 * (size - virt);
}

/* Loads a checkpoint (version 1 or 2) held in buf. */
static bool ckpt_parse(const uint8_t *buf, size_t n, Net *net, Adam *adam, XqError *err)
{
    int version = buf[CKPT_VERSION_AT];
    uint32_t hidden = get32(buf + 8), has_adam = get32(buf + 24), virt = get32(buf + 28);
    if (hidden == 0 || hidden > CKPT_MAX_HIDDEN || has_adam > 1
        || (version == CKPT_VERSION ? virt != TRAIN_VIRTUAL_ROWS : virt != 0)) {
        snprintf(err->msg, sizeof err->msg, "bad checkpoint header");
        return false;
    }
    if (!net_alloc(net, (int)hidden) || !adam_alloc(adam, net)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return false;
    }
    size_t array = version == CKPT_VERSION ? net->size : net->size - TRAIN_VIRTUAL_ROWS * (size_t)hidden;
    if (n != CKPT_HEADER_SIZE + 4 * array * (has_adam ? 3 : 1)) {
        snprintf(err->msg, sizeof err->msg, "checkpoint (version %d) of hidden %u has %zu bytes, want %zu", version,
                 hidden, n, CKPT_HEADER_SIZE + 4 * array * (has_adam ? 3 : 1));
        return false;
    }
    const uint8_t *p = buf + CKPT_HEADER_SIZE;
    p += get_array(p, version, net->params, net->size, (int)hidden);
    if (has_adam) {
        adam->step = get32(buf + 16) | (uint64_t)get32(buf + 20) << 32;
        p += get_array(p, version, adam->m, net->size, (int)hidden);
        get_array(p, version, adam->v, net->size, (int)hidden);
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
    if (n >= CKPT_HEADER_SIZE && memcmp(buf, CKPT_MAGIC, CKPT_VERSION_AT) == 0
        && (buf[CKPT_VERSION_AT] == 1 || buf[CKPT_VERSION_AT] == CKPT_VERSION)) {
        ok = ckpt_parse(buf, n, net, adam, &e);
    } else {
        QNet q;
        snprintf(e.msg, sizeof e.msg, "out of memory");
        if (qnet_alloc(&q) && qnet_parse(buf, n, &q, &e) && net_alloc(net, NNUE_HIDDEN) && adam_alloc(adam, net)) {
            qnet_dequantise(&q, net);
            ok = true;
        }
        qnet_free(&q);
    }
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "%.60s: %.96s", path, e.msg);
        net_free(net);
        adam_free(adam);
    }
    free(buf);
    return ok;
}
