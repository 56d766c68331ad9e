/*
 * openings.h - opening files: one opening a line, a FEN (or `startpos`)
 * optionally followed by `moves m1 m2 ...` in ICCS; '#' starts a comment.
 */
#ifndef XQM_OPENINGS_H
#define XQM_OPENINGS_H

#include <stddef.h>

#include "game.h"

enum { OPENING_PLIES_MAX = 64, OPENING_FEN_MAX = 160 };

typedef struct Opening {
    char fen[OPENING_FEN_MAX];
    int count;
    char moves[OPENING_PLIES_MAX][MOVE_TEXT_MAX];
} Opening;

typedef struct OpeningBook {
    int count;
    Opening *items;
} OpeningBook;

/* Parses one opening line; false with msg if it is malformed or illegal. */
bool opening_parse(const char *line, Opening *out, char *msg, size_t msg_size);
/* Loads and checks every opening of a file. */
bool openings_load(const char *path, OpeningBook *book, char *msg, size_t msg_size);
/* A book of the single start position. */
bool openings_default(OpeningBook *book);
/* Frees a book. */
void openings_free(OpeningBook *book);

#endif
