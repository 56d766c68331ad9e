/*
 * test_book.c - the book formats and lists: the keys of both formats against
 * known values (ElephantEye's from its own BOOK.DAT), probes with the mirror,
 * foreign and corrupt entries skipped, malformed files refused with a reason,
 * the weighted choice, lists of several files (the first that knows the
 * position answers; all or nothing), names found beside the executable, and
 * the built-in book.
 */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "book/book_eleeye.h"
#include "book/book_xqb.h"
#include "board/move.h"
#include "testbook.h"
#include "testutil.h"

/* Keys of known positions: .xqb's start position (this format's definition: a change breaks every
 * book), and ElephantEye's start position and the position after b2e2, as its BOOK.DAT stores them. */
static const uint64_t XQB_KEY_START = 0xD5EFE42FBC3C2DB9ULL;
static const uint32_t EE_KEY_START = 0x052656D5u, EE_KEY_AFTER_B2E2 = 0x5396644Fu;

static Position POS, MIR;

/* Writes the left-right mirror of a move list ("h2e2 h9g7" -> "b2e2 b9c7") into out. */
static void mirror_line(const char *line, char *out, size_t size)
{
    snprintf(out, size, "%s", line);
    for (char *c = out; *c; c++)
        if (*c >= 'a' && *c <= 'i')
            *c = (char)('i' - (*c - 'a'));
}

/* Parses a move text (the test's own, known good). */
static Move mv(const char *text)
{
    Move m;
    assert_true(move_from_text(text, &m));
    return m;
}

/* Asserts a probe's moves and weights against "m1:w1 m2:w2 ..." in that order. */
static void assert_moves(const BookMove *got, int n, const char *want)
{
    char buf[512], text[MOVE_TEXT], have[512] = "";
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(have + len, sizeof have - len, "%s%s:%u", i ? " " : "", move_to_text(got[i].move, text),
                                (unsigned)got[i].weight);
    snprintf(buf, sizeof buf, "%s", want);
    if (strcmp(have, buf) != 0)
        fail_msg("book moves '%s', expected '%s'", have, buf);
}

/* Opens a file as a one-file book; fails the test if it cannot. */
static void open_one(BookFile *bf, const char *path)
{
    XqError err;
    if (!book_open_path(bf, path, NULL, &err))
        fail_msg("%s: %s", path, err.msg);
}

/* A probe's expectation: after `line` (moves from the start), the moves "m1:w1 m2:w2 ..." ("": none). */
typedef struct LineMoves {
    const char *line, *want;
} LineMoves;

/* Asserts the probes of bf after each line. */
static void assert_lines(BookFile *bf, const LineMoves *cases, size_t n)
{
    BookMove out[BOOK_MOVES_MAX];
    for (size_t i = 0; i < n; i++) {
        tb_line(&POS, cases[i].line);
        assert_moves(out, book_file_probe(bf, &POS, out), cases[i].want);
    }
}

