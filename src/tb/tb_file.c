/* tb_file.c - writing and checking tablebase files (format in tb_file.h). */
#include "tb_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/fileload.h"

static const unsigned char MAGIC[8] = { 'J', 'J', 'X', 'Q', 'T', 'B', 0x1a, '\n' };
enum {
    OFF_VERSION = 8, OFF_RULES = 12, OFF_ENCODING = 16, OFF_HSIZE = 20, OFF_NAME = 24,
    OFF_ENTRIES = 56, OFF_PAYLOAD = 64, OFF_CHECKSUM = 72, OFF_POSITIONS = 80, OFF_WINS = 88,
    OFF_DRAWS = 96, OFF_LOSSES = 104, OFF_LONGEST_WIN = 112, OFF_LONGEST_LOSS = 116, OFF_HCHECK = 120,
    ENTRY_BYTES = 2, IO_CHUNK = 1 << 16,
};
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* FNV-1a over bytes, continuing from h. */
static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* Fills err with "path: why" and returns false. */
static bool file_fail(XqError *err, const char *path, const char *why)
{
    snprintf(err->msg, sizeof err->msg, "%.90s: %.64s", path, why);
    return false;
}

/* Writes DIR/<name>.jjtb into path; false if it does not fit. */
bool tb_file_path(const char *dir, const char *name, char *path, size_t size)
{
    int n = snprintf(path, size, "%s/%s%s", dir && *dir ? dir : ".", name, TB_FILE_EXT);
    return n > 0 && (size_t)n < size;
}

/* Writes a table (counted: tb_table_count) to path; false with err filled on failure. */
bool tb_file_write(const TbTable *t, const char *path, XqError *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return file_fail(err, path, strerror(errno));
    unsigned char h[TB_HEADER_SIZE] = { 0 }, buf[IO_CHUNK];
    uint64_t sum = FNV_OFFSET, n = t->layout.size;
    for (uint64_t i = 0; i < n; i++) { /* the checksum first: the header leads */
        unsigned char e[ENTRY_BYTES];
        le_put(e, tb_get(t, i), ENTRY_BYTES);
        sum = fnv1a(sum, e, ENTRY_BYTES);
    }
    memcpy(h, MAGIC, sizeof MAGIC);
    le_put(h + OFF_VERSION, TB_FILE_VERSION, 4);
    le_put(h + OFF_RULES, TB_RULES_V1, 4);
    le_put(h + OFF_ENCODING, TB_ENCODING_RAW16, 4);
    le_put(h + OFF_HSIZE, TB_HEADER_SIZE, 4);
    memcpy(h + OFF_NAME, t->name, strlen(t->name));
    le_put(h + OFF_ENTRIES, n, 8);
    le_put(h + OFF_PAYLOAD, n * ENTRY_BYTES, 8);
    le_put(h + OFF_CHECKSUM, sum, 8);
    le_put(h + OFF_POSITIONS, t->stats.positions, 8);
    le_put(h + OFF_WINS, t->stats.wins, 8);
    le_put(h + OFF_DRAWS, t->stats.draws, 8);
    le_put(h + OFF_LOSSES, t->stats.losses, 8);
    le_put(h + OFF_LONGEST_WIN, t->stats.longest_win, 4);
    le_put(h + OFF_LONGEST_LOSS, t->stats.longest_loss, 4);
    le_put(h + OFF_HCHECK, fnv1a(FNV_OFFSET, h, OFF_HCHECK), 8);
    bool ok = fwrite(h, 1, sizeof h, f) == sizeof h;
    for (uint64_t i = 0; ok && i < n;) {
        size_t k = 0;
        for (; i < n && k + ENTRY_BYTES <= sizeof buf; i++, k += ENTRY_BYTES)
            le_put(buf + k, tb_get(t, i), ENTRY_BYTES);
        ok = fwrite(buf, 1, k, f) == k;
    }
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        return file_fail(err, path, "write failed");
    return true;
}

