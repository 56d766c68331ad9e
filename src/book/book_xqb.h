/*
 * book_xqb.h - Jiangjun's own book format (.xqb), version 1; books/README.md
 * documents it byte by byte. All integers are little-endian.
 *
 *   header, 16 bytes:  "XQJJBOOK", u32 version (1), u32 record count N
 *   N records, 12 bytes each, sorted by key (then by move):
 *                      u64 key, u16 move, u16 weight
 *
 * The key is xqb_key's own hash of the board and the side to move (not the
 * engine's Zobrist keys, so a book survives changes to the engine). A move
 * is from | to << 8 with the squares numbered rank * 9 + file (0..89; rank 0
 * is red's back rank, file 0 is a). A position and its left-right mirror
 * are stored once, under the smaller of their two keys (xqb_record).
 */
#ifndef XQ_BOOK_XQB_H
#define XQ_BOOK_XQB_H

#include <stdio.h>

#include "book_move.h"
#include "board/position.h"

enum {
    XQB_HEADER_BYTES = 16,
    XQB_RECORD_BYTES = 12,
    XQB_KEY_BYTES = 8, /* a record starts with its key */
    XQB_VERSION = 1,
    XQB_WEIGHT_MAX = UINT16_MAX,
    XQB_SQUARES = FILES * RANKS, /* squares are numbered 0..89 in the file */
};

#define XQB_MAGIC "XQJJBOOK"

/* One record with its move in the engine's squares (the move as stored, under the stored key). */
typedef struct XqbRecord {
    uint64_t key;
    Move move;
    uint16_t weight;
} XqbRecord;

/* The book key of pos, or of its left-right mirror. */
uint64_t xqb_key(const Position *pos, bool mirrored);
/* Move m of pos as the book stores it: under the smaller of the keys of pos and its mirror, the move
 * mirrored with the position when the mirror's key is the smaller. */
XqbRecord xqb_record(const Position *pos, Move m, uint16_t weight);
/* Checks a whole file's bytes (magic, version, size, order); sets *count; false with err filled if not. */
bool xqb_check(const uint8_t *data, size_t size, size_t *count, XqError *err);
/* Is this the start of a .xqb file (its magic)? */
bool xqb_is_xqb(const uint8_t *data, size_t size);
/* Reads record i of a checked file's records. A move with a square outside 0..89 reads as MOVE_NONE. */
XqbRecord xqb_read(const uint8_t *records, size_t i);
/* The moves stored under key (as stored: not mirrored, not checked for legality); returns how many (at most max). */
int xqb_find(const uint8_t *records, size_t count, uint64_t key, BookMove *out, int max);
/* Sorts records by key, then move (the order a file needs). */
void xqb_sort(XqbRecord *r, size_t n);
/* Writes a book file of sorted records; false on a write error. */
bool xqb_write(FILE *f, const XqbRecord *r, size_t n);

#endif
