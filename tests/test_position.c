/*
 * test_position.c - FEN parsing and output, validation errors, and
 * make/unmake: byte-for-byte restoration and incremental key == recomputed
 * key at every node of a perft walk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bench_fens.h"
#include "board/move.h"
#include "board/movegen.h"
#include "testutil.h"

static Position pos, copy;

/* FEN -> position -> FEN is the identity on canonical FENs of every data file. */
static void test_round_trip(void **state)
{
    (void)state;
    const char *files[] = { "perft.epd", "rules.epd", "bench_positions.epd", "tactics.epd" };
    int checked = 0;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        TestLines lines;
        test_read_lines(files[f], &lines);
        for (int i = 0; i < lines.count; i++) {
            char fen[LINE_MAX_TEST], out[FEN_MAX], again[FEN_MAX];
            const char *invalid = test_known_invalid(lines.line[i]);
            epd_fen(lines.line[i], fen, sizeof fen);
            if (invalid) {
                XqError err;
                assert_false(pos_from_fen(&pos, fen, &err));
                assert_non_null(strstr(err.msg, invalid));
                continue;
            }
            test_setup(&pos, fen);
            assert_true(pos_is_ok(&pos));
            pos_to_fen(&pos, out, sizeof out);
            test_setup(&copy, out);
            pos_to_fen(&copy, again, sizeof again);
            assert_string_equal(out, again);
            /* the board and side fields are preserved exactly */
            size_t board_side = strcspn(fen, " ") + 2;
            assert_memory_equal(fen, out, board_side);
            assert_int_equal(pos.key, copy.key);
            checked++;
        }
        test_free_lines(&lines);
    }
    assert_true(checked > 200);
}

/* Every case of fen_validity.epd: valid 0 rejected, valid 1 accepted. */
static void test_fen_validity(void **state)
{
    (void)state;
    TestLines lines;
    test_read_lines("fen_validity.epd", &lines);
    for (int i = 0; i < lines.count; i++) {
        char fen[LINE_MAX_TEST], valid[16];
        XqError err;
        epd_fen(lines.line[i], fen, sizeof fen);
        assert_true(epd_field(lines.line[i], "valid", valid, sizeof valid));
        bool ok = pos_from_fen(&pos, fen, &err);
        if (strcmp(valid, "1") == 0 && !ok)
            fail_msg("rejected valid FEN %s: %s", fen, err.msg);
        if (strcmp(valid, "0") == 0 && ok)
            fail_msg("accepted invalid FEN %s", fen);
        /* "partial" (8 abbreviated ranks) is a lenient extension we decline: a FEN has 10 ranks */
        if (strcmp(valid, "partial") == 0)
            assert_false(ok);
    }
    test_free_lines(&lines);
}

typedef struct BadFen {
    const char *fen;
    const char *message_part; /* must appear in the error text */
} BadFen;

