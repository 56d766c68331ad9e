/*
 * book_move.h - what every book format shares, below the formats and the book
 * list (book.c): a stored move with its weight, the left-right mirror of
 * squares and moves (a position and its mirror are stored once), and the
 * splitmix64 generator of the book's keys and choices.
 */
#ifndef XQ_BOOK_MOVE_H
#define XQ_BOOK_MOVE_H

#include <stdint.h>

#include "board/move.h"

/* One book move: a legal move of the probed position and its weight (its share of the choice). */
typedef struct BookMove {
    Move move;
    uint16_t weight;
} BookMove;

/* The next number of a splitmix64 generator (the book's choices and keys use it). */
uint64_t book_random(uint64_t *state);
/* The square of the left-right mirror of sq (file a <-> i, rank kept). */
int book_mirror_square(int sq);
/* The left-right mirror of a move. */
Move book_mirror_move(Move m);

#endif
