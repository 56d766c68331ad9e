/* rec_file.c - reading and writing record files of either format (plain 40-byte records, compact blocks). */
#include "rec_file.h"

#include <string.h>

const uint8_t REC_ENVELOPE_MAGIC[REC_ENVELOPE_MAGIC_SIZE] = { 'X', 'Q', 'S', 'H', 'A', 'R', 'D', 1 };
static const uint8_t PLAIN_MAGIC[8] = { 'X', 'Q', 'P', 'O', 'S', 0, 0, 1 };
static const uint8_t COMPACT_MAGIC[8] = { 'X', 'Q', 'P', 'A', 'C', 'K', 0, 1 };
static const char *const FORMAT_NAME[REC_FORMATS] = { "plain", "compact" };

enum { MAGIC_SIZE = 8, SIZE_FIELD = 8 };

/* Name of a format. */
const char *rec_format_name(RecFormat format) { return (unsigned)format < REC_FORMATS ? FORMAT_NAME[format] : "?"; }

/* Parses a format name. */
bool rec_format_parse(const char *name, RecFormat *format)
{
    for (int i = 0; i < REC_FORMATS; i++)
        if (strcmp(name, FORMAT_NAME[i]) == 0) {
            *format = (RecFormat)i;
            return true;
        }
    return false;
}

/* Writes a format's file header. */
bool rec_write_header(FILE *f, RecFormat format)
{
    if (format == REC_PLAIN)
        return packed_write_header(f);
    uint8_t h[REC_FILE_HEADER] = { 0 };
    memcpy(h, COMPACT_MAGIC, MAGIC_SIZE);
    h[SIZE_FIELD] = NNUE_REC_SIZE;
    return fwrite(h, 1, sizeof h, f) == sizeof h;
}

/* Little-endian uint32 at p. */
static uint32_t get_u32(const uint8_t *p) { return (uint32_t)p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* Reads the file header at the current offset (past an envelope if one is there); false with err if none. */
static bool read_header(RecReader *r, XqError *err)
{
    uint8_t h[REC_FILE_HEADER];
    if (fread(h, 1, sizeof h, r->f) != sizeof h) {
        snprintf(err->msg, sizeof err->msg, "not a record file: shorter than its 16-byte header");
        return false;
    }
    if (memcmp(h, REC_ENVELOPE_MAGIC, MAGIC_SIZE) == 0) {
        uint32_t size = get_u32(h + SIZE_FIELD);
        if (size < REC_ENVELOPE_MIN || size > REC_ENVELOPE_MAX || fseek(r->f, (long)size, SEEK_SET) != 0) {
            snprintf(err->msg, sizeof err->msg, "bad shard envelope (size %u)", size);
            return false;
        }
        if (fread(h, 1, sizeof h, r->f) != sizeof h) {
            snprintf(err->msg, sizeof err->msg, "shard without a record file after its envelope");
            return false;
        }
    }
    if (memcmp(h, COMPACT_MAGIC, MAGIC_SIZE) == 0) {
        if (get_u32(h + SIZE_FIELD) != NNUE_REC_SIZE) {
            snprintf(err->msg, sizeof err->msg, "compact file of %u-byte records, not %d", get_u32(h + SIZE_FIELD),
                     NNUE_REC_SIZE);
            return false;
        }
        r->format = REC_COMPACT;
        return true;
    }
    if (memcmp(h, PLAIN_MAGIC, MAGIC_SIZE) != 0) {
        snprintf(err->msg, sizeof err->msg, "not a record file: bad magic (want \"XQPOS\" or \"XQPACK\" version 1)");
        return false;
    }
    if (fseek(r->f, -(long)sizeof h, SEEK_CUR) != 0 || !packed_read_header(r->f, err))
        return false;
    r->format = REC_PLAIN;
    return true;
}

/* Opens a record file of either format. */
bool rec_reader_open(RecReader *r, const char *path, XqError *err)
{
    memset(r, 0, sizeof *r);
    r->f = fopen(path, "rb");
    if (!r->f) {
        snprintf(err->msg, sizeof err->msg, "cannot open");
        return false;
    }
    bool ok = fseek(r->f, 0, SEEK_END) == 0 && (r->size = ftell(r->f)) >= 0 && fseek(r->f, 0, SEEK_SET) == 0;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "cannot seek");
    ok = ok && read_header(r, err);
    if (ok && r->format == REC_COMPACT && !pack_decoder_init(&r->dec)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        ok = false;
    }
    if (!ok) {
        rec_reader_close(r);
        return false;
    }
    r->start = ftell(r->f);
    return true;
}

