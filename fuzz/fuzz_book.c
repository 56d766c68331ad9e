/*
 * fuzz_book.c - fuzz target for the book readers (book.c, book_xqb.c,
 * book_eleeye.c): any bytes are either refused with a message or open as a
 * book of one of the two formats whose probes, along a line the book itself
 * chooses from the start position, give only legal moves, each once,
 * heaviest first, and leave the position as it was. The seeds in
 * fuzz/corpus/book are small books of both formats made with xqbook and
 * the tests' BOOK.DAT writer (their keys are real, so probes find moves); they are named
 * book-* so that make_seeds.py, which rewrites the seed-* files, leaves them.
 */
#include "book/book.h"
#include "fuzz.h"
#include "board/movegen.h"

enum { FUZZ_BOOK_PLIES = 24 };

/* One input: a book file's bytes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Position pos, copy;
    BookFile bf;
    XqError err;
    if (!book_open_memory(&bf, data, size, "fuzz", &err)) {
        FUZZ_CHECK(err.msg[0] != '\0');
        return 0;
    }
    FUZZ_CHECK(bf.count > 0 || bf.format == BOOK_FORMAT_XQB);
    FUZZ_CHECK(pos_from_fen(&pos, START_FEN, &err));
    uint64_t rng = size;
    for (int ply = 0; ply < FUZZ_BOOK_PLIES; ply++) {
        BookMove m[BOOK_MOVES_MAX];
        memcpy(&copy, &pos, sizeof copy);
        int n = book_file_probe(&bf, &pos, m);
        FUZZ_CHECK(n >= 0 && n <= BOOK_MOVES_MAX);
        FUZZ_CHECK(memcmp(&copy, &pos, sizeof pos) == 0);
        for (int i = 0; i < n; i++) {
            FUZZ_CHECK(move_is_pseudo_legal(&pos, m[i].move) && move_is_legal(&pos, m[i].move));
            FUZZ_CHECK(i == 0 || m[i - 1].weight >= m[i].weight);
            for (int j = 0; j < i; j++)
                FUZZ_CHECK(m[j].move != m[i].move);
        }
        if (n == 0)
            break;
        int k = book_pick(m, n, &rng);
        FUZZ_CHECK(k >= -1 && k < n);
        pos_make(&pos, m[k < 0 ? 0 : k].move);
    }
    book_file_close(&bf);
    return 0;
}
