/* gen_files.c - copying record files between the plain and the compact format. */
#include "gen_files.h"

#include <string.h>
#include <sys/stat.h>

#include "base/platform.h"

/* Opens a record file of either format. */
bool gen_open_reader(const char *path, RecReader *r, XqError *err)
{
    XqError why;
    if (rec_reader_open(r, path, &why))
        return true;
    snprintf(err->msg, sizeof err->msg, "%.60s: %.90s", path, why.msg);
    return false;
}

/* Is `out` the same file as `in`? */
bool gen_same_file(const char *in, const char *out)
{
    struct stat a, b;
    return stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Copies every record of in_path into out_path in format. */
bool gen_transcode(const char *in_path, const char *out_path, RecFormat format, TranscodeStats *st, XqError *err)
{
    memset(st, 0, sizeof *st);
    int64_t t0 = now_ms();
    if (gen_same_file(in_path, out_path)) {
        snprintf(err->msg, sizeof err->msg, "%.70s: the output would overwrite the input", out_path);
        return false;
    }
    RecReader r;
    if (!gen_open_reader(in_path, &r, err))
        return false;
    st->in_format = r.format;
    st->in_bytes = (uint64_t)r.size;
    FILE *out = fopen(out_path, "wb");
    RecWriter w;
    bool ok = out && rec_write_header(out, format) && rec_writer_init(&w, out, format);
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "cannot write %.100s", out_path);
        if (out)
            fclose(out);
        rec_reader_close(&r);
        remove(out_path);
        return false;
    }
    uint8_t raw[NNUE_REC_SIZE];
    while (ok && rec_reader_next(&r, raw)) {
        ok = rec_writer_put(&w, raw);
        st->records++;
    }
    ok = ok && rec_writer_end_game(&w);
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "write error on %.100s", out_path);
    else if (r.failed)
        snprintf(err->msg, sizeof err->msg, "%.60s: %.90s", in_path, r.err.msg);
    else if (r.tail)
        snprintf(err->msg, sizeof err->msg, "%.60s ends in a cut-off %s (%ld bytes)", in_path,
                 r.format == REC_PLAIN ? "record" : "block", r.tail);
    ok = ok && !r.failed && !r.tail;
    rec_writer_free(&w);
    rec_reader_close(&r);
    long size = ftell(out);
    if (fclose(out) != 0 && ok) {
        snprintf(err->msg, sizeof err->msg, "write error on %.100s", out_path);
        ok = false;
    }
    if (!ok) {
        remove(out_path);
        return false;
    }
    st->out_bytes = size > 0 ? (uint64_t)size : 0;
    st->ms = now_ms() - t0;
    return true;
}
