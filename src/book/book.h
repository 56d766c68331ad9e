/*
 * book.h - opening books: a list of book files probed for the moves of a
 * position, and a weighted random choice among them.
 *
 * Two formats are read, told apart by their contents: Jiangjun's own
 * (.xqb, book_xqb.h: 64-bit keys, documented in books/README.md) and
 * ElephantEye's BOOK.DAT (book_eleeye.c: 32-bit keys, 8-byte records).
 * Both store a position and its left-right mirror once, so a probe looks up
 * the position and, failing that, its mirror (and mirrors the moves found).
 * Only moves legal in the position come out: a foreign entry (a key
 * collision) or a corrupt one is skipped. A file is read whole into memory
 * when opened (the built-in book is used in place), so a probe reads no file.
 *
 * A list (UCCI's bookfiles: names separated by ';') is opened all or
 * nothing; "<embedded>" names the book built into the executable. Probing a
 * list asks its files in order: the first that knows the position answers.
 */
#ifndef XQ_BOOK_H
#define XQ_BOOK_H

#include <stddef.h>
#include <stdint.h>

#include "book_move.h"
#include "base/fileload.h"
#include "board/position.h"

enum {
    BOOK_MOVES_MAX = MAX_MOVES,       /* book moves of one position (no position has more legal moves) */
    BOOK_FILES_MAX = 8,               /* files in one list */
    BOOK_NAME_MAX = FILE_NAME_MAX,    /* longest file name */
    BOOK_FILE_BYTES_MAX = 256 << 20,  /* a bigger file is refused (it is read whole) */
};

#define BOOK_EMBEDDED_NAME "<embedded>"

typedef enum BookFormat { BOOK_FORMAT_XQB, BOOK_FORMAT_ELEEYE } BookFormat;

/* One opened book file. */
typedef struct BookFile {
    BookFormat format;
    const uint8_t *records;   /* the first record */
    size_t count;             /* number of records */
    uint8_t *owned;           /* the file's bytes when read from disk (freed on close), else NULL */
    uint32_t *eleeye_locks;   /* ElephantEye: its key table (book_eleeye.c), owned */
    char name[BOOK_NAME_MAX]; /* the name it was opened by */
} BookFile;

/* The files of one list, in the order given. */
typedef struct Book {
    int n;
    BookFile file[BOOK_FILES_MAX];
} Book;

/* Opens a book held in memory (not copied: data must outlive the BookFile); the format is told from
 * the bytes. On error fills err and leaves bf closed. */
bool book_open_memory(BookFile *bf, const uint8_t *data, size_t size, const char *name, XqError *err);
/* Opens a book file: reads it whole (a regular file of at most BOOK_FILE_BYTES_MAX bytes). A relative
 * name not found as given is looked for beside exe_dir (may be NULL; datafile.h). On error fills err. */
bool book_open_path(BookFile *bf, const char *name, const char *exe_dir, XqError *err);
/* Closes a book file (frees what it owns). */
void book_file_close(BookFile *bf);
/* The legal book moves of pos in one file, heaviest first (pos is edited and restored); returns how many. */
int book_file_probe(const BookFile *bf, Position *pos, BookMove *out);

/* Opens every file of a ';'-separated list into b, replacing its files; all or nothing: on error b is
 * left empty and err names the file and the reason. An empty list empties b. */
bool book_open_list(Book *b, const char *list, const char *exe_dir, XqError *err);
/* Closes every file of b. */
void book_close(Book *b);
/* The legal book moves of pos from the first file of b that has some, heaviest first; returns how many. */
int book_probe(const Book *b, Position *pos, BookMove *out);

/* Picks one move by weight with the generator state *rng (advanced); -1 when every weight is 0. */
int book_pick(const BookMove *moves, int n, uint64_t *rng);

/* The book built into the executable (CMake's XQ_DEFAULT_BOOK; book_embed.c): NULL and 0 if none. */
const uint8_t *book_embedded_data(void);
/* Size in bytes of the built-in book; 0 when the build has none. */
size_t book_embedded_size(void);

#endif