/* Both formats' keys: known values, the side to move counts, a mirror's key is the mirrored position's. */
static void test_keys(void **state)
{
    (void)state;
    uint32_t *locks = eleeye_lock_table();
    assert_non_null(locks);
    tb_line(&POS, "");
    assert_true(xqb_key(&POS, false) == XQB_KEY_START);
    assert_true(xqb_key(&POS, true) == XQB_KEY_START); /* the start position is its own mirror */
    assert_int_equal(eleeye_key(locks, &POS, false), EE_KEY_START);
    tb_line(&POS, "b2e2");
    assert_int_equal(eleeye_key(locks, &POS, false), EE_KEY_AFTER_B2E2);
    const char *line = "h2e2 h9g7 c3c4 i9h9";
    char mirrored[64];
    mirror_line(line, mirrored, sizeof mirrored);
    tb_line(&POS, line);
    tb_line(&MIR, mirrored);
    assert_true(xqb_key(&POS, true) == xqb_key(&MIR, false));
    assert_true(xqb_key(&POS, false) != xqb_key(&MIR, false));
    assert_int_equal(eleeye_key(locks, &POS, true), eleeye_key(locks, &MIR, false));
    /* the same board with the other side to move */
    XqError err;
    assert_true(pos_from_fen(&MIR, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", &err));
    assert_true(xqb_key(&MIR, false) != XQB_KEY_START);
    assert_int_not_equal(eleeye_key(locks, &MIR, false), EE_KEY_START);
    free(locks);
}

/* A .xqb book: moves heaviest first, a position found through its mirror, canonical storage, unknown positions. */
static void test_xqb_probe(void **state)
{
    (void)state;
    static const BookSpec SPECS[] = {
        { "", "c3c4", 50 }, { "", "h2e2", 100 }, { "h2e2", "h9g7", 80 }, { "h2e2", "b9c7", 20 },
    };
    char path[512];
    tb_write_xqb(tb_path("test_book_probe.xqb", path, sizeof path), SPECS, 4);
    BookFile bf;
    open_one(&bf, path);
    assert_int_equal(bf.format, BOOK_FORMAT_XQB);
    assert_int_equal(bf.count, 4);
    BookMove out[BOOK_MOVES_MAX];
    tb_line(&POS, "");
    assert_moves(out, book_file_probe(&bf, &POS, out), "h2e2:100 c3c4:50");
    tb_line(&POS, "h2e2");
    assert_moves(out, book_file_probe(&bf, &POS, out), "h9g7:80 b9c7:20");
    tb_line(&POS, "b2e2"); /* never stored as such: its mirror is */
    assert_moves(out, book_file_probe(&bf, &POS, out), "b9c7:80 h9g7:20");
    /* stored once, under the smaller of the two keys */
    tb_line(&POS, "h2e2");
    uint64_t stored = xqb_key(&POS, false) < xqb_key(&POS, true) ? xqb_key(&POS, false) : xqb_key(&POS, true);
    BookMove raw[BOOK_MOVES_MAX];
    assert_int_equal(xqb_find(bf.records, bf.count, stored, raw, BOOK_MOVES_MAX), 2);
    assert_int_equal(xqb_find(bf.records, bf.count, stored ^ 1, raw, BOOK_MOVES_MAX), 0);
    tb_line(&POS, "c3c4");
    assert_int_equal(book_file_probe(&bf, &POS, out), 0);
    book_file_close(&bf);
}

/* Moves that are not legal in the position (another position's, corrupt, off the board) are skipped; when the
 * position's own key holds only such moves, its mirror's moves are used. */
static void test_foreign_entries(void **state)
{
    (void)state;
    tb_line(&POS, "");
    uint64_t start = xqb_key(&POS, false);
    XqbRecord rec[] = {
        { start, mv("a0a5"), 9 },  /* the rook jumps its own pawn */
        { start, mv("e0e2"), 9 },  /* the king leaves the palace */
        { start, mv("h7e7"), 9 },  /* black's move with red to move */
        { start, mv("b0c2"), 7 },
        { start, mv("b0c2"), 3 },  /* twice: the weights add up */
        { start, mv("i0i1"), 4 },  /* patched below into a square off the board */
    };
    size_t n = sizeof rec / sizeof rec[0];
    xqb_sort(rec, n);
    char path[512];
    FILE *f = fopen(tb_path("test_book_foreign.xqb", path, sizeof path), "wb");
    assert_non_null(f);
    assert_true(xqb_write(f, rec, n));
    fclose(f);
    /* patch i0i1's destination to square 95 (a file's square numbers stop at 89) */
    uint8_t bytes[XQB_HEADER_BYTES + 6 * XQB_RECORD_BYTES];
    f = fopen(path, "rb");
    assert_int_equal(fread(bytes, 1, sizeof bytes, f), sizeof bytes);
    fclose(f);
    int patched = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t *r = bytes + XQB_HEADER_BYTES + i * XQB_RECORD_BYTES;
        if (r[8] == 8 && r[9] == 17) { /* i0 = square 8, i1 = square 17 */
            r[9] = 95;
            patched++;
        }
    }
    assert_int_equal(patched, 1);
    tb_write_bytes(path, bytes, sizeof bytes);
    BookFile bf;
    open_one(&bf, path);
    BookMove out[BOOK_MOVES_MAX];
    assert_moves(out, book_file_probe(&bf, &POS, out), "b0c2:10");
    book_file_close(&bf);
    /* an asymmetric position whose own key holds only a foreign move, its mirror's key a real one */
    tb_line(&POS, "h2e2");
    tb_line(&MIR, "b2e2");
    XqbRecord two[] = { { xqb_key(&POS, false), mv("a0a5"), 5 }, { xqb_key(&MIR, false), mv("b9c7"), 6 } };
    xqb_sort(two, 2);
    f = fopen(path, "wb");
    assert_true(xqb_write(f, two, 2));
    fclose(f);
    open_one(&bf, path);
    assert_moves(out, book_file_probe(&bf, &POS, out), "h9g7:6");
    book_file_close(&bf);
}

/* Malformed files are refused with the reason; nothing is left open. */
static void test_malformed(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t size;
        const char *reason;
    } BAD[] = {
        { "XQJJBOOK\2\0\0\0\0\0\0\0", 16, "version 2 is not supported" },
        { "XQJJBOOK\1\0\0\0\3\0\0\0", 16, "the header says 3 records, the file has 16 bytes" },
        { "XQJJBOO", 7, "not a .xqb book nor a BOOK.DAT (7 bytes: no whole 8-byte records)" },
        { "\2\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0", 16, "records out of order at record 1" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        BookFile bf;
        XqError err;
        assert_false(book_open_memory(&bf, (const uint8_t *)BAD[i].bytes, BAD[i].size, "bad", &err));
        if (!strstr(err.msg, BAD[i].reason))
            fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, BAD[i].reason);
        assert_null(bf.eleeye_locks);
    }
    /* .xqb records out of order */
    XqbRecord rec[] = { { 2, mv("h2e2"), 1 }, { 1, mv("h2e2"), 1 } };
    char path[512];
    FILE *f = fopen(tb_path("test_book_order.xqb", path, sizeof path), "wb");
    assert_true(xqb_write(f, rec, 2));
    fclose(f);
    BookFile bf;
    XqError err;
    assert_false(book_open_path(&bf, path, NULL, &err));
    assert_non_null(strstr(err.msg, "records out of order at record 1"));
    /* an empty file, a directory, a missing file */
    tb_write_bytes(tb_path("test_book_empty.dat", path, sizeof path), "", 0);
    assert_false(book_open_path(&bf, path, NULL, &err));
    assert_string_equal(err.msg, "empty file");
    assert_false(book_open_path(&bf, XQ_TEST_TMP, NULL, &err));
    assert_string_equal(err.msg, "not a regular file");
    assert_false(book_open_path(&bf, tb_path("test_book_missing.xqb", path, sizeof path), NULL, &err));
    assert_string_equal(err.msg, "cannot open (No such file or directory)");
}

