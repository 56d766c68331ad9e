/*
 * gen_text.h - record files to and from text, and their statistics (xqgen
 * convert, dump and stats).
 *
 * Text lines are the project's labelled format `FEN;result;cp` (tools/xqtune/README.md:
 * result 1/0.5/0 and cp from red's view, mates as +-3000) or the dump format
 * `FEN;result;cp;ply;flags`, which keeps every field of a record, so
 * dump and convert round-trip exactly.
 */
#ifndef XQG_GEN_TEXT_H
#define XQG_GEN_TEXT_H

#include <stdio.h>

#include "common/rec_file.h"

enum {
    GEN_PLY_UNKNOWN = 0xFFFF,  /* ply of a converted `FEN;result;cp` line (the text has none) */
    GEN_TEXT_MAX = 256,        /* longest text line accepted, with its newline */
    GEN_BAD_SHOWN = 5,         /* bad lines whose number and reason are kept */
    GEN_SCORE_BUCKETS = 10,    /* stats histogram: 9 score ranges and the mates */
};

/* What a conversion read. */
typedef struct ConvertStats {
    long lines, records, bad;
    long bad_line[GEN_BAD_SHOWN];       /* line numbers of the first bad lines */
    XqError bad_why[GEN_BAD_SHOWN];
} ConvertStats;

/* Statistics over records (xqgen stats). */
typedef struct RecordStats {
    uint64_t count, bad;                /* bad: not a legal board, or a result outside -1..1 */
    uint64_t in_check, capture, mate;
    uint64_t result[3];                 /* side to move's view: loss, draw, win */
    uint64_t red_result[3];             /* red's view: loss, draw, win */
    uint64_t score_bucket[GEN_SCORE_BUCKETS];
    uint64_t ply_known;
    unsigned ply_min, ply_max;
    double ply_sum;
} RecordStats;

/* Parses one text line (either format) into a record; false with err filled if it is not valid. */
bool gen_parse_line(const char *line, PackedPos *rec, XqError *err);
/* Writes a record as a dump line `FEN;result;cp;ply;flags` (no newline); false with err if it is not valid. */
bool gen_format_record(const PackedPos *rec, char *out, size_t size, XqError *err);
/* Converts text lines to records in a format (with the header); false with err filled on an I/O error. */
bool gen_convert(FILE *in, FILE *out, RecFormat format, ConvertStats *st, XqError *err);
/* Adds one record to the statistics. */
void gen_stats_add(RecordStats *st, const PackedPos *rec);
/* Prints the statistics. */
void gen_stats_print(FILE *f, const RecordStats *st);

#endif
