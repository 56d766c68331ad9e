/*
 * rec_pack.h - the compact record format: whole games as blocks, each a first
 * record in full and then, for every further position, the move that reached
 * it and its score, a few bytes per position (as Stockfish's binpack does).
 * It holds exactly the records of the 40-byte format (src/eval/nnue/nnue_data.h):
 * a block decodes to the same 40 bytes per record that were encoded.
 *
 * Block layout (tools/xqgen/README.md says it in prose):
 *   byte 0    PACK_MARKER | k, where k (0..15) is the order of the scores' Exp-Golomb code
 *   1..40     the first record's 40 bytes, as in a 40-byte file
 *   LEB128    n, the further records of the block (0..65535)
 *   LEB128    the length in bytes of the body
 *   body      bits, least significant first. For each further record: its move, as the index of the
 *             move among the previous position's legal moves sorted by (from, to) plain square, in
 *             truncated binary; then zigzag(score + previous score) in Exp-Golomb order k. After them
 *             (n > 0) one bit: the last record's capture flag. Zero bits fill the last byte.
 * A further record is the previous position after its move, the pieces listed canonically (same-type
 * pieces in the order a FEN gives them), the other side to move, the same game result (so negated),
 * ply + 1, flags: in check from the position, mate when |score| >= PACK_MATE_SCORE, capture when the
 * next record's move captures (the last one's from the final bit), byte 39 zero. A record that is not
 * such a continuation of the one before (another game, an unknown ply, flags that disagree) starts
 * a new block, so every 40-byte file packs without loss.
 */
#ifndef XQT_REC_PACK_H
#define XQT_REC_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "eval/nnue/nnue_data.h"

enum {
    PACK_MARKER = 0xA0, /* high nibble of a block's first byte */
    PACK_MARKER_MASK = 0xF0,
    PACK_ORDERS = 16,         /* Exp-Golomb orders a block may use */
    PACK_MATE_SCORE = 3000,   /* |score| from which a continued record has the mate flag (xqgen's convention) */
    PACK_MAX_FURTHER = 65535, /* further records in one block at most (each adds a ply) */
    PACK_HEAD_BYTES = 1 + NNUE_REC_SIZE,                  /* marker and first record */
    PACK_LEB_MAX = 5,                                     /* bytes of a LEB128 number up to 2^35 */
    PACK_HEADER_MAX = PACK_HEAD_BYTES + 2 * PACK_LEB_MAX, /* longest block header */
};

/* A growable byte buffer. */
typedef struct PackBuf {
    uint8_t *data;
    size_t len, cap;
} PackBuf;

/* One further record of the block being built: its move code and its score code. */
typedef struct PackStep {
    uint8_t index, count; /* the move's index among count sorted legal moves */
    uint32_t zig;         /* zigzag(score + previous score) */
} PackStep;

/* Builds blocks from records given one by one. */
typedef struct PackEncoder {
    Position *pos;               /* the position of the block's last record (when has_pos) */
    bool open, has_pos;          /* a block is started; its last record is a legal board */
    uint8_t head[NNUE_REC_SIZE]; /* the block's first record */
    PackedPos last;              /* the block's last record */
    PackStep *step;
    size_t n, cap; /* further records */
} PackEncoder;

/* Reads the records of one block. */
typedef struct PackDecoder {
    Position *pos; /* the position of the last record returned */
    const uint8_t *body;
    size_t body_len, bit; /* the body and the next bit to read */
    uint8_t head[NNUE_REC_SIZE];
    PackedPos cur;    /* the last record returned */
    unsigned order;   /* Exp-Golomb order of the scores */
    uint32_t n, done; /* further records, and how many were returned */
    Move next;        /* the move to the next record, read ahead */
    bool head_done;
} PackDecoder;

/* Makes room for n more bytes; false if out of memory. */
bool pack_buf_reserve(PackBuf *b, size_t n);
/* Appends n bytes to a buffer; false if out of memory. */
bool pack_buf_append(PackBuf *b, const void *data, size_t n);
/* Frees a buffer's bytes. */
void pack_buf_free(PackBuf *b);

/* Plain square lists of a position's pieces, canonical (same-type pieces in FEN order), and its side. */
void pack_canonical(PackedPos *rec, const Position *pos);

/* Sets up an encoder; false if out of memory. */
bool pack_encoder_init(PackEncoder *e);
/* Frees an encoder. */
void pack_encoder_free(PackEncoder *e);
/* Adds a record (its 40 bytes): it continues the open block, or the open block goes to out and this
 * record starts the next; false if out of memory. */
bool pack_encoder_add(PackEncoder *e, const uint8_t raw[NNUE_REC_SIZE], PackBuf *out);
/* Ends the open block (if any), appending it to out (a game's end); false if out of memory. */
bool pack_encoder_flush(PackEncoder *e, PackBuf *out);

/* Parses a block header from the first avail bytes at p: 1 with its total size and record count, 0 if
 * avail is too short to tell, -1 (err filled) if it is no block header. */
int pack_block_header(const uint8_t *p, size_t avail, size_t *size, uint32_t *records, XqError *err);
/* Sets up a decoder; false if out of memory. */
bool pack_decoder_init(PackDecoder *d);
/* Frees a decoder. */
void pack_decoder_free(PackDecoder *d);
/* Starts decoding a whole block of `size` bytes (checked by pack_block_header); false with err if it
 * is corrupt. The block's bytes must stay in place until it is decoded. */
bool pack_decoder_start(PackDecoder *d, const uint8_t *block, size_t size, XqError *err);
/* Next record of the block into raw: 1, 0 when the block is done, -1 (err filled) if it is corrupt. */
int pack_decoder_next(PackDecoder *d, uint8_t raw[NNUE_REC_SIZE], XqError *err);

#endif