/* ElephantEye's BOOK.DAT: its records as ElephantEye writes them, found directly and through the mirror. */
static void test_eleeye_probe(void **state)
{
    (void)state;
    static const BookSpec SPECS[] = {
        { "", "b2e2", 1473 }, { "", "h2e2", 1473 }, { "", "c3c4", 546 },
        { "b2e2", "b9c7", 761 }, { "b2e2", "h9g7", 172 }, { "b2e2 b9c7", "b0c2", 5 },
    };
    char path[512];
    tb_write_eleeye(tb_path("test_book_ee.dat", path, sizeof path), SPECS, 6);
    BookFile bf;
    open_one(&bf, path);
    assert_int_equal(bf.format, BOOK_FORMAT_ELEEYE);
    assert_int_equal(bf.count, 6);
    static const LineMoves WANT[] = {
        { "", "b2e2:1473 h2e2:1473 c3c4:546" }, { "h2e2", "h9g7:761 b9c7:172" },
        { "h2e2 h9g7", "h0g2:5" },             { "h2e2 b9c7", "" },
    };
    assert_lines(&bf, WANT, sizeof WANT / sizeof WANT[0]);
    book_file_close(&bf);
}

/* Records of ElephantEye's own BOOK.DAT (tests/data/eleeye_book_records.txt, not written by our encoder):
 * the start position's 16 moves, the position after b2e2 with black to move, its mirror h2e2 found through
 * it, and a position whose neighbours in the file are other positions. */
