/*
 * fuzz_fen.c - fuzz target for the FEN parser: any text either fails with a
 * message and leaves the position untouched, or gives a consistent position
 * whose FEN reads back to the same position, and whose legal moves all make
 * and unmake cleanly.
 */
#include "fuzz.h"
#include "board/movegen.h"
#include "board/perft.h"
#include "board/position.h"

enum { FUZZ_PERFT_DEPTH = 2 };

/* The parts of a position that FEN describes, compared field by field. */
static bool same_position(const Position *a, const Position *b)
{
    return memcmp(a->board, b->board, sizeof a->board) == 0 && memcmp(a->piece_sq, b->piece_sq, sizeof a->piece_sq) == 0
           && a->side == b->side && a->in_check == b->in_check && a->rule60 == b->rule60 && a->key == b->key;
}

/* Makes and unmakes every legal move, checking the position after each step. */
static void check_moves(Position *pos, Position *copy)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    FUZZ_CHECK(n >= 0 && n <= MAX_MOVES);
    memcpy(copy, pos, sizeof *copy);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(move_is_pseudo_legal(pos, moves[i]) && move_is_legal(pos, moves[i]));
        pos_make(pos, moves[i]);
        FUZZ_CHECK(pos_is_ok(pos));
        FUZZ_CHECK(!side_in_check(pos, pos->side ^ 1));
        pos_unmake(pos);
        FUZZ_CHECK(same_position(pos, copy) && pos->ply == copy->ply);
    }
    FUZZ_CHECK(perft(pos, 1) == (uint64_t)n);
    perft(pos, FUZZ_PERFT_DEPTH);
    FUZZ_CHECK(same_position(pos, copy));
}

/* One input: the whole text is a FEN. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    Position *pos = malloc(sizeof *pos), *before = malloc(sizeof *before), *again = malloc(sizeof *again);
    FUZZ_CHECK(pos && before && again);
    XqError err;
    FUZZ_CHECK(pos_from_fen(pos, START_FEN, &err));
    memcpy(before, pos, sizeof *before);
    err.msg[0] = '\0';
    if (pos_from_fen(pos, text, &err)) {
        FUZZ_CHECK(pos_is_ok(pos));
        FUZZ_CHECK(pos->key == pos_compute_key(pos));
        FUZZ_CHECK(pos->in_check == side_in_check(pos, pos->side));
        FUZZ_CHECK(!side_in_check(pos, pos->side ^ 1));
        char fen[FEN_MAX];
        FUZZ_CHECK(pos_to_fen(pos, fen, sizeof fen) != NULL);
        FUZZ_CHECK(strlen(fen) < FEN_MAX);
        FUZZ_CHECK(pos_from_fen(again, fen, &err));
        FUZZ_CHECK(same_position(pos, again));
        check_moves(pos, again);
    } else {
        FUZZ_CHECK(err.msg[0] != '\0' && memchr(err.msg, '\0', sizeof err.msg) != NULL);
        FUZZ_CHECK(memcmp(pos, before, sizeof *pos) == 0);
    }
    free(again);
    free(before);
    free(pos);
    free(text);
    return 0;
}
