/* tb_file.c - writing and checking tablebase files (format in tb_file.h), and where table folders are. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* stat under -std=c11 */
#endif
#include "tb_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "base/bytes.h"
#include "base/datafile.h"
#include "base/fileload.h"
#include "base/platform.h"
#include "tb_pack.h"

static const unsigned char MAGIC[8] = { 'J', 'J', 'X', 'Q', 'T', 'B', 0x1a, '\n' };
enum {
    OFF_VERSION = 8,
    OFF_RULES = 12,
    OFF_ENCODING = 16,
    OFF_HSIZE = 20,
    OFF_NAME = 24,
    OFF_ENTRIES = 56,
    OFF_BLOCK = 64,
    OFF_WDL_BYTES = 72,
    OFF_DTM_BYTES = 80,
    OFF_CHECKSUM = 88,
    OFF_POSITIONS = 96,
    OFF_WINS = 104,
    OFF_DRAWS = 112,
    OFF_LOSSES = 120,
    OFF_RULE_WINS = 128,
    OFF_RULE_LOSSES = 136,
    OFF_LONGEST_WIN = 144,
    OFF_LONGEST_LOSS = 148,
    OFF_HCHECK = 248,
};
enum { PATH_SHOWN = 60 }; /* characters of a path an error message shows */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* FNV-1a over bytes, continuing from h. */
static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* Fills err with "path: why" (a long path cut at its start: the file's name stays) and returns false. */
static bool file_fail(XqError *err, const char *path, const char *why)
{
    size_t len = strlen(path);
    const char *shown = len > PATH_SHOWN ? path + len - (PATH_SHOWN - 3) : path;
    snprintf(err->msg, sizeof err->msg, "%s%.60s: %.94s", shown == path ? "" : "...", shown, why);
    return false;
}

#ifndef S_ISDIR
#define S_ISDIR(m) (((m)&S_IFMT) == S_IFDIR)
#endif

/* Is path a directory? */
static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first directory `name` beside the executable or in the installed data directory, into out; false if
 * none (or the executable's directory is unknown). */
static bool find_beside_exe(const char *name, char *out, size_t size)
{
    char exe_dir[DATAFILE_PATH_MAX], dir[DATAFILE_PATH_MAX];
    if (!platform_exe_dir(exe_dir, sizeof exe_dir))
        return false;
    for (int i = 0; i < DATAFILE_DIRS; i++) {
        int n = datafile_dir(exe_dir, i, dir, sizeof dir) ? snprintf(out, size, "%s/%s", dir, name) : -1;
        if (n > 0 && (size_t)n < size && is_dir(out))
            return true;
    }
    return false;
}

/* Where a table folder named dir is (tb_file.h). */
void tb_dir_resolve(const char *dir, char *out, size_t size)
{
    if (is_dir(dir) || !file_name_is_relative(dir) || !find_beside_exe(dir, out, size))
        snprintf(out, size, "%s", dir);
}

/* The starter set's folder (tb_file.h). */
void tb_starter_dir(char *out, size_t size)
{
    if (!find_beside_exe(TB_STARTER_DIR, out, size))
        snprintf(out, size, ".");
}

/* Writes DIR/<name>.jjtb into path; false if it does not fit. */
bool tb_file_path(const char *dir, const char *name, char *path, size_t size)
{
    int n = snprintf(path, size, "%s/%s%s", dir && *dir ? dir : ".", name, TB_FILE_EXT);
    return n > 0 && (size_t)n < size;
}

/* The header of a table whose sections are packed. */
static void make_header(const TbTable *t, const TbPackOut *p, uint32_t block, unsigned char *h)
{
    memset(h, 0, TB_HEADER_SIZE);
    memcpy(h, MAGIC, sizeof MAGIC);
    le_put(h + OFF_VERSION, TB_FILE_VERSION, 4);
    le_put(h + OFF_RULES, TB_RULES_CHECK, 4);
    le_put(h + OFF_ENCODING, TB_ENCODING_BLOCKS, 4);
    le_put(h + OFF_HSIZE, TB_HEADER_SIZE, 4);
    memcpy(h + OFF_NAME, t->name, strlen(t->name));
    le_put(h + OFF_ENTRIES, t->layout.size, 8);
    le_put(h + OFF_BLOCK, block, 4);
    le_put(h + OFF_WDL_BYTES, p->wdl_bytes, 8);
    le_put(h + OFF_DTM_BYTES, p->dtm_bytes, 8);
    le_put(h + OFF_CHECKSUM, fnv1a(fnv1a(FNV_OFFSET, p->wdl, p->wdl_bytes), p->dtm, p->dtm_bytes), 8);
    le_put(h + OFF_POSITIONS, t->stats.positions, 8);
    le_put(h + OFF_WINS, t->stats.wins, 8);
    le_put(h + OFF_DRAWS, t->stats.draws, 8);
    le_put(h + OFF_LOSSES, t->stats.losses, 8);
    le_put(h + OFF_RULE_WINS, t->stats.rule_wins, 8);
    le_put(h + OFF_RULE_LOSSES, t->stats.rule_losses, 8);
    le_put(h + OFF_LONGEST_WIN, t->stats.longest_win, 4);
    le_put(h + OFF_LONGEST_LOSS, t->stats.longest_loss, 4);
    le_put(h + OFF_HCHECK, fnv1a(FNV_OFFSET, h, OFF_HCHECK), 8);
}

/* Writes a generated table to path (through path.tmp, renamed over it); false with err filled on failure. */
bool tb_file_write(const TbTable *t, const char *path, XqError *err)
{
    char tmp[TB_PATH_MAX + 8];
    TbPackOut p;
    unsigned char h[TB_HEADER_SIZE];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return file_fail(err, path, "path too long");
    if (!tb_pack_build(t->val, t->layout.size, TB_PACK_BLOCK, &p))
        return file_fail(err, path, "out of memory");
    make_header(t, &p, TB_PACK_BLOCK, h);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        tb_pack_out_free(&p);
        return file_fail(err, tmp, strerror(errno));
    }
    bool ok = fwrite(h, 1, sizeof h, f) == sizeof h && fwrite(p.wdl, 1, p.wdl_bytes, f) == p.wdl_bytes
              && fwrite(p.dtm, 1, p.dtm_bytes, f) == p.dtm_bytes;
    ok &= fclose(f) == 0;
    tb_pack_out_free(&p);
    if (ok && rename(tmp, path) != 0) { /* Windows will not rename over a file: remove it first */
        remove(path);
        ok = rename(tmp, path) == 0;
    }
    if (!ok) {
        remove(tmp);
        return file_fail(err, path, "write failed");
    }
    return true;
}

/* Checks a header's bytes into *out; file_size is the file's length. */
static bool parse_header(const unsigned char *h, uint64_t file_size, const char *path, TbHeader *out, XqError *err)
{
    if (memcmp(h, MAGIC, sizeof MAGIC) != 0)
        return file_fail(err, path, "not a Jiangjun tablebase (bad magic)");
    TbHeader r;
    memset(&r, 0, sizeof r);
    r.version = (unsigned)le_get(h + OFF_VERSION, 4);
    if (r.version == TB_FILE_VERSION_RAW)
        return file_fail(err, path,
                         "format version 1 (no perpetual-check rule, uncompressed): regenerate it "
                         "(jiangjun tb gen)");
    if (r.version == TB_FILE_VERSION_OLD_INDEX)
        return file_fail(err, path, "format version 2 (the older, larger index): regenerate it (jiangjun tb gen)");
    if (r.version != TB_FILE_VERSION)
        return file_fail(err, path, "unsupported tablebase version (this engine reads version 3)");
    if (file_size < TB_HEADER_SIZE)
        return file_fail(err, path, "truncated file (shorter than the header)");
    if (le_get(h + OFF_HCHECK, 8) != fnv1a(FNV_OFFSET, h, OFF_HCHECK))
        return file_fail(err, path, "header checksum mismatch (corrupt file)");
    r.rules = (unsigned)le_get(h + OFF_RULES, 4);
    r.encoding = (unsigned)le_get(h + OFF_ENCODING, 4);
    if (r.rules != TB_RULES_CHECK)
        return file_fail(err, path, "unknown rule set (this engine reads rule set 2)");
    if (r.encoding != TB_ENCODING_BLOCKS || le_get(h + OFF_HSIZE, 4) != TB_HEADER_SIZE)
        return file_fail(err, path, "unknown encoding or header size");
    memcpy(r.name, h + OFF_NAME, TB_SIG_TEXT - 1);
    r.entries = le_get(h + OFF_ENTRIES, 8);
    r.block = (unsigned)le_get(h + OFF_BLOCK, 4);
    r.wdl_bytes = le_get(h + OFF_WDL_BYTES, 8);
    r.dtm_bytes = le_get(h + OFF_DTM_BYTES, 8);
    r.checksum = le_get(h + OFF_CHECKSUM, 8);
    r.stats.positions = le_get(h + OFF_POSITIONS, 8);
    r.stats.wins = le_get(h + OFF_WINS, 8);
    r.stats.draws = le_get(h + OFF_DRAWS, 8);
    r.stats.losses = le_get(h + OFF_LOSSES, 8);
    r.stats.rule_wins = le_get(h + OFF_RULE_WINS, 8);
    r.stats.rule_losses = le_get(h + OFF_RULE_LOSSES, 8);
    r.stats.longest_win = (unsigned)le_get(h + OFF_LONGEST_WIN, 4);
    r.stats.longest_loss = (unsigned)le_get(h + OFF_LONGEST_LOSS, 4);
    TbSig sig;
    XqError e;
    if (!tb_sig_parse(r.name, &sig, &e) || tb_sig_unsupported(&sig) || !tb_sig_is_canonical(&sig))
        return file_fail(err, path, "the header names no signature a table is stored under");
    TbLayout *layout = malloc(sizeof *layout);
    if (!layout)
        return file_fail(err, path, "out of memory");
    tb_layout_init(layout, &sig);
    bool sizes = layout->size == r.entries;
    free(layout);
    if (!sizes)
        return file_fail(err, path, "the entry count does not fit the signature");
    uint64_t payload = r.wdl_bytes + r.dtm_bytes;
    if (r.wdl_bytes > file_size || r.dtm_bytes > file_size || file_size - TB_HEADER_SIZE != payload)
        return file_fail(err, path,
                         file_size - TB_HEADER_SIZE < payload || r.wdl_bytes > file_size || r.dtm_bytes > file_size
                             ? "truncated file"
                             : "trailing bytes after the sections");
    *out = r;
    return true;
}

/* Reads and checks a file's header only; false with err filled. */
bool tb_file_header(const char *path, TbHeader *h, XqError *err)
{
    XqError why;
    if (!file_is_regular(path, SIZE_MAX, &why)) /* a FIFO or a device would block fopen (or never end) */
        return file_fail(err, path, why.msg);
    FILE *f = fopen(path, "rb");
    if (!f)
        return file_fail(err, path, strerror(errno));
    unsigned char raw[TB_HEADER_SIZE] = { 0 };
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    rewind(f);
    size_t got = size > 0 ? fread(raw, 1, sizeof raw, f) : 0;
    fclose(f);
    if (got < sizeof MAGIC + 4)
        return file_fail(err, path, "truncated file (shorter than the header)");
    return parse_header(raw, (uint64_t)size, path, h, err);
}

/* The file's bytes: mapped where the system can, else read whole; NULL with err filled. */
static void *load_bytes(const char *path, size_t *size, bool *mapped, XqError *err)
{
    XqError why;
    if (!file_is_regular(path, SIZE_MAX, &why)) {
        file_fail(err, path, why.msg);
        return NULL;
    }
    void *map = platform_file_map(path, size);
    *mapped = map != NULL;
    if (map)
        return map;
    uint8_t *data;
    if (!file_load(path, NULL, SIZE_MAX, &data, size, &why)) {
        file_fail(err, path, why.msg);
        return NULL;
    }
    return data;
}

/* Reads and checks a table file; NULL with err filled if it is refused. */
TbTable *tb_file_read(const char *path, XqError *err)
{
    size_t size;
    bool mapped;
    uint8_t *bytes = load_bytes(path, &size, &mapped, err);
    if (!bytes)
        return NULL;
    TbHeader h;
    TbTable *t = NULL;
    const char *why = NULL;
    if (size < sizeof MAGIC + 4) {
        file_fail(err, path, "truncated file (shorter than the header)");
    } else if (parse_header(bytes, size, path, &h, err)) {
        TbSig sig;
        tb_sig_parse(h.name, &sig, err); /* checked by the header */
        TbPacked p = { .wdl = bytes + TB_HEADER_SIZE,
                       .dtm = bytes + TB_HEADER_SIZE + h.wdl_bytes,
                       .wdl_bytes = h.wdl_bytes,
                       .dtm_bytes = h.dtm_bytes,
                       .entries = h.entries,
                       .block = h.block,
                       .blocks = h.block ? (h.entries + h.block - 1) / h.block : 0 };
        if (fnv1a(FNV_OFFSET, bytes + TB_HEADER_SIZE, size - TB_HEADER_SIZE) != h.checksum)
            why = "payload checksum mismatch (corrupt file)";
        else if ((why = tb_pack_check(&p)) == NULL && !(t = tb_table_shell(&sig)))
            why = "out of memory";
        if (t) {
            t->packed = p;
            t->file = bytes;
            t->file_size = size;
            t->mapped = mapped;
            t->stats = h.stats;
            return t;
        }
        file_fail(err, path, why);
    }
    if (mapped)
        platform_file_unmap(bytes, size);
    else
        free(bytes);
    return NULL;
}