static void test_eleeye_real_records(void **state)
{
    (void)state;
    char path[512];
    int n = tb_write_eleeye_records(tb_path("test_book_ee_real.dat", path, sizeof path));
    BookFile bf;
    open_one(&bf, path);
    assert_int_equal(bf.format, BOOK_FORMAT_ELEEYE);
    assert_int_equal(bf.count, n);
    static const LineMoves WANT[] = {
        /* heaviest first, equal weights in the file's order */
        { "", "b2e2:1473 h2e2:1473 c3c4:546 g3g4:546 c0e2:311 g0e2:311 b0c2:89 h0g2:89 h2d2:42 b2f2:42 "
              "b2d2:37 h2f2:37 b0a2:18 h0i2:18 h2c2:2 b2g2:2" },
        { "b2e2", "b9c7:761 h9g7:172 b7e7:97 h7e7:1" },
        { "h2e2", "h9g7:761 b9c7:172 h7e7:97 b7e7:1" },
        { "c3c4", "" },
    };
    assert_lines(&bf, WANT, sizeof WANT / sizeof WANT[0]);
    book_file_close(&bf);
}

/* The choice follows the weights, never takes a 0, repeats with the seed; all 0 is no choice. */
static void test_pick(void **state)
{
    (void)state;
    const BookMove m[] = { { mv("h2e2"), 3 }, { mv("c3c4"), 1 }, { mv("b0c2"), 0 } };
    enum { PICKS = 4000 };
    int count[3] = { 0 };
    uint64_t rng = 12345, again = 12345;
    for (int i = 0; i < PICKS; i++) {
        int k = book_pick(m, 3, &rng);
        assert_true(k >= 0 && k < 2);
        count[k]++;
        assert_int_equal(book_pick(m, 3, &again), k);
    }
    /* 3:1 gives 3000 +/- 27 (one standard deviation); allow five */
    assert_in_range(count[0], 2860, 3140);
    assert_int_equal(count[2], 0);
    const BookMove zero[] = { { mv("h2e2"), 0 } };
    assert_int_equal(book_pick(zero, 1, &rng), -1);
    assert_int_equal(book_pick(m, 0, &rng), -1);
}

/* Lists: several files in order (the first that knows the position answers), spaces and empty entries,
 * all or nothing on errors, too many files, a relative name found in the executable's directory. */
