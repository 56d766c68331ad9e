/*
 * book_move.h - what every book format shares, below the formats and the book
 * list (book.c): a stored move with its weight, the left-right mirror of
 * squares and moves (a position and its mirror are stored once), and the
 * splitmix64 generator of the book's keys and choices, and the search of a
 * file's records sorted by a little-endian key at each record's start.
 */
#ifndef XQ_BOOK_MOVE_H
#define XQ_BOOK_MOVE_H

#include <stddef.h>
#include <stdint.h>

#include "board/move.h"

/* One book move: a legal move of the probed position and its weight (its share of the choice). */
typedef struct BookMove {
    Move move;
    uint16_t weight;
} BookMove;

/* The next number of a splitmix64 generator (the book's choices and keys use it). */
uint64_t book_random(uint64_t *state);
/* The left-right mirror of a move. */
Move book_mirror_move(Move m);

/* The first of count records of record_bytes each whose key (key_bytes little-endian at its start) is not
 * below key; count when there is none. The records must be sorted by key. */
size_t book_records_lower_bound(const uint8_t *records, size_t count, size_t record_bytes, int key_bytes, uint64_t key);
/* The first record whose key is below the one before it, or 0 when the keys ascend. */
size_t book_records_unsorted_at(const uint8_t *records, size_t count, size_t record_bytes, int key_bytes);

#endif
