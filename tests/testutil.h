/* testutil.h - helpers shared by the tests: data files and EPD fields. */
#ifndef XQ_TESTUTIL_H
#define XQ_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include <cmocka.h>

#include "board/position.h"

enum { LINE_MAX_TEST = 4096, LINES_MAX_TEST = 512 };

/* Lines of a data file under tests/data, comments ('#') and blank lines dropped. */
typedef struct TestLines {
    int count;
    char *line[LINES_MAX_TEST];
} TestLines;

/* Reads tests/data/<name>; fails the test if it cannot. */
void test_read_lines(const char *name, TestLines *out);
/* Frees what test_read_lines allocated. */
void test_free_lines(TestLines *lines);
/* Copies the FEN part of an EPD line (before the first ';') into out. */
void epd_fen(const char *line, char *out, size_t size);
/* Copies the value of `;opcode value` (quotes stripped) into out; false if absent. */
bool epd_field(const char *line, const char *opcode, char *out, size_t size);
/* Data lines whose FEN no game can reach, which the parser rejects by design (a stated
 * requirement): rules.epd "mate_palace" (three red rooks) and tactics.epd "redvbird-m3-01"
 * (a black pawn on e8, behind its own starting rank). Returns the expected error text, or NULL. */
const char *test_known_invalid(const char *line);
/* Copies the next space-separated token of *text into out (at most size-1 chars) and moves *text past it; false
 * at the end. */
bool test_next_token(const char **text, char *out, size_t size);
/* Sets up pos from FEN text, failing the test on a parse error. */
void test_setup(Position *pos, const char *fen);
/* Plays a space-separated move list (NULL or "": none) onto pos, failing the test on an illegal move. */
void test_play(Position *pos, const char *moves);
/* Sets up pos from FEN text (NULL: the start position), then plays a move list onto it as test_play does. */
void test_setup_moves(Position *pos, const char *fen, const char *moves);
/* Sets pos to each position of tests/data/perft.epd and calls check(); then to each position one legal move
 * away, and every reply_step-th legal reply after that, calling check() on each. */
void test_walk_perft(Position *pos, void (*check)(void), int reply_step);
/* The next of the tests' deterministic random numbers from *state (xorshift64*; state must not be 0). */
uint64_t test_random(uint64_t *state);
/* Writes the colour-flipped FEN of pos into out: ranks reversed, colours swapped, the other side to move. */
void test_flip_colours(const Position *pos, char *out, size_t size);

#endif