/* Checks a header's bytes into *out; file_size is the file's length. */
static bool parse_header(const unsigned char *h, uint64_t file_size, const char *path, TbHeader *out, XqError *err)
{
    if (memcmp(h, MAGIC, sizeof MAGIC) != 0)
        return file_fail(err, path, "not a Jiangjun tablebase (bad magic)");
    if (le_get(h + OFF_HCHECK, 8) != fnv1a(FNV_OFFSET, h, OFF_HCHECK))
        return file_fail(err, path, "header checksum mismatch (corrupt file)");
    TbHeader r;
    memset(&r, 0, sizeof r);
    r.version = (unsigned)le_get(h + OFF_VERSION, 4);
    r.rules = (unsigned)le_get(h + OFF_RULES, 4);
    r.encoding = (unsigned)le_get(h + OFF_ENCODING, 4);
    if (r.version != TB_FILE_VERSION)
        return file_fail(err, path, "unsupported tablebase version (this engine reads version 1)");
    if (r.rules != TB_RULES_V1)
        return file_fail(err, path, "unknown rule set (this engine reads rule set 1)");
    if (r.encoding != TB_ENCODING_RAW16 || le_get(h + OFF_HSIZE, 4) != TB_HEADER_SIZE)
        return file_fail(err, path, "unknown encoding or header size");
    memcpy(r.name, h + OFF_NAME, TB_SIG_TEXT - 1);
    r.entries = le_get(h + OFF_ENTRIES, 8);
    r.payload_bytes = le_get(h + OFF_PAYLOAD, 8);
    r.checksum = le_get(h + OFF_CHECKSUM, 8);
    r.stats.positions = le_get(h + OFF_POSITIONS, 8);
    r.stats.wins = le_get(h + OFF_WINS, 8);
    r.stats.draws = le_get(h + OFF_DRAWS, 8);
    r.stats.losses = le_get(h + OFF_LOSSES, 8);
    r.stats.longest_win = (unsigned)le_get(h + OFF_LONGEST_WIN, 4);
    r.stats.longest_loss = (unsigned)le_get(h + OFF_LONGEST_LOSS, 4);
    TbSig sig;
    XqError e;
    if (!tb_sig_parse(r.name, &sig, &e) || tb_sig_unsupported(&sig) || !tb_sig_attackers(&sig, RED))
        return file_fail(err, path, "the header names no red-attacking signature");
    TbLayout *layout = malloc(sizeof *layout);
    if (!layout)
        return file_fail(err, path, "out of memory");
    tb_layout_init(layout, &sig);
    bool sizes = layout->size == r.entries && r.payload_bytes == r.entries * ENTRY_BYTES;
    free(layout);
    if (!sizes)
        return file_fail(err, path, "the entry count does not fit the signature");
    if (file_size != TB_HEADER_SIZE + r.payload_bytes)
        return file_fail(err, path, file_size < TB_HEADER_SIZE + r.payload_bytes ? "truncated file" : "trailing bytes after the entries");
    *out = r;
    return true;
}

/* Opens path and reads and checks its header; NULL with err filled. */
static FILE *open_checked(const char *path, TbHeader *h, XqError *err)
{
    XqError why;
    if (!file_is_regular(path, SIZE_MAX, &why)) { /* a FIFO or a device would block fopen (or never end) */
        file_fail(err, path, why.msg);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        file_fail(err, path, strerror(errno));
        return NULL;
    }
    unsigned char raw[TB_HEADER_SIZE];
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    rewind(f);
    bool ok = false;
    if (size < TB_HEADER_SIZE || fread(raw, 1, sizeof raw, f) != sizeof raw)
        file_fail(err, path, "truncated file (shorter than the header)");
    else
        ok = parse_header(raw, (uint64_t)size, path, h, err);
    if (!ok) {
        fclose(f);
        return NULL;
    }
    return f;
}

/* Reads and checks a file's header only (not the payload's checksum); false with err filled. */
bool tb_file_header(const char *path, TbHeader *h, XqError *err)
{
    FILE *f = open_checked(path, h, err);
    if (f)
        fclose(f);
    return f != NULL;
}

/* Reads and checks a table file; NULL with err filled if it is refused. */
TbTable *tb_file_read(const char *path, XqError *err)
{
    TbHeader h;
    FILE *f = open_checked(path, &h, err);
    if (!f)
        return NULL;
    TbSig sig;
    tb_sig_parse(h.name, &sig, err); /* checked by the header */
    TbTable *t = tb_table_new(&sig);
    unsigned char buf[IO_CHUNK];
    uint64_t sum = FNV_OFFSET, i = 0;
    bool ok = t != NULL;
    while (ok && i < h.entries) {
        size_t want = (size_t)((h.entries - i) * ENTRY_BYTES < sizeof buf ? (h.entries - i) * ENTRY_BYTES : sizeof buf);
        ok = fread(buf, 1, want, f) == want;
        sum = fnv1a(sum, buf, want);
        for (size_t k = 0; ok && k < want; k += ENTRY_BYTES, i++)
            atomic_store_explicit(&t->val[i], (uint16_t)le_get(buf + k, ENTRY_BYTES), memory_order_relaxed);
    }
    fclose(f);
    if (!ok || sum != h.checksum) {
        tb_table_free(t);
        file_fail(err, path, !t ? "out of memory" : !ok ? "truncated file" : "payload checksum mismatch (corrupt file)");
        return NULL;
    }
    t->stats = h.stats;
    return t;
}