/* Marks the reader failed with a message about the block at offset at; returns false. */
static bool fail_at(RecReader *r, long at, const char *why)
{
    r->failed = true;
    snprintf(r->err.msg, sizeof r->err.msg, "at byte %ld: %.120s", at, why);
    return false;
}

/*
 * Reads the header of the next block (its bytes into buf, if not NULL, else skipped past): 1 with its size,
 * length of header and record count; 0 at the end (r->tail set for a cut-off block); -1 on an error.
 */
static int next_block_header(RecReader *r, uint8_t hdr[PACK_HEADER_MAX], size_t *size, size_t *hlen, uint32_t *records)
{
    long at = ftell(r->f);
    size_t have = fread(hdr, 1, PACK_HEAD_BYTES, r->f);
    XqError why;
    int res = 0;
    if (have == 0 && !ferror(r->f))
        return 0;
    while (have > 0 && (res = pack_block_header(hdr, have, size, records, &why)) == 0 && have >= PACK_HEAD_BYTES
           && have < PACK_HEADER_MAX && fread(hdr + have, 1, 1, r->f) == 1)
        have++;
    if (ferror(r->f) || res < 0) {
        fail_at(r, at, res < 0 ? why.msg : "read error");
        return -1;
    }
    if (res == 0 || at + (long)*size > r->size) {
        r->tail = r->size - at;
        return 0;
    }
    *hlen = have;
    return 1;
}

/* Reads the next whole block into r->block and starts decoding it; false at the end or on an error. */
static bool next_block(RecReader *r)
{
    uint8_t hdr[PACK_HEADER_MAX];
    size_t size, hlen;
    uint32_t records;
    long at = ftell(r->f);
    if (next_block_header(r, hdr, &size, &hlen, &records) != 1)
        return false;
    r->block.len = 0;
    if (!pack_buf_reserve(&r->block, size) || !pack_buf_append(&r->block, hdr, hlen))
        return fail_at(r, at, "out of memory");
    if (fread(r->block.data + hlen, 1, size - hlen, r->f) != size - hlen)
        return fail_at(r, at, "read error");
    r->block.len = size;
    XqError why;
    if (!pack_decoder_start(&r->dec, r->block.data, size, &why))
        return fail_at(r, at, why.msg);
    r->in_block = true;
    return true;
}

/* The next record's 40 bytes. */
bool rec_reader_next(RecReader *r, uint8_t raw[NNUE_REC_SIZE])
{
    if (r->failed)
        return false;
    if (r->format == REC_PLAIN) {
        size_t got = fread(raw, 1, NNUE_REC_SIZE, r->f);
        if (got == NNUE_REC_SIZE)
            return true;
        if (ferror(r->f))
            return fail_at(r, ftell(r->f), "read error");
        r->tail = (long)got;
        return false;
    }
    for (;;) {
        if (!r->in_block && !next_block(r))
            return false;
        XqError why;
        int res = pack_decoder_next(&r->dec, raw, &why);
        if (res > 0)
            return true;
        r->in_block = false;
        if (res < 0)
            return fail_at(r, ftell(r->f), why.msg);
    }
}

/* Ply of a record's 40 bytes. */
static unsigned raw_ply(const uint8_t *raw) { return (unsigned)(raw[36] | raw[37] << 8); }

/* The plies of the next records without decoding them. */
bool rec_reader_next_plies(RecReader *r, unsigned *first, uint32_t *count)
{
    uint8_t raw[NNUE_REC_SIZE];
    if (r->format == REC_PLAIN || r->in_block) {
        *count = 1;
        bool ok = rec_reader_next(r, raw);
        *first = raw_ply(raw);
        return ok;
    }
    uint8_t hdr[PACK_HEADER_MAX];
    size_t size, hlen;
    long at = ftell(r->f);
    if (next_block_header(r, hdr, &size, &hlen, count) != 1)
        return false;
    if (fseek(r->f, at + (long)size, SEEK_SET) != 0)
        return fail_at(r, at, "seek error");
    *first = raw_ply(hdr + 1);
    return true;
}

