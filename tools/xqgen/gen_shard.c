/* gen_shard.c - the shares of a sharded run, the shard envelope, and merging shards. */
#include "gen_shard.h"

#include <stdlib.h>
#include <string.h>

#include "base/fileload.h"
#include "engine/version.h"
#include "eval/nnue/nnue_embed.h"
#include "gen_files.h"

enum {
    OFF_SIZE = 8,
    OFF_INDEX = 12,
    OFF_COUNT = 16,
    OFF_STATE = 20,
    OFF_TOTAL = 24,
    OFF_FIRST = 32,
    OFF_GAMES = 40,
    OFF_WRITTEN = 48,
    OFF_RECORDS = 56,
    OFF_OPTIONS = 64,
    OFF_BUILD = OFF_OPTIONS + SHARD_OPTIONS_MAX,
    COPY_CHUNK = 1 << 20,
    NET_FILE_MAX = 1 << 30,
    TOKEN_SHOWN = 32, /* an option and its value, as an error shows them */
};

static const char *const STATE_WHY[SHARD_STATES] = {
    "its run is still going on or was killed",
    "",
    "its run was stopped early",
};

static const uint64_t FNV64_OFFSET = 0xcbf29ce484222325ull, FNV64_PRIME = 0x100000001b3ull;

/* The evaluation's name in a shard's options. */
bool gen_net_identity(const char *net_arg, const void *net, char *out, size_t size, XqError *err)
{
    if (!net) {
        snprintf(out, size, "hce");
        return true;
    }
    uint8_t *owned = NULL;
    const uint8_t *data = embedded_net_data();
    size_t n = embedded_net_size();
    if (net_arg && strcmp(net_arg, "nnue") != 0) {
        XqError why;
        if (!file_load(net_arg, NULL, NET_FILE_MAX, &owned, &n, &why)) {
            snprintf(err->msg, sizeof err->msg, "-net %.60s: %.80s", net_arg, why.msg);
            return false;
        }
        data = owned;
    }
    uint64_t h = FNV64_OFFSET;
    for (size_t i = 0; i < n; i++)
        h = (h ^ data[i]) * FNV64_PRIME;
    free(owned);
    snprintf(out, size, "fnv1a64:%016llx", (unsigned long long)h);
    return true;
}

/* Parses "I/N". */
bool gen_shard_parse(const char *text, uint32_t *index, uint32_t *count)
{
    unsigned long i, n;
    int used = 0;
    if (text[0] < '0' || text[0] > '9' || sscanf(text, "%lu/%lu%n", &i, &n, &used) != 2 || text[used] || i < 1 || i > n
        || n > SHARD_MAX_COUNT)
        return false;
    *index = (uint32_t)i;
    *count = (uint32_t)n;
    return true;
}

/* Shard index's games of a run of total games cut into count contiguous shares. */
static void shard_range(uint64_t total, uint32_t index, uint32_t count, uint64_t *first, uint64_t *games)
{
    uint64_t base = total / count, extra = total % count, before = index - 1;
    *first = before * base + (before < extra ? before : extra);
    *games = base + (before < extra ? 1 : 0);
}

/* Sets up shard I of N. */
bool gen_shard_init(GenShard *s, uint32_t index, uint32_t count, uint64_t total_games, const GenConfig *cfg,
                    RecFormat format, const char *net_id, XqError *err)
{
    memset(s, 0, sizeof *s);
    if (count > total_games) {
        snprintf(err->msg, sizeof err->msg, "-shard %u/%u: more shards than the %llu games", index, count,
                 (unsigned long long)total_games);
        return false;
    }
    s->index = index;
    s->count = count;
    s->total_games = total_games;
    shard_range(total_games, index, count, &s->first, &s->games);
    snprintf(s->options, sizeof s->options,
             "-games %llu -seed %llu -nodes %llu -random-plies %d-%d -hash %zu -max-plies %d -open-limit %d "
             "-resign %d -resign-moves %d -draw-ply %d -draw-moves %d -draw-score %d -rules %s -net %s -format %s",
             (unsigned long long)total_games, (unsigned long long)cfg->seed, (unsigned long long)cfg->nodes,
             cfg->random_min, cfg->random_max, cfg->hash_mb, cfg->max_plies, cfg->open_limit, cfg->resign_cp,
             cfg->resign_moves, cfg->draw_ply, cfg->draw_moves, cfg->draw_cp, cfg->rules->name, net_id,
             rec_format_name(format));
    snprintf(s->build, sizeof s->build, "%s %s", version_engine_name(), version_revision());
    return true;
}

