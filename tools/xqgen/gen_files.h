/*
 * gen_files.h - whole record files: copying one into another format (xqgen
 * pack and unpack), and the checks that an output does not overwrite an input.
 */
#ifndef XQG_GEN_FILES_H
#define XQG_GEN_FILES_H

#include "common/rec_file.h"

/* What a copy read and wrote. */
typedef struct TranscodeStats {
    uint64_t records;
    uint64_t in_bytes, out_bytes; /* the whole files, headers included */
    RecFormat in_format;
    int64_t ms;
} TranscodeStats;

/* Opens a record file of either format; false with err naming the file and why. */
bool gen_open_reader(const char *path, RecReader *r, XqError *err);
/* Is `out` the same file as `in` (both exist and are one inode)? */
bool gen_same_file(const char *in, const char *out);
/* Copies every record of in_path into a new file out_path in `format`, each game a block when compact;
 * false with err filled (and no out_path left) on a bad input or an I/O error. */
bool gen_transcode(const char *in_path, const char *out_path, RecFormat format, TranscodeStats *st, XqError *err);

#endif
