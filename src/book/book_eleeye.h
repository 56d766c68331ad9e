/*
 * book_eleeye.h - ElephantEye's opening book, BOOK.DAT, read as it is.
 *
 * The layout is public (xqbase's "Chinese chess programming" notes, chapter
 * 7, and ElephantEye's book.h): 8-byte little-endian records, sorted by the
 * key, without a header:
 *
 *   u32 key, u16 move, u16 weight
 *
 * The key is the 32-bit "lock1" of ElephantEye's Zobrist scheme: three
 * 32-bit words per (piece type, square) and one for "black to move", drawn
 * in that order from an RC4 stream keyed with four zero bytes (the side
 * first, then red king..pawn and black king..pawn, each over ElephantEye's
 * 256 squares); the key of a position is the xor of its pieces' words and,
 * black to move, the side's. A move is from | to << 8 in ElephantEye's
 * 16x16 squares (x + 16 y, files x = 3..11 from a, ranks y = 3..12 from
 * black's back rank). A position and its mirror are stored once, so a probe
 * tries the mirror too; with 32-bit keys collisions happen, so every move
 * found must be checked for legality.
 */
#ifndef XQ_BOOK_ELEEYE_H
#define XQ_BOOK_ELEEYE_H

#include "book_move.h"
#include "board/position.h"

enum {
    ELEEYE_RECORD_BYTES = 8,
    ELEEYE_KEY_BYTES = 4, /* a record starts with its key */
    ELEEYE_PIECE_KINDS = 2 * PIECE_TYPES,              /* red king..pawn, black king..pawn */
    ELEEYE_LOCKS = ELEEYE_PIECE_KINDS * FILES * RANKS + 1, /* the last one is the side's */
};

/* Builds ElephantEye's key table (ELEEYE_LOCKS words, malloc'd; NULL if out of memory). */
uint32_t *eleeye_lock_table(void);
/* ElephantEye's key of pos (or of its left-right mirror) from a table of eleeye_lock_table. */
uint32_t eleeye_key(const uint32_t *locks, const Position *pos, bool mirrored);
/* Checks a whole file's bytes (size, key order); sets *count; false with err filled if not. */
bool eleeye_check(const uint8_t *data, size_t size, size_t *count, XqError *err);
/* The moves stored under key, as stored (not mirrored, not checked; off-board squares read as MOVE_NONE). */
int eleeye_find(const uint8_t *records, size_t count, uint32_t key, BookMove *out, int max);
/* Writes one record into out (8 bytes), from an engine move: for tests and tools that make such files. */
void eleeye_encode(uint8_t out[ELEEYE_RECORD_BYTES], uint32_t key, Move m, uint16_t weight);

#endif