/* Skips up to n records. */
uint64_t rec_reader_skip(RecReader *r, uint64_t n)
{
    uint8_t raw[NNUE_REC_SIZE];
    uint64_t done = 0;
    if (r->format == REC_PLAIN) {
        long here = ftell(r->f);
        uint64_t left = here < 0 ? 0 : (uint64_t)(r->size - here) / NNUE_REC_SIZE;
        done = n < left ? n : left;
        if (fseek(r->f, here + (long)(done * NNUE_REC_SIZE), SEEK_SET) != 0)
            return 0;
        return done;
    }
    while (done < n && !r->failed) {
        if (!r->in_block) {
            uint8_t hdr[PACK_HEADER_MAX];
            size_t size, hlen;
            uint32_t records;
            long at = ftell(r->f);
            int res = next_block_header(r, hdr, &size, &hlen, &records);
            if (res != 1)
                break;
            bool whole = records <= n - done;
            if (fseek(r->f, whole ? at + (long)size : at, SEEK_SET) != 0)
                break;
            if (whole) {
                done += records;
                continue;
            }
        }
        if (!rec_reader_next(r, raw))
            break;
        done++;
    }
    return done;
}

/* Counts the records, then goes back to the first. */
bool rec_reader_scan(RecReader *r, RecScan *scan, XqError *err)
{
    memset(scan, 0, sizeof *scan);
    scan->bytes = (uint64_t)r->size;
    if (r->format == REC_PLAIN) {
        scan->records = (uint64_t)(r->size - r->start) / NNUE_REC_SIZE;
        scan->tail = (r->size - r->start) % NNUE_REC_SIZE;
        return true;
    }
    bool ok = rec_reader_rewind(r);
    while (ok) {
        uint8_t hdr[PACK_HEADER_MAX];
        size_t size, hlen;
        uint32_t records;
        long at = ftell(r->f);
        int res = next_block_header(r, hdr, &size, &hlen, &records);
        if (res <= 0) {
            ok = res == 0;
            break;
        }
        scan->records += records;
        scan->blocks++;
        ok = fseek(r->f, at + (long)size, SEEK_SET) == 0;
    }
    scan->tail = r->tail;
    if (!ok)
        *err = r->failed ? r->err : (XqError){ "seek error" };
    return rec_reader_rewind(r) && ok;
}

/* Goes back to the first record. */
bool rec_reader_rewind(RecReader *r)
{
    r->in_block = false;
    r->failed = false;
    r->tail = 0;
    return fseek(r->f, r->start, SEEK_SET) == 0;
}

/* Closes the file and frees the reader. */
void rec_reader_close(RecReader *r)
{
    if (r->f)
        fclose(r->f);
    if (r->dec.pos)
        pack_decoder_free(&r->dec);
    pack_buf_free(&r->block);
    memset(r, 0, sizeof *r);
}

/* Starts a writer. */
bool rec_writer_init(RecWriter *w, FILE *f, RecFormat format)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->format = format;
    return format == REC_PLAIN || pack_encoder_init(&w->enc);
}

/* Writes out the blocks the encoder has finished. */
static bool write_blocks(RecWriter *w)
{
    bool ok = fwrite(w->buf.data, 1, w->buf.len, w->f) == w->buf.len;
    w->buf.len = 0;
    return ok;
}

/* Writes a record. */
bool rec_writer_put(RecWriter *w, const uint8_t raw[NNUE_REC_SIZE])
{
    if (w->format == REC_PLAIN)
        return fwrite(raw, 1, NNUE_REC_SIZE, w->f) == NNUE_REC_SIZE;
    return pack_encoder_add(&w->enc, raw, &w->buf) && (w->buf.len == 0 || write_blocks(w));
}

/* Ends a game. */
bool rec_writer_end_game(RecWriter *w)
{
    if (w->format == REC_PLAIN)
        return true;
    return pack_encoder_flush(&w->enc, &w->buf) && (w->buf.len == 0 || write_blocks(w));
}

/* Frees a writer. */
void rec_writer_free(RecWriter *w)
{
    if (w->format == REC_COMPACT)
        pack_encoder_free(&w->enc);
    pack_buf_free(&w->buf);
    memset(w, 0, sizeof *w);
}