/* Little-endian stores and loads. */
static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p) { return (uint32_t)p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get_u64(const uint8_t *p) { return get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

/* Writes the envelope at the start of f. */
bool gen_shard_write(FILE *f, const GenShard *s)
{
    uint8_t h[SHARD_SIZE] = { 0 };
    memcpy(h, REC_ENVELOPE_MAGIC, REC_ENVELOPE_MAGIC_SIZE);
    put_u32(h + OFF_SIZE, SHARD_SIZE);
    put_u32(h + OFF_INDEX, s->index);
    put_u32(h + OFF_COUNT, s->count);
    put_u32(h + OFF_STATE, (uint32_t)s->state);
    put_u64(h + OFF_TOTAL, s->total_games);
    put_u64(h + OFF_FIRST, s->first);
    put_u64(h + OFF_GAMES, s->games);
    put_u64(h + OFF_WRITTEN, s->games_written);
    put_u64(h + OFF_RECORDS, s->records_written);
    memcpy(h + OFF_OPTIONS, s->options, strnlen(s->options, SHARD_OPTIONS_MAX - 1));
    memcpy(h + OFF_BUILD, s->build, strnlen(s->build, SHARD_BUILD_MAX - 1));
    return fseek(f, 0, SEEK_SET) == 0 && fwrite(h, 1, sizeof h, f) == sizeof h;
}

/* Reads and checks the envelope at the start of f. */
bool gen_shard_read(FILE *f, GenShard *s, XqError *err)
{
    uint8_t h[SHARD_SIZE];
    memset(s, 0, sizeof *s);
    if (fseek(f, 0, SEEK_SET) != 0 || fread(h, 1, sizeof h, f) != sizeof h
        || memcmp(h, REC_ENVELOPE_MAGIC, REC_ENVELOPE_MAGIC_SIZE) != 0 || get_u32(h + OFF_SIZE) != SHARD_SIZE) {
        snprintf(err->msg, sizeof err->msg, "not a shard file (no %d-byte XQSHARD header)", SHARD_SIZE);
        return false;
    }
    s->index = get_u32(h + OFF_INDEX);
    s->count = get_u32(h + OFF_COUNT);
    s->state = (ShardState)get_u32(h + OFF_STATE);
    s->total_games = get_u64(h + OFF_TOTAL);
    s->first = get_u64(h + OFF_FIRST);
    s->games = get_u64(h + OFF_GAMES);
    s->games_written = get_u64(h + OFF_WRITTEN);
    s->records_written = get_u64(h + OFF_RECORDS);
    uint64_t first, games;
    bool ok = s->count >= 1 && s->count <= SHARD_MAX_COUNT && s->index >= 1 && s->index <= s->count
              && (unsigned)s->state < SHARD_STATES && h[OFF_BUILD - 1] == 0 && h[SHARD_SIZE - 1] == 0;
    if (ok) {
        shard_range(s->total_games, s->index, s->count, &first, &games);
        ok = first == s->first && games == s->games && s->games_written <= s->games;
    }
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "damaged shard header");
        return false;
    }
    memcpy(s->options, h + OFF_OPTIONS, SHARD_OPTIONS_MAX);
    memcpy(s->build, h + OFF_BUILD, SHARD_BUILD_MAX);
    s->build[SHARD_BUILD_MAX - 1] = '\0';
    return true;
}

/* The "-name value" option of an option text that starts at offset start, into out. */
static void option_at(const char *text, size_t start, char *out, size_t size)
{
    size_t end = start;
    for (int spaces = 0; text[end] && !(text[end] == ' ' && ++spaces == 2);)
        end++;
    snprintf(out, size, "%.*s", (int)(end - start), text + start);
}

/* Offset of the first option where two option texts differ. */
static size_t first_difference(const char *a, const char *b)
{
    size_t i = 0, start = 0;
    for (; a[i] && a[i] == b[i]; i++)
        if (a[i] == '-' && (i == 0 || a[i - 1] == ' '))
            start = i;
    return start;
}

/* One shard given to merge: its header, path, and where its records are. */
typedef struct ShardFile {
    GenShard h;
    const char *path;
    RecFormat format;
    long start; /* offset of its first record or block */
    uint8_t record_header[REC_FILE_HEADER];
} ShardFile;

/* Reads and checks one shard file for merge. */
static bool load_shard(const char *path, ShardFile *sf, XqError *err)
{
    XqError why;
    sf->path = path;
    FILE *f = fopen(path, "rb");
    bool ok =
        f && gen_shard_read(f, &sf->h, &why) && fread(sf->record_header, 1, REC_FILE_HEADER, f) == REC_FILE_HEADER;
    if (f)
        fclose(f);
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "%.60s: %.90s", path, f ? why.msg : "cannot open");
        return false;
    }
    if (sf->h.state != SHARD_COMPLETE || sf->h.games_written != sf->h.games) {
        snprintf(err->msg, sizeof err->msg,
                 "%.50s: shard %u/%u is not complete, %llu of %llu games (%s): play it again", path, sf->h.index,
                 sf->h.count, (unsigned long long)sf->h.games_written, (unsigned long long)sf->h.games,
                 STATE_WHY[sf->h.state == SHARD_COMPLETE ? SHARD_STOPPED : sf->h.state]);
        return false;
    }
    RecReader r;
    RecScan scan;
    if (!gen_open_reader(path, &r, err))
        return false;
    ok = rec_reader_scan(&r, &scan, &why);
    sf->format = r.format;
    sf->start = r.start;
    rec_reader_close(&r);
    if (!ok || scan.tail || scan.records != sf->h.records_written) {
        snprintf(err->msg, sizeof err->msg, "%.60s: damaged: %.80s", path,
                 !ok         ? why.msg
                 : scan.tail ? "ends in a cut-off record"
                             : "holds other records than its header says");
        return false;
    }
    return true;
}