static void test_lists(void **state)
{
    (void)state;
    static const BookSpec A[] = { { "", "h2e2", 10 } };
    static const BookSpec B[] = { { "", "c3c4", 10 }, { "h2e2", "h9g7", 4 } };
    char a[512], b[512], list[1200];
    tb_write_xqb(tb_path("test_book_list_a.xqb", a, sizeof a), A, 1);
    tb_write_eleeye(tb_path("test_book_list_b.dat", b, sizeof b), B, 2);
    Book *book = calloc(1, sizeof *book);
    XqError err;
    BookMove out[BOOK_MOVES_MAX];
    snprintf(list, sizeof list, "  %s ; ;%s ", a, b);
    assert_true(book_open_list(book, list, NULL, &err));
    assert_int_equal(book->n, 2);
    tb_line(&POS, "");
    assert_moves(out, book_probe(book, &POS, out), "h2e2:10");
    tb_line(&POS, "h2e2");
    assert_moves(out, book_probe(book, &POS, out), "h9g7:4");
    /* a missing file: refused whole, the book is left empty */
    snprintf(list, sizeof list, "%s;%s/test_book_nowhere.xqb", a, XQ_TEST_TMP);
    assert_false(book_open_list(book, list, NULL, &err));
    assert_non_null(strstr(err.msg, "test_book_nowhere.xqb': cannot open (No such file or directory)"));
    assert_int_equal(book->n, 0);
    assert_true(book_open_list(book, "", NULL, &err));
    assert_int_equal(book->n, 0);
    size_t len = 0;
    for (int i = 0; i <= BOOK_FILES_MAX; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s;", b);
    assert_false(book_open_list(book, list, NULL, &err));
    assert_non_null(strstr(err.msg, "more than 8 book files"));
    /* a relative name: not in the working directory, but in the executable's */
    char dir[512];
    tb_path("test_book_exe_dir", dir, sizeof dir);
    mkdir(dir, 0755);
    snprintf(list, sizeof list, "%s/test_book_rel.xqb", dir);
    tb_write_xqb(list, A, 1);
    assert_false(book_open_list(book, "test_book_rel.xqb", NULL, &err));
    assert_true(book_open_list(book, "test_book_rel.xqb", dir, &err));
    assert_int_equal(book->n, 1);
    /* ... or in the installed data directory beside it: an executable in PREFIX/bin finds PREFIX/share/jiangjun */
    static const char *const TREE[] = { "", "/bin", "/share", "/share/jiangjun" };
    enum { DIRS = sizeof TREE / sizeof TREE[0] };
    char prefix[512], sub[DIRS][600];
    tb_path("test_book_prefix", prefix, sizeof prefix);
    for (int i = 0; i < DIRS; i++) {
        snprintf(sub[i], sizeof sub[i], "%s%s", prefix, TREE[i]);
        mkdir(sub[i], 0755);
    }
    snprintf(list, sizeof list, "%s/test_book_share.xqb", sub[3]);
    tb_write_xqb(list, A, 1);
    assert_false(book_open_list(book, "test_book_share.xqb", dir, &err));
    assert_true(book_open_list(book, "test_book_share.xqb", sub[1], &err));
    assert_int_equal(book->n, 1);
    book_close(book);
    free(book);
}

/* The built-in book: present when the build embeds one (it then answers the start position), else refused. */
static void test_embedded(void **state)
{
    (void)state;
    Book *book = calloc(1, sizeof *book);
    XqError err;
#ifdef XQ_EXPECT_EMBEDDED_BOOK
    assert_true(book_embedded_size() > XQB_HEADER_BYTES);
    assert_true(book_open_list(book, BOOK_EMBEDDED_NAME, NULL, &err));
    assert_int_equal(book->file[0].format, BOOK_FORMAT_XQB);
    BookMove out[BOOK_MOVES_MAX];
    tb_line(&POS, "");
    assert_true(book_probe(book, &POS, out) >= 2);
#else
    assert_int_equal(book_embedded_size(), 0);
    assert_false(book_open_list(book, BOOK_EMBEDDED_NAME, NULL, &err));
    assert_non_null(strstr(err.msg, "this build has no built-in book"));
#endif
    book_close(book);
    free(book);
}

/* Runs the book tests. */
/* The records' shared search: the first key not below a key (8-byte keys past 32 bits), and the first descent. */
static void test_record_search(void **state)
{
    (void)state;
    enum { REC = 12, KEY = 8, N = 4 };
    static const uint64_t KEYS[N] = { 1, 5, 5, (uint64_t)1 << 40 };
    uint8_t rec[N * REC] = { 0 };
    for (int i = 0; i < N; i++)
        for (int b = 0; b < KEY; b++)
            rec[i * REC + b] = (uint8_t)(KEYS[i] >> (8 * b));
    assert_int_equal(book_records_lower_bound(rec, N, REC, KEY, 0), 0);
    assert_int_equal(book_records_lower_bound(rec, N, REC, KEY, 5), 1);
    assert_int_equal(book_records_lower_bound(rec, N, REC, KEY, 6), 3);
    assert_int_equal(book_records_lower_bound(rec, N, REC, KEY, ((uint64_t)1 << 40) + 1), N);
    assert_int_equal(book_records_unsorted_at(rec, N, REC, KEY), 0);
    rec[2 * REC] = 0; /* the third key is now 4: below the second */
    assert_int_equal(book_records_unsorted_at(rec, N, REC, KEY), 2);
}

int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),      cmocka_unit_test(test_xqb_probe), cmocka_unit_test(test_foreign_entries),
        cmocka_unit_test(test_malformed), cmocka_unit_test(test_eleeye_probe),
        cmocka_unit_test(test_eleeye_real_records), cmocka_unit_test(test_pick),
        cmocka_unit_test(test_lists),     cmocka_unit_test(test_embedded), cmocka_unit_test(test_record_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
