/*
 * testbook.h - helpers of the book tests: positions from a FEN and a move
 * list, book files written from (line, move, weight) specs in either format,
 * and temporary file names.
 */
#ifndef XQ_TESTBOOK_H
#define XQ_TESTBOOK_H

#include <stddef.h>
#include <stdint.h>

#include "book/book.h"

/* One book move of a spec: after `line` (moves from the start position, may be ""), `move` with `weight`. */
typedef struct BookSpec {
    const char *line;
    const char *move;
    uint16_t weight;
} BookSpec;

/* Sets pos to the start position after a space-separated move list; fails the test on an illegal move. */
void tb_line(Position *pos, const char *line);
/* Writes the path of a scratch file named name in the tests' build directory into out; returns out. */
const char *tb_path(const char *name, char *out, size_t size);
/* Writes a .xqb book of the specs to path (each stored as the format asks: canonical key and move). */
void tb_write_xqb(const char *path, const BookSpec *specs, int n);
/* Writes an ElephantEye BOOK.DAT of the specs to path (each under its own position's key, sorted). */
void tb_write_eleeye(const char *path, const BookSpec *specs, int n);
/* Writes the records of ElephantEye's own BOOK.DAT listed in tests/data/eleeye_book_records.txt to path, as
 * that file stores them (not through the engine's encoder); returns how many. */
int tb_write_eleeye_records(const char *path);
/* Writes raw bytes to path. */
void tb_write_bytes(const char *path, const void *data, size_t size);

#endif
