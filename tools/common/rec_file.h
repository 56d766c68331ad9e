/*
 * rec_file.h - training record files of either format behind one reader and
 * one writer: "plain" (the 40-byte records of src/eval/nnue/nnue_data.h) and
 * "compact" (the blocks of whole games of rec_pack.h). A reader tells them
 * apart by the magic of the 16-byte file header, never by the file's name:
 *   plain    "XQPOS\0\0\1", uint32 40, uint32 0, then 40-byte records
 *   compact  "XQPACK\0\1", uint32 40 (the size of the records it holds), uint32 0, then blocks
 * Either may come inside an envelope, which readers skip: the 8 bytes
 * "XQSHARD\1" and a uint32 envelope size, the envelope's other bytes its
 * owner's (xqgen's shard files; tools/xqgen/gen_shard.h), then the file.
 */
#ifndef XQT_REC_FILE_H
#define XQT_REC_FILE_H

#include <stdio.h>

#include "common/rec_pack.h"

typedef enum RecFormat { REC_PLAIN, REC_COMPACT, REC_FORMATS } RecFormat;

enum {
    REC_FILE_HEADER = 16, /* a record file's header, either format */
    REC_ENVELOPE_MAGIC_SIZE = 8,
    REC_ENVELOPE_MIN = 16, /* an envelope's size: magic, size, ... */
    REC_ENVELOPE_MAX = 1 << 20,
};

extern const uint8_t REC_ENVELOPE_MAGIC[REC_ENVELOPE_MAGIC_SIZE];

/* What a scan of a whole file found. */
typedef struct RecScan {
    uint64_t records, blocks; /* blocks: compact only */
    uint64_t bytes;           /* of the whole file */
    long tail;                /* bytes after the last whole record or block (a cut-off end) */
} RecScan;

/* Reads the records of one file in order. */
typedef struct RecReader {
    FILE *f;
    RecFormat format;
    long start; /* offset of the first record or block */
    long size;  /* of the file */
    long tail;  /* bytes of a cut-off record or block at the end, once reached */
    PackDecoder dec;
    PackBuf block;
    bool in_block, failed;
    XqError err; /* why it failed */
} RecReader;

/* Writes records in one format: a compact writer makes a block of each game. */
typedef struct RecWriter {
    FILE *f;
    RecFormat format;
    PackEncoder enc;
    PackBuf buf;
} RecWriter;

/* Name of a format ("plain", "compact"). */
const char *rec_format_name(RecFormat format);
/* Parses a format name; false if it is none. */
bool rec_format_parse(const char *name, RecFormat *format);
/* Writes a format's file header; false on a write error. */
bool rec_write_header(FILE *f, RecFormat format);

/* Opens a record file of either format (past an envelope) at its first record; false with err filled
 * (naming no file) if it cannot be read or is no record file. */
bool rec_reader_open(RecReader *r, const char *path, XqError *err);
/* The next record's 40 bytes: false at the end, or on an error (r->failed set, r->err filled); a cut-off
 * record or block at the end is no error (r->tail gets its size). */
bool rec_reader_next(RecReader *r, uint8_t raw[NNUE_REC_SIZE]);
/* The plies of the next records without decoding them: *count records of plies *first, *first + 1, ... (one
 * record of a plain file, a whole block of a compact one: a block's records are consecutive plies); false at
 * the end or on an error (r->failed). For a pass of its own: not after rec_reader_next without a rewind. */
bool rec_reader_next_plies(RecReader *r, unsigned *first, uint32_t *count);
/* Skips up to n records (whole blocks without decoding them); returns how many were skipped. */
uint64_t rec_reader_skip(RecReader *r, uint64_t n);
/* Counts the records without decoding them, then goes back to the first; false with err if the file is
 * corrupt or cannot be read. */
bool rec_reader_scan(RecReader *r, RecScan *scan, XqError *err);
/* Goes back to the first record; false on a seek error. */
bool rec_reader_rewind(RecReader *r);
/* Closes the file and frees the reader. */
void rec_reader_close(RecReader *r);

/* Starts a writer on an open file, after its header (the caller writes that); false if out of memory. */
bool rec_writer_init(RecWriter *w, FILE *f, RecFormat format);
/* Writes a record; false on a write error or out of memory. */
bool rec_writer_put(RecWriter *w, const uint8_t raw[NNUE_REC_SIZE]);
/* Ends a game (a compact writer writes its block); false on a write error or out of memory. */
bool rec_writer_end_game(RecWriter *w);
/* Frees a writer (after rec_writer_end_game; the file stays open). */
void rec_writer_free(RecWriter *w);

#endif