/* Each kind of invalid FEN is rejected with a message naming the problem, leaving pos untouched. */
static void test_fen_errors(void **state)
{
    (void)state;
    static const BadFen cases[] = {
        { "", "empty" },
        { "   ", "empty" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "ranks" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w", "more than 10 ranks" },
        { "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 8 has 8 files" },
        { "rnbakabnr/91/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "wider" },
        { "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "" },
        { "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "unknown piece letter 'x'" },
        { "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "black king is missing" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "too many red kings" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/6K2/RNBA1ABNR w", "outside its palace" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/6A2/RNBAK1BNR w", "advisor on g1 is outside its palace" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/6B2/RNBAKA1NR w", "seven points" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3P5/RNBAKABNR w", "too many red pawns" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5C1/3P5/RNBAKABNR w", "no pawn can reach" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5CR/9/RNBAKABNR w", "too many red rooks" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 9x 1", "move counter" },
        { "3k5/9/9/9/9/9/9/9/9/3K5 w", "kings face" },
        { "4k4/9/9/9/9/9/9/9/4R4/3K5 w", "not to move is in check" },
        { "3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1 1 1", "move counter" },
    };
    test_setup(&pos, START_FEN);
    char before[FEN_MAX], after[FEN_MAX];
    pos_to_fen(&pos, before, sizeof before);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        XqError err = { "" };
        if (pos_from_fen(&pos, cases[i].fen, &err))
            fail_msg("accepted bad FEN '%s'", cases[i].fen);
        if (!strstr(err.msg, cases[i].message_part))
            fail_msg("FEN '%s': message '%s' lacks '%s'", cases[i].fen, err.msg, cases[i].message_part);
        assert_true(strlen(err.msg) > 0);
        pos_to_fen(&pos, after, sizeof after);
        assert_string_equal(before, after);
    }
}

/* Lenient forms accepted: r side, E/H letters, board and side only, junk tails, no side at all. */
static void test_fen_lenient(void **state)
{
    (void)state;
    char out[FEN_MAX];
    test_setup(&copy, START_FEN);
    const char *same[] = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w -- 0 1",
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR\tw - - 0 1 moves h2e2",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        test_setup(&pos, same[i]);
        assert_int_equal(pos.key, copy.key);
        assert_string_equal(pos_to_fen(&pos, out, sizeof out), START_FEN);
    }
    test_setup(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12");
    assert_int_equal(pos.side, BLACK);
    assert_int_equal(pos.rule60, 7);
    assert_int_equal(pos.fullmove, 12);
    assert_int_not_equal(pos.key, copy.key);
}

/* Recursively makes and unmakes every legal move, checking restoration and keys. */
static void walk(int depth, long *nodes)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(&pos, moves);
    size_t head = offsetof(Position, hist);
    for (int i = 0; i < n; i++) {
        Position *before = malloc(sizeof *before);
        memcpy(before, &pos, sizeof pos);
        pos_make(&pos, moves[i]);
        ++*nodes;
        if (pos.key != pos_compute_key(&pos) || !pos_is_ok(&pos))
            fail_msg("inconsistent position after a move");
        if (pos.in_check != side_in_check(&pos, pos.side))
            fail_msg("in_check flag wrong");
        if (depth > 1)
            walk(depth - 1, nodes);
        pos_unmake(&pos);
        assert_memory_equal(&pos, before, head);
        assert_memory_equal(pos.hist, before->hist, sizeof(Undo) * pos.ply);
        free(before);
    }
}

/* Make/unmake over three plies of several positions. */
static void test_make_unmake(void **state)
{
    (void)state;
    TestLines lines;
    long nodes = 0;
    test_read_lines("perft.epd", &lines);
    for (int i = 0; i < lines.count; i += 3) {
        char fen[LINE_MAX_TEST];
        epd_fen(lines.line[i], fen, sizeof fen);
        test_setup(&pos, fen);
        walk(3, &nodes);
    }
    test_free_lines(&lines);
    assert_true(nodes > 10000);
}

/* A null move flips the side and key and is undone exactly; history records it. */
static void test_null_move(void **state)
{
    (void)state;
    test_setup(&pos, START_FEN);
    memcpy(&copy, &pos, sizeof pos);
    pos_make_null(&pos);
    assert_int_equal(pos.side, BLACK);
    assert_int_equal(pos.key, pos_compute_key(&pos));
    assert_int_equal(pos.ply, 1);
    assert_int_equal(pos.hist[0].move, MOVE_NONE);
    pos_unmake_null(&pos);
    assert_memory_equal(&pos, &copy, offsetof(Position, hist));
}

/* Undo records keep the key, the capture and whether the move checked; rule60 resets on capture. */
static void test_undo_record(void **state)
{
    (void)state;
    Move m;
    XqError err;
    test_setup(&pos, "4k4/9/9/9/9/9/4r4/9/4R4/3K5 w - - 5 1");
    uint64_t key0 = pos.key;
    assert_true(move_parse_legal(&pos, "e1e3", &m, &err));
    pos_make(&pos, m);
    assert_int_equal(pos.hist[0].key, key0);
    assert_int_not_equal(pos.hist[0].captured, EMPTY);
    assert_int_equal(pos.hist[0].check, 1);
    assert_int_equal(pos.rule60, 0);
    assert_int_equal(pos.hist[0].rule60, 5);
    assert_false(move_parse_legal(&pos, "e9e8", &m, &err)); /* walks into the rook */
    assert_string_equal(err.msg, "illegal move 'e9e8'");
    assert_false(move_parse_legal(&pos, "e9", &m, &err));
    assert_string_equal(err.msg, "malformed move 'e9'");
    assert_false(move_parse_legal(&pos, "e9d9", &m, &err)); /* kings would face on the d-file */
    assert_true(move_parse_legal(&pos, "E9F9", &m, &err));
    pos_make(&pos, m);
    assert_int_equal(pos.rule60, 1);
    assert_int_equal(pos.hist[1].check, 0);
}

/* The bench's built-in list (src/engine/bench_fens.h) is tests/data/bench_positions.epd, line for line, in order. */
static void test_bench_fens_match_epd(void **state)
{
    (void)state;
    TestLines lines;
    test_read_lines("bench_positions.epd", &lines);
    const int n = (int)(sizeof BENCH_FENS / sizeof BENCH_FENS[0]);
    assert_int_equal(n, lines.count);
    for (int i = 0; i < n; i++) {
        char fen[LINE_MAX_TEST];
        epd_fen(lines.line[i], fen, sizeof fen);
        size_t len = strlen(fen);
        while (len && fen[len - 1] == ' ')
            fen[--len] = '\0';
        if (strcmp(fen, BENCH_FENS[i]) != 0)
            fail_msg("bench position %d: bench_fens.h has '%s', bench_positions.epd '%s'", i + 1, BENCH_FENS[i], fen);
    }
    test_free_lines(&lines);
}

/* Runs the position tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),   cmocka_unit_test(test_fen_validity), cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_fen_lenient),  cmocka_unit_test(test_make_unmake),  cmocka_unit_test(test_null_move),
        cmocka_unit_test(test_undo_record),   cmocka_unit_test(test_bench_fens_match_epd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
