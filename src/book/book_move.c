/* book_move.c - book moves' mirror and the book's random generator (see book_move.h). */
#include "book_move.h"

/* The next number of a splitmix64 generator. */
uint64_t book_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The square of the left-right mirror of sq. */
int book_mirror_square(int sq) { return sq_make(FILES - 1 - sq_file(sq), sq_rank(sq)); }

/* The left-right mirror of a move. */
Move book_mirror_move(Move m) { return move_make(book_mirror_square(move_from(m)), book_mirror_square(move_to(m))); }
