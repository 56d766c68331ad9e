/*
 * xqbook_table.h - the moves of a book being built: one entry per (stored
 * key, stored move), as the .xqb format stores them (book_xqb.h: the
 * smaller key of a position and its mirror), with the game counts a PGN
 * build needs and the weight that goes into the file.
 */
#ifndef XQT_XQBOOK_TABLE_H
#define XQT_XQBOOK_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "book/book_xqb.h"

/* One move of one position. */
typedef struct BookEntry {
    uint64_t key;                 /* the stored key (xqb_record) */
    Move move;                    /* the move as stored under it; MOVE_NONE marks a free slot */
    uint32_t wins, draws, losses; /* games (PGN builds), from the mover's side */
    uint32_t weight;              /* what the file gets (capped at XQB_WEIGHT_MAX when written) */
} BookEntry;

/* An open-addressing table of entries. */
typedef struct BookTable {
    BookEntry *slot;
    size_t cap, n;                /* cap is a power of two (or 0) */
} BookTable;

/* The entry of (key, move), made (all counts 0) if new; NULL if out of memory. */
BookEntry *book_table_entry(BookTable *t, uint64_t key, Move move);
/* The entry of move m of pos, stored as the format stores it; NULL if out of memory. */
BookEntry *book_table_move(BookTable *t, const Position *pos, Move m);
/* Adds every record of a .xqb file to the entries' weights; false with err filled if it cannot be read. */
bool book_table_add_file(BookTable *t, const char *path, XqError *err);
/* Writes the entries of weight > 0 as a .xqb file (weights capped); *written gets their number. */
bool book_table_write(const BookTable *t, const char *path, size_t *written, XqError *err);
/* Frees the entries. */
void book_table_free(BookTable *t);

#endif
