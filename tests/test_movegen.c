/*
 * test_movegen.c - move generation against published counts.
 *
 * perft.epd: every count up to PERFT_FAST_LEAVES leaves by default; with
 * --slow (ctest label "slow") every count in the file except the start
 * position's depth 6; the start position's divide table always. rules.epd: exact legal move lists, has/hasnot,
 * check facts and small perfts. Oracles: the pseudo-legality test agrees
 * with the generator on every square pair; captures are exactly the
 * capturing subset of all moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "board/movegen.h"
#include "board/perft.h"
#include "testutil.h"

enum { PERFT_FAST_LEAVES = 5000000, PERFT_SLOW_LEAVES = 300000000, MAX_DEPTH_FIELD = 6, DIVIDE_DEPTH = 4 };

static bool slow_mode;
static Position pos; /* large: keep off the stack */

/* Parses a perft count field ;Dn and checks it if it is within the leaf budget. */
static void check_perft_line(const char *line, uint64_t budget)
{
    char fen[LINE_MAX_TEST], value[64], opcode[8];
    epd_fen(line, fen, sizeof fen);
    test_setup(&pos, fen);
    for (int d = 1; d <= MAX_DEPTH_FIELD; d++) {
        snprintf(opcode, sizeof opcode, "D%d", d);
        if (!epd_field(line, opcode, value, sizeof value))
            continue;
        uint64_t expected = strtoull(value, NULL, 10);
        if (expected > budget)
            continue;
        uint64_t got = perft(&pos, d);
        if (got != expected)
            fail_msg("perft %d of %s: expected %llu, got %llu", d, fen, (unsigned long long)expected,
                     (unsigned long long)got);
    }
}

/* Every perft.epd count within the budget of this run. */
static void test_perft_epd(void **state)
{
    (void)state;
    TestLines lines;
    test_read_lines("perft.epd", &lines);
    assert_true(lines.count >= 16);
    for (int i = 0; i < lines.count; i++)
        check_perft_line(lines.line[i], slow_mode ? PERFT_SLOW_LEAVES : PERFT_FAST_LEAVES);
    test_free_lines(&lines);
}

/* Divide at depth 5 from the start position (depth 4 after each root move, 133 million leaves in all, a
 * second or two) matches the published per-move table in every run, not only with --slow. */
static void test_divide_startpos(void **state)
{
    (void)state;
    TestLines lines;
    test_read_lines("perft_divide_startpos.txt", &lines);
    test_setup(&pos, START_FEN);
    int checked = 0;
    for (int i = 0; i < lines.count; i++) {
        char text[8];
        unsigned long long expected;
        if (sscanf(lines.line[i], "%4[a-i0-9],%llu", text, &expected) != 2)
            continue;
        Move m;
        XqError err;
        assert_true(move_parse_legal(&pos, text, &m, &err));
        pos_make(&pos, m);
        uint64_t got = perft(&pos, DIVIDE_DEPTH);
        pos_unmake(&pos);
        if (got != expected)
            fail_msg("divide %s: expected %llu, got %llu", text, expected, (unsigned long long)got);
        checked++;
    }
    assert_int_equal(checked, 44);
    test_free_lines(&lines);
}

/* Sorts moves by value for set comparison. */
static int cmp_move(const void *a, const void *b) { return (int)*(const Move *)a - (int)*(const Move *)b; }

/* Does the legal move list contain the move named by text? */
static bool has_move(const Move *moves, int n, const char *text)
{
    Move m;
    if (!move_from_text(text, &m))
        fail_msg("bad move text in data: %s", text);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

/* Applies fn to each space-separated move of a list. */
static int split_moves(const char *list, char out[][8], int max)
{
    int n = 0;
    for (const char *p = list; *p && n < max;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, " ");
        snprintf(out[n++], 8, "%.*s", (int)len, p);
        p += len;
    }
    return n;
}

