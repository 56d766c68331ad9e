/*
 * book.c - opening book files and lists: opening (format told from the
 * bytes), probing with the mirror and the legality filter, the weighted
 * choice (see book.h).
 */
#include "book.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_eleeye.h"
#include "book_xqb.h"
#include "base/fileload.h"
#include "board/movegen.h"

enum { LIST_SEPARATOR = ';', NAME_SHOWN = 57 };

/* Opens a book held in memory; the format is told from the bytes. */
bool book_open_memory(BookFile *bf, const uint8_t *data, size_t size, const char *name, XqError *err)
{
    memset(bf, 0, sizeof *bf);
    if (strlen(name) >= sizeof bf->name) {
        snprintf(err->msg, sizeof err->msg, "book file name longer than %d bytes", BOOK_NAME_MAX - 1);
        return false;
    }
    snprintf(bf->name, sizeof bf->name, "%s", name);
    if (xqb_is_xqb(data, size)) {
        if (!xqb_check(data, size, &bf->count, err))
            return false;
        bf->format = BOOK_FORMAT_XQB;
        bf->records = data + XQB_HEADER_BYTES;
        return true;
    }
    if (!eleeye_check(data, size, &bf->count, err))
        return false;
    bf->eleeye_locks = eleeye_lock_table();
    if (!bf->eleeye_locks) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return false;
    }
    bf->format = BOOK_FORMAT_ELEEYE;
    bf->records = data;
    return true;
}

/* Opens a book file, read whole; a relative name not found is looked for in exe_dir. */
bool book_open_path(BookFile *bf, const char *name, const char *exe_dir, XqError *err)
{
    memset(bf, 0, sizeof *bf);
    uint8_t *data = NULL;
    size_t size = 0;
    if (strlen(name) >= BOOK_NAME_MAX) {
        snprintf(err->msg, sizeof err->msg, "book file name longer than %d bytes", BOOK_NAME_MAX - 1);
        return false;
    }
    if (!file_load(name, exe_dir, BOOK_FILE_BYTES_MAX, &data, &size, err))
        return false;
    if (!book_open_memory(bf, data, size, name, err)) {
        free(data);
        return false;
    }
    bf->owned = data;
    return true;
}

/* Closes a book file. */
void book_file_close(BookFile *bf)
{
    free(bf->owned);
    free(bf->eleeye_locks);
    memset(bf, 0, sizeof *bf);
}

/* The stored moves of pos (or of its mirror) in one file: how many, into raw. */
static int find_stored(const BookFile *bf, const Position *pos, bool mirrored, BookMove *raw)
{
    if (bf->format == BOOK_FORMAT_XQB)
        return xqb_find(bf->records, bf->count, xqb_key(pos, mirrored), raw, BOOK_MOVES_MAX);
    return eleeye_find(bf->records, bf->count, eleeye_key(bf->eleeye_locks, pos, mirrored), raw, BOOK_MOVES_MAX);
}

/* Is the position its own mirror (so the mirror's lookup would find the same records)? */
static bool same_key_mirrored(const BookFile *bf, const Position *pos)
{
    if (bf->format == BOOK_FORMAT_XQB)
        return xqb_key(pos, true) == xqb_key(pos, false);
    return eleeye_key(bf->eleeye_locks, pos, true) == eleeye_key(bf->eleeye_locks, pos, false);
}

/* Keeps the legal moves of raw (mirrored first if asked), each once with its weights summed; returns how many. */
static int keep_legal(Position *pos, const BookMove *raw, int n_raw, bool mirrored, BookMove *out)
{
    int n = 0;
    for (int i = 0; i < n_raw; i++) {
        Move m = raw[i].move;
        if (m == MOVE_NONE)
            continue;
        if (mirrored)
            m = book_mirror_move(m);
        if (!move_is_pseudo_legal(pos, m) || !move_is_legal(pos, m))
            continue; /* a foreign entry (another position with the same key) or a corrupt one */
        int k = 0;
        while (k < n && out[k].move != m)
            k++;
        if (k == n)
            out[n++] = (BookMove){ m, 0 };
        unsigned w = (unsigned)out[k].weight + raw[i].weight;
        out[k].weight = (uint16_t)(w > UINT16_MAX ? UINT16_MAX : w);
    }
    return n;
}

