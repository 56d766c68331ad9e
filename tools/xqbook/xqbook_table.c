/* xqbook_table.c - the entries of a book being built: lookup, merging a .xqb file in, writing (see xqbook_table.h). */
#include "xqbook_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/book.h"

enum { TABLE_MIN_CAP = 1024 };

/* Slot index of (key, move) in a table of cap slots (a power of two). */
static size_t slot_of(uint64_t key, Move move, size_t cap)
{
    uint64_t h = (key ^ ((uint64_t)move * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
    return (size_t)(h >> 17) & (cap - 1);
}

/* Doubles the table (or makes its first slots); false if out of memory. */
static bool grow(BookTable *t)
{
    size_t cap = t->cap ? t->cap * 2 : TABLE_MIN_CAP;
    BookEntry *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return false;
    for (size_t i = 0; i < t->cap; i++) {
        const BookEntry *e = &t->slot[i];
        if (e->move == MOVE_NONE)
            continue;
        size_t j = slot_of(e->key, e->move, cap);
        while (slot[j].move != MOVE_NONE)
            j = (j + 1) & (cap - 1);
        slot[j] = *e;
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return true;
}

/* The entry of (key, move), made if new. */
BookEntry *book_table_entry(BookTable *t, uint64_t key, Move move)
{
    if ((t->n + 1) * 2 > t->cap && !grow(t))
        return NULL;
    size_t i = slot_of(key, move, t->cap);
    while (t->slot[i].move != MOVE_NONE && !(t->slot[i].key == key && t->slot[i].move == move))
        i = (i + 1) & (t->cap - 1);
    BookEntry *e = &t->slot[i];
    if (e->move == MOVE_NONE) {
        memset(e, 0, sizeof *e);
        e->key = key;
        e->move = move;
        t->n++;
    }
    return e;
}

/* The entry of move m of pos, as stored. */
BookEntry *book_table_move(BookTable *t, const Position *pos, Move m)
{
    XqbRecord r = xqb_record(pos, m, 0);
    return book_table_entry(t, r.key, r.move);
}

/* Adds a .xqb file's records to the weights. */
bool book_table_add_file(BookTable *t, const char *path, XqError *err)
{
    BookFile bf;
    if (!book_open_path(&bf, path, NULL, err))
        return false;
    bool ok = bf.format == BOOK_FORMAT_XQB;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "only .xqb books can be merged (ElephantEye's keys hold no position)");
    for (size_t i = 0; ok && i < bf.count; i++) {
        XqbRecord r = xqb_read(bf.records, i);
        if (r.move == MOVE_NONE)
            continue; /* a square off the board: nothing a probe could use */
        BookEntry *e = book_table_entry(t, r.key, r.move);
        if (!e) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            ok = false;
        } else {
            e->weight += r.weight;
        }
    }
    book_file_close(&bf);
    return ok;
}

/* Writes the entries of weight > 0 as a .xqb file. */
bool book_table_write(const BookTable *t, const char *path, size_t *written, XqError *err)
{
    XqbRecord *r = malloc((t->n ? t->n : 1) * sizeof *r);
    if (!r) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < t->cap; i++) {
        const BookEntry *e = &t->slot[i];
        if (e->move != MOVE_NONE && e->weight > 0)
            r[n++] =
                (XqbRecord){ e->key, e->move, (uint16_t)(e->weight > XQB_WEIGHT_MAX ? XQB_WEIGHT_MAX : e->weight) };
    }
    xqb_sort(r, n);
    FILE *f = fopen(path, "wb");
    bool ok = f && xqb_write(f, r, n);
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "cannot write %.100s (%s)", path, strerror(errno));
    free(r);
    *written = n;
    return ok;
}

/* Frees the entries. */
void book_table_free(BookTable *t)
{
    free(t->slot);
    memset(t, 0, sizeof *t);
}