/* Checks one rules.epd line: counts, lists, has/hasnot, check facts, perfts. */
static void check_rules_line(const char *line)
{
    char fen[LINE_MAX_TEST], value[LINE_MAX_TEST], list[MAX_MOVES][8];
    Move moves[MAX_MOVES];
    epd_fen(line, fen, sizeof fen);
    if (test_known_invalid(line)) {
        /* Three red rooks cannot occur in a game, so the parser refuses this FEN (a stated
         * requirement). The same mating pattern with two rooks and the flying general: */
        XqError err;
        assert_false(pos_from_fen(&pos, fen, &err));
        assert_non_null(strstr(err.msg, "too many red rooks"));
        test_setup(&pos, "4k4/3RR4/9/9/9/9/9/9/9/5K3 b - - 0 1");
        assert_int_equal(gen_legal(&pos, moves), 0);
        assert_true(pos.in_check);
        return;
    }
    test_setup(&pos, fen);
    int n = gen_legal(&pos, moves);
    if (epd_field(line, "legal", value, sizeof value) && atoi(value) != n)
        fail_msg("%s: expected %d legal moves, got %d", fen, atoi(value), n);
    if (epd_field(line, "moves", value, sizeof value)) {
        int k = split_moves(value, list, MAX_MOVES);
        assert_int_equal(k, n);
        for (int i = 0; i < k; i++)
            if (!has_move(moves, n, list[i]))
                fail_msg("%s: missing %s", fen, list[i]);
    }
    if (epd_field(line, "has", value, sizeof value)) {
        int k = split_moves(value, list, MAX_MOVES);
        for (int i = 0; i < k; i++)
            if (!has_move(moves, n, list[i]))
                fail_msg("%s: missing %s", fen, list[i]);
    }
    if (epd_field(line, "hasnot", value, sizeof value)) {
        int k = split_moves(value, list, MAX_MOVES);
        for (int i = 0; i < k; i++)
            if (has_move(moves, n, list[i]))
                fail_msg("%s: %s must be illegal", fen, list[i]);
    }
    if (epd_field(line, "incheck", value, sizeof value))
        assert_int_equal(pos.in_check, atoi(value));
    if (epd_field(line, "gives_check", value, sizeof value)) {
        int k = split_moves(value, list, MAX_MOVES);
        for (int i = 0; i < k; i++) {
            Move m;
            assert_true(move_from_text(list[i], &m));
            int expect = list[i][5] - '0';
            assert_true(has_move(moves, n, list[i]));
            if (move_gives_check(&pos, m) != expect)
                fail_msg("%s: gives_check %s expected %d", fen, list[i], expect);
            pos_make(&pos, m);
            assert_int_equal(pos.in_check, expect);
            pos_unmake(&pos);
        }
    }
    for (int d = 2; d <= 3; d++) {
        char opcode[4] = { 'D', (char)('0' + d), 0, 0 };
        if (epd_field(line, opcode, value, sizeof value))
            assert_int_equal(perft(&pos, d), strtoull(value, NULL, 10));
    }
}

/* Every case of rules.epd. */
static void test_rules_epd(void **state)
{
    (void)state;
    TestLines lines;
    test_read_lines("rules.epd", &lines);
    assert_true(lines.count >= 31);
    for (int i = 0; i < lines.count; i++)
        check_rules_line(lines.line[i]);
    test_free_lines(&lines);
}

/* Generator, pseudo-legality test, capture generator and check test agree in one position. */
static void check_oracles(void)
{
    Move all[MAX_MOVES], caps[MAX_MOVES];
    int n = gen_moves(&pos, all), nc = gen_captures(&pos, caps);
    qsort(all, (size_t)n, sizeof(Move), cmp_move);
    int expect_caps = 0;
    for (int i = 0; i < n; i++)
        expect_caps += pos.board[move_to(all[i])] != EMPTY;
    assert_int_equal(nc, expect_caps);
    for (int i = 0; i < nc; i++)
        assert_true(bsearch(&caps[i], all, (size_t)n, sizeof(Move), cmp_move) != NULL);
    int pseudo = 0;
    for (int from = 0; from < BOARD_SIZE; from++) {
        if (!GEO->on_board[from])
            continue;
        for (int to = 0; to < BOARD_SIZE; to++) {
            if (!GEO->on_board[to])
                continue;
            Move m = move_make(from, to);
            bool listed = bsearch(&m, all, (size_t)n, sizeof(Move), cmp_move) != NULL;
            bool ok = move_is_pseudo_legal(&pos, m);
            if (ok != listed) {
                char f[FEN_MAX], t[MOVE_TEXT];
                fail_msg("%s: %s pseudo-legal=%d generated=%d", pos_to_fen(&pos, f, sizeof f),
                         move_to_text(m, t), ok, listed);
            }
            pseudo += ok;
        }
    }
    assert_int_equal(pseudo, n);
    /* count_legal and gen_legal agree with a plain make-and-test filter */
    int legal = 0;
    CheckCtx check_ctx;
    check_ctx_init(&check_ctx);
    for (int i = 0; i < n; i++) {
        /* move_gives_check (the board alone, before the move) agrees with making the move, and with its context */
        const bool gives = move_gives_check(&pos, all[i]);
        if (gives != gives_check_with_ctx(&pos, &check_ctx, all[i])) {
            char f[FEN_MAX], t[MOVE_TEXT];
            fail_msg("%s: %s gives_check=%d, with the context %d", pos_to_fen(&pos, f, sizeof f),
                     move_to_text(all[i], t), gives, !gives);
        }
        pos_make(&pos, all[i]);
        legal += !side_in_check(&pos, pos.side ^ 1);
        if (gives != (bool)side_in_check(&pos, pos.side)) {
            char f[FEN_MAX], t[MOVE_TEXT];
            pos_unmake(&pos);
            fail_msg("%s: %s gives_check=%d", pos_to_fen(&pos, f, sizeof f), move_to_text(all[i], t), gives);
        }
        pos_unmake(&pos);
    }
    assert_int_equal(count_legal(&pos), legal);
}

/* Walks two plies from each perft position checking the oracles everywhere. */
static void test_oracles(void **state)
{
    (void)state;
    test_walk_perft(&pos, check_oracles, 3);
}

/* Runs the movegen tests; --slow raises the perft budget. */
int main(int argc, char **argv)
{
    slow_mode = argc > 1 && strcmp(argv[1], "--slow") == 0;
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_epd),
        cmocka_unit_test(test_divide_startpos),
        cmocka_unit_test(test_rules_epd),
        cmocka_unit_test(test_oracles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
