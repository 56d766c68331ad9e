/* testbook.c - book files for the tests, written from specs in either format (see testbook.h). */
#include "testbook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/book_eleeye.h"
#include "book/book_xqb.h"
#include "board/move.h"
#include "testutil.h"

enum { SPECS_MAX = 256 };

/* Sets pos to the start position after a move list. */
void tb_line(Position *pos, const char *line) { test_setup_moves(pos, NULL, line); }

/* A scratch file's path in the tests' build directory. */
const char *tb_path(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", XQ_TEST_TMP, name);
    return out;
}

/* Writes raw bytes to path. */
void tb_write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* The position and move of one spec. */
static Move spec_move(const BookSpec *s, Position *pos)
{
    tb_line(pos, s->line);
    Move m;
    if (!move_from_text(s->move, &m))
        fail_msg("test setup: bad move text %s", s->move);
    return m;
}

/* Writes a .xqb book of the specs. */
void tb_write_xqb(const char *path, const BookSpec *specs, int n)
{
    static Position pos;
    XqbRecord rec[SPECS_MAX];
    assert_true(n <= SPECS_MAX);
    for (int i = 0; i < n; i++) {
        Move m = spec_move(&specs[i], &pos);
        rec[i] = xqb_record(&pos, m, specs[i].weight);
    }
    xqb_sort(rec, (size_t)n);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_true(xqb_write(f, rec, (size_t)n));
    assert_int_equal(fclose(f), 0);
}

/* One ElephantEye record before sorting. */
typedef struct EeRec {
    uint8_t b[ELEEYE_RECORD_BYTES];
    uint32_t key;
    int index; /* the spec's: equal keys keep the specs' order */
} EeRec;

/* qsort order of ElephantEye records: by key, then the specs' order. */
static int ee_cmp(const void *a, const void *b)
{
    const EeRec *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Writes an ElephantEye BOOK.DAT of the specs. */
void tb_write_eleeye(const char *path, const BookSpec *specs, int n)
{
    static Position pos;
    EeRec rec[SPECS_MAX];
    uint32_t *locks = eleeye_lock_table();
    assert_non_null(locks);
    assert_true(n <= SPECS_MAX);
    for (int i = 0; i < n; i++) {
        Move m = spec_move(&specs[i], &pos);
        rec[i].key = eleeye_key(locks, &pos, false);
        rec[i].index = i;
        eleeye_encode(rec[i].b, rec[i].key, m, specs[i].weight);
    }
    free(locks);
    qsort(rec, (size_t)n, sizeof rec[0], ee_cmp);
    uint8_t bytes[SPECS_MAX * ELEEYE_RECORD_BYTES];
    for (int i = 0; i < n; i++)
        memcpy(bytes + i * ELEEYE_RECORD_BYTES, rec[i].b, ELEEYE_RECORD_BYTES);
    tb_write_bytes(path, bytes, (size_t)n * ELEEYE_RECORD_BYTES);
}

/* Writes tests/data/eleeye_book_records.txt (records of ElephantEye's own BOOK.DAT, written out as
 * numbers) to path as the 8-byte little-endian records that file holds; returns the record count. */
int tb_write_eleeye_records(const char *path)
{
    enum { RECORD_FIELDS = 4, BYTE_BITS = 8 };
    TestLines lines;
    test_read_lines("eleeye_book_records.txt", &lines);
    uint8_t bytes[SPECS_MAX * ELEEYE_RECORD_BYTES];
    assert_true(lines.count > 0 && lines.count <= SPECS_MAX);
    for (int i = 0; i < lines.count; i++) {
        unsigned record, key, move, weight;
        if (sscanf(lines.line[i], "%u %x %x %u", &record, &key, &move, &weight) != RECORD_FIELDS)
            fail_msg("eleeye_book_records.txt: bad line '%s'", lines.line[i]);
        uint8_t *b = bytes + (size_t)i * ELEEYE_RECORD_BYTES;
        for (int k = 0; k < 4; k++)
            b[k] = (uint8_t)(key >> (BYTE_BITS * k));
        b[4] = (uint8_t)move;
        b[5] = (uint8_t)(move >> BYTE_BITS);
        b[6] = (uint8_t)weight;
        b[7] = (uint8_t)(weight >> BYTE_BITS);
    }
    tb_write_bytes(path, bytes, (size_t)lines.count * ELEEYE_RECORD_BYTES);
    int n = lines.count;
    test_free_lines(&lines);
    return n;
}