/* Sorts book moves heaviest first (stable: equal weights keep the file's order). */
static void sort_by_weight(BookMove *m, int n)
{
    for (int i = 1; i < n; i++) {
        BookMove x = m[i];
        int j = i;
        for (; j > 0 && m[j - 1].weight < x.weight; j--)
            m[j] = m[j - 1];
        m[j] = x;
    }
}

/* The legal book moves of pos in one file, heaviest first. */
int book_file_probe(const BookFile *bf, Position *pos, BookMove *out)
{
    BookMove raw[BOOK_MOVES_MAX];
    for (int mirrored = 0; mirrored < 2; mirrored++) {
        if (mirrored && same_key_mirrored(bf, pos))
            break;
        int n = keep_legal(pos, raw, find_stored(bf, pos, mirrored, raw), mirrored, out);
        if (n > 0) {
            sort_by_weight(out, n);
            return n;
        }
    }
    return 0;
}

/* Copies the next entry of a ';'-separated list into name (spaces around it trimmed); returns the rest. */
static const char *next_entry(const char *s, char *name, size_t size, bool *too_long)
{
    const char *end = strchr(s, LIST_SEPARATOR);
    size_t len = end ? (size_t)(end - s) : strlen(s);
    while (len > 0 && isspace((unsigned char)*s))
        s++, len--;
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    *too_long = len >= size;
    if (*too_long)
        len = size - 1;
    memcpy(name, s, len);
    name[len] = '\0';
    return end ? end + 1 : NULL;
}

/* Opens one entry of a list into bf; false with err filled (naming the entry). */
static bool open_entry(BookFile *bf, const char *name, const char *exe_dir, XqError *err)
{
    XqError why;
    bool ok;
    if (strcmp(name, BOOK_EMBEDDED_NAME) == 0) {
        ok = book_embedded_size() > 0;
        if (!ok)
            snprintf(why.msg, sizeof why.msg, "this build has no built-in book");
        else
            ok = book_open_memory(bf, book_embedded_data(), book_embedded_size(), name, &why);
    } else {
        ok = book_open_path(bf, name, exe_dir, &why);
    }
    size_t len = strlen(name);
    if (!ok) /* a long name is shown by its end, which tells the file */
        snprintf(err->msg, sizeof err->msg, "book file '%s%s': %.85s", len > NAME_SHOWN ? "..." : "",
                 name + (len > NAME_SHOWN ? len - NAME_SHOWN : 0), why.msg);
    return ok;
}

/* Opens every file of a list into b, all or nothing. */
bool book_open_list(Book *b, const char *list, const char *exe_dir, XqError *err)
{
    Book *fresh = calloc(1, sizeof *fresh);
    bool ok = fresh != NULL;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    char name[BOOK_NAME_MAX];
    for (const char *s = list ? list : ""; ok && s;) {
        bool too_long;
        s = next_entry(s, name, sizeof name, &too_long);
        if (too_long) {
            snprintf(err->msg, sizeof err->msg, "book file name longer than %d bytes", BOOK_NAME_MAX - 1);
            ok = false;
        } else if (!name[0] || strcmp(name, "<empty>") == 0) {
            continue; /* empty entries; "<empty>", a string option's empty default handed back */
        } else if (fresh->n == BOOK_FILES_MAX) {
            snprintf(err->msg, sizeof err->msg, "more than %d book files", BOOK_FILES_MAX);
            ok = false;
        } else if (open_entry(&fresh->file[fresh->n], name, exe_dir, err)) {
            fresh->n++;
        } else {
            ok = false;
        }
    }
    book_close(b);
    if (ok)
        *b = *fresh;
    else if (fresh)
        book_close(fresh);
    free(fresh);
    return ok;
}

/* Closes every file of b. */
void book_close(Book *b)
{
    for (int i = 0; i < b->n; i++)
        book_file_close(&b->file[i]);
    b->n = 0;
}

/* The legal book moves of pos from the first file that has some. */
int book_probe(const Book *b, Position *pos, BookMove *out)
{
    for (int i = 0; i < b->n; i++) {
        int n = book_file_probe(&b->file[i], pos, out);
        if (n > 0)
            return n;
    }
    return 0;
}

/* Picks one move by weight; -1 when every weight is 0. */
int book_pick(const BookMove *moves, int n, uint64_t *rng)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += moves[i].weight;
    if (total == 0)
        return -1;
    uint64_t r = book_random(rng) % total;
    for (int i = 0; i < n; i++) {
        if (r < moves[i].weight)
            return i;
        r -= moves[i].weight;
    }
    return n - 1; /* not reached: r < total */
}