/* Do the shards make one whole run (same options, each index once)? Sorts them by index. */
static bool check_shards(ShardFile *sf, int n, FILE *log, XqError *err)
{
    const GenShard *a = &sf[0].h;
    for (int i = 1; i < n; i++) {
        const GenShard *b = &sf[i].h;
        if (b->count != a->count) {
            snprintf(err->msg, sizeof err->msg, "%.50s is shard %u/%u but %.50s is shard %u/%u: not one run",
                     sf[0].path, a->index, a->count, sf[i].path, b->index, b->count);
            return false;
        }
        if (strcmp(a->options, b->options) != 0) {
            char x[TOKEN_SHOWN], y[TOKEN_SHOWN];
            size_t at = first_difference(a->options, b->options);
            option_at(a->options, at, x, sizeof x);
            option_at(b->options, at, y, sizeof y);
            snprintf(err->msg, sizeof err->msg, "%.30s: another run than %.30s ('%s' against '%s')", sf[i].path,
                     sf[0].path, y, x);
            return false;
        }
        if (log && strcmp(a->build, b->build) != 0)
            fprintf(log,
                    "xqgen: warning: %s was made by %s, %s by %s: the merged file equals an unsharded run "
                    "only if both builds play the same games\n",
                    sf[0].path, a->build, sf[i].path, b->build);
    }
    for (int i = 1; i < n; i++) { /* insertion sort by index */
        ShardFile t = sf[i];
        int j = i;
        for (; j > 0 && sf[j - 1].h.index > t.h.index; j--)
            sf[j] = sf[j - 1];
        sf[j] = t;
    }
    for (int i = 1; i < n; i++)
        if (sf[i].h.index == sf[i - 1].h.index) {
            snprintf(err->msg, sizeof err->msg, "shard %u/%u is given twice (%.50s and %.50s)", sf[i].h.index, a->count,
                     sf[i - 1].path, sf[i].path);
            return false;
        }
    for (int i = 0; i < (int)a->count; i++)
        if (i >= n || sf[i].h.index != (uint32_t)i + 1) {
            snprintf(err->msg, sizeof err->msg, "shard %d/%u is missing (%d of %u shards given)", i + 1, a->count, n,
                     a->count);
            return false;
        }
    return true;
}

/* Appends the records of one shard file to out; false on an I/O error. */
static bool copy_records(const ShardFile *sf, FILE *out, uint8_t *buf, uint64_t *bytes)
{
    FILE *in = fopen(sf->path, "rb");
    bool ok = in && fseek(in, sf->start, SEEK_SET) == 0;
    size_t got;
    while (ok && (got = fread(buf, 1, COPY_CHUNK, in)) > 0) {
        ok = fwrite(buf, 1, got, out) == got;
        *bytes += got;
    }
    ok = ok && !ferror(in);
    if (in)
        fclose(in);
    return ok;
}

/* Joins shard files into out_path. */
bool gen_merge(const char *out_path, char *const *paths, int n, FILE *log, MergeStats *st, XqError *err)
{
    memset(st, 0, sizeof *st);
    ShardFile *sf = calloc((size_t)n, sizeof *sf);
    uint8_t *buf = malloc(COPY_CHUNK);
    bool ok = sf && buf;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    for (int i = 0; ok && i < n; i++) {
        ok = load_shard(paths[i], &sf[i], err);
        if (ok && gen_same_file(paths[i], out_path)) {
            snprintf(err->msg, sizeof err->msg, "%.70s: the output would overwrite a shard", out_path);
            ok = false;
        }
    }
    ok = ok && check_shards(sf, n, log, err);
    FILE *out = ok ? fopen(out_path, "wb") : NULL;
    if (ok && !out) {
        snprintf(err->msg, sizeof err->msg, "cannot write %.100s", out_path);
        ok = false;
    }
    if (ok) {
        st->bytes = REC_FILE_HEADER;
        ok = fwrite(sf[0].record_header, 1, REC_FILE_HEADER, out) == REC_FILE_HEADER;
        for (int i = 0; ok && i < n; i++) {
            ok = copy_records(&sf[i], out, buf, &st->bytes);
            st->games += sf[i].h.games;
            st->records += sf[i].h.records_written;
        }
        ok = (fclose(out) == 0) && ok;
        if (!ok) {
            snprintf(err->msg, sizeof err->msg, "I/O error writing %.100s", out_path);
            remove(out_path);
        }
        st->shards = (uint32_t)n;
        st->format = sf[0].format;
    }
    free(sf);
    free(buf);
    return ok;
}
