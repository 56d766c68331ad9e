/*
 * test_search.c - the search finds every forced mate of tactics.epd with its
 * exact distance, solves the other tactical positions within a node budget,
 * returns no move when there is none, honours root-move restrictions and
 * stops, and is deterministic; MultiPV reports distinct legal lines, best
 * first, never more than the root moves allowed, and one line is the plain
 * search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "board/movegen.h"
#include "eval/nnue/nnue.h"
#include "rules/rules.h"
#include "search/search.h"
#include "testutil.h"

/* TACTIC_NODE_BUDGET: the hand-crafted evaluation's search must solve every bm position within it. It was 100,000
 * until the SPSA-tuned margins of issue 34: with them the mate in 7 of
 * 2bak1b2/3Ra4/9/p3R3p/9/P5P2/3c4P/3pBA3/4K4/2r2A3 b is found at depth 13 after 128,011 nodes (before: depth 14,
 * 87,360 nodes; `go nodes N` with Use NNUE off). */
enum { MATE_NODE_BUDGET = 2000000, TACTIC_NODE_BUDGET = 150000, TEST_HASH_MB = 16, NET_DETERMINISM_DEPTH = 10 };

static Position pos;
static TT tt;
static SearchThread *st;

/* Searches pos under limits with a fresh table and the given evaluation (NULL: hand-crafted). */
static SearchResult run_with(const SearchLimits *limits, const Network *net)
{
    SearchShared shared;
    SearchResult res;
    atomic_init(&shared.pondering, false);
    tt_clear(&tt);
    search_thread_clear(st);
    search_shared_init(&shared, &tt, limits, rules_default(), NULL, NULL);
    shared.net = net;
    search_run(st, &shared, &pos, &res);
    return res;
}

/* Searches pos under limits with a fresh table; returns the result. */
static SearchResult run(const SearchLimits *limits) { return run_with(limits, NULL); }

/* Every `dm N` position: mate in exactly N found. */
static void test_mates(void **state)
{
    (void)state;
    TestLines lines;
    int mates = 0;
    test_read_lines("tactics.epd", &lines);
    for (int i = 0; i < lines.count; i++) {
        char fen[LINE_MAX_TEST], dm[16];
        if (!epd_field(lines.line[i], "dm", dm, sizeof dm) || test_known_invalid(lines.line[i]))
            continue;
        epd_fen(lines.line[i], fen, sizeof fen);
        test_setup(&pos, fen);
        int n = atoi(dm);
        SearchLimits limits = { 0 };
        limits.nodes = MATE_NODE_BUDGET;
        limits.mate = n;
        SearchResult res = run(&limits);
        int expected = SCORE_MATE - (2 * n - 1);
        if (res.score != expected) {
            char text[MOVE_TEXT];
            fail_msg("%s: mate in %d expected (score %d), got score %d move %s depth %d", fen, n, expected, res.score,
                     move_to_text(res.best, text), res.depth);
        }
        mates++;
    }
    test_free_lines(&lines);
    assert_int_equal(mates, 36);
}

/* Non-mate tactics: the best move is found within the node budget. */
static void test_tactics(void **state)
{
    (void)state;
    TestLines lines;
    int total = 0, solved = 0;
    test_read_lines("tactics.epd", &lines);
    for (int i = 0; i < lines.count; i++) {
        char fen[LINE_MAX_TEST], bm[16], dm[16], text[MOVE_TEXT];
        if (epd_field(lines.line[i], "dm", dm, sizeof dm) || test_known_invalid(lines.line[i]))
            continue;
        assert_true(epd_field(lines.line[i], "bm", bm, sizeof bm));
        epd_fen(lines.line[i], fen, sizeof fen);
        test_setup(&pos, fen);
        SearchLimits limits = { 0 };
        limits.nodes = TACTIC_NODE_BUDGET;
        SearchResult res = run(&limits);
        total++;
        if (strcmp(move_to_text(res.best, text), bm) == 0)
            solved++;
        else
            printf("unsolved: %s bm %s got %s (score %d)\n", fen, bm, text, res.score);
    }
    test_free_lines(&lines);
    printf("tactics solved: %d/%d\n", solved, total);
    assert_int_equal(solved, total);
}

/* Mated and stalemated positions give no move. */
static void test_no_move(void **state)
{
    (void)state;
    SearchLimits limits = { 0 };
    limits.depth = 4;
    test_setup(&pos, "4k4/4a4/9/9/9/9/9/9/3r1r3/4K4 w - - 0 1"); /* stalemate: red loses */
    SearchResult res = run(&limits);
    assert_int_equal(res.best, MOVE_NONE);
    test_setup(&pos, "4k4/9/9/9/9/9/9/9/4Ar3/2r1K4 w - - 0 7"); /* checkmate */
    res = run(&limits);
    assert_int_equal(res.best, MOVE_NONE);
}

/* Root move restriction, a pre-set stop, and determinism. */
static void test_limits(void **state)
{
    (void)state;
    SearchLimits limits = { 0 };
    Move m;
    XqError err;
    test_setup(&pos, START_FEN);
    assert_true(move_parse_legal(&pos, "a3a4", &m, &err));
    limits.depth = 5;
    limits.n_root_moves = 1;
    limits.root_moves[0] = m;
    SearchResult res = run(&limits);
    assert_int_equal(res.best, m);

    limits.n_root_moves = 0;
    limits.depth = 7;
    SearchResult a = run(&limits), b = run(&limits);
    assert_int_equal(a.nodes, b.nodes);
    assert_int_equal(a.best, b.best);
    assert_true(move_is_pseudo_legal(&pos, a.best) && move_is_legal(&pos, a.best));
    pos_make(&pos, a.best);
    assert_true(move_is_pseudo_legal(&pos, a.ponder) && move_is_legal(&pos, a.ponder));
    pos_unmake(&pos);

    /* a search stopped before it starts still returns a legal move */
    SearchShared shared;
    atomic_init(&shared.pondering, false);
    limits.depth = 0;
    search_shared_init(&shared, &tt, &limits, rules_default(), NULL, NULL);
    atomic_store(&shared.stop, true);
    search_run(st, &shared, &pos, &res);
    assert_true(res.best != MOVE_NONE && move_is_legal(&pos, res.best));
}

/* One thread with the built-in network at a real depth is deterministic: the same nodes, move, ponder move and
 * score twice, on the start position and a middlegame of bench_positions.epd, with a search of another
 * position in between (what a search learns must not leak into the next after a clear). */
static void test_net_determinism(void **state)
{
    (void)state;
    const Network *net = nnue_default();
    if (!net) {
        print_message("SKIPPED: this build has no built-in network\n");
        skip();
    }
    static const char *const FENS[] = {
        START_FEN, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    };
    SearchLimits limits = { 0 };
    limits.depth = NET_DETERMINISM_DEPTH;
    for (size_t i = 0; i < sizeof FENS / sizeof *FENS; i++) {
        test_setup(&pos, FENS[i]);
        SearchResult a = run_with(&limits, net);
        assert_true(search_thread_nnue_work(st) > 0); /* the network evaluated */
        test_setup(&pos, FENS[1 - i]);
        (void)run_with(&limits, net);
        test_setup(&pos, FENS[i]);
        SearchResult b = run_with(&limits, net);
        assert_int_equal(a.depth, NET_DETERMINISM_DEPTH);
        assert_int_equal(a.nodes, b.nodes);
        assert_int_equal(a.best, b.best);
        assert_int_equal(a.ponder, b.ponder);
        assert_int_equal(a.score, b.score);
    }
}

/* Sets up a FEN and plays a move list into the history. */
static void setup_with_moves(const char *fen, const char *moves) { test_setup_moves(&pos, fen, moves); }

/* Searches pos for one root move at a fixed depth under a rule set, with a fresh table; returns the result. */
static SearchResult run_move(Move m, int depth, const RuleSet *set)
{
    SearchLimits limits = { 0 };
    limits.depth = depth;
    limits.n_root_moves = 1;
    limits.root_moves[0] = m;
    SearchShared shared;
    SearchResult res;
    atomic_init(&shared.pondering, false);
    tt_clear(&tt);
    search_thread_clear(st);
    search_shared_init(&shared, &tt, &limits, set, NULL, NULL);
    search_run(st, &shared, &pos, &res);
    return res;
}

/* Black's pawns check red's king from f2 and e2 in turn, from "3k5/.../5p3/5K3/5C3": the moves of each cycle. */
static const char PERPETUAL_FEN[] = "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1";
static const char PERPETUAL_CYCLE[] = "f1e1 f2e2 e1f1 e2f2";

/* The search refuses a perpetual check that would lose, and scores the move that brings the third occurrence
 * as a ban loss at once. */
static void test_refuses_perpetual(void **state)
{
    (void)state;
    char moves[128];
    snprintf(moves, sizeof moves, "%s f1e1 f2e2 e1f1", PERPETUAL_CYCLE);
    Move forbidden;
    XqError err;
    for (int i = 0; i < rules_count(); i++) {
        const RuleSet *set = rules_at(i);
        setup_with_moves(PERPETUAL_FEN, moves); /* black to move: e2f2 would bring the start a third time */
        assert_true(move_parse_legal(&pos, "e2f2", &forbidden, &err));
        SearchLimits limits = { 0 };
        limits.depth = 6;
        SearchShared shared;
        SearchResult res;
        atomic_init(&shared.pondering, false);
        tt_clear(&tt);
        search_shared_init(&shared, &tt, &limits, set, NULL, NULL);
        search_run(st, &shared, &pos, &res);
        assert_int_not_equal(res.best, forbidden);
        assert_true(res.score > -SCORE_BAN_MIN);
        res = run_move(forbidden, 6, set);
        assert_int_equal(res.best, forbidden);
        assert_int_equal(res.score, -SCORE_BAN + 1);
    }
}

/* A position's second occurrence whose first lies before the root ends nothing: the game goes on, and the side the
 * cycle's ruling goes against may still deviate. The same move that brings the third occurrence is ruled. */
static void test_history_needs_third(void **state)
{
    (void)state;
    Move repeat;
    XqError err;
    for (int i = 0; i < rules_count(); i++) {
        const RuleSet *set = rules_at(i);
        /* black to move; e2f2 brings the start position back a second time, its first occurrence in the game */
        setup_with_moves(PERPETUAL_FEN, "f1e1 f2e2 e1f1");
        assert_true(move_parse_legal(&pos, "e2f2", &repeat, &err));
        SearchResult res = run_move(repeat, 1, set);
        assert_int_equal(res.best, repeat);
        assert_false(score_is_ban(res.score));
        /* the same with the cycle played once more: the third occurrence, a ban loss for the checker */
        char moves[128];
        snprintf(moves, sizeof moves, "%s f1e1 f2e2 e1f1", PERPETUAL_CYCLE);
        setup_with_moves(PERPETUAL_FEN, moves);
        res = run_move(repeat, 1, set);
        assert_int_equal(res.score, -SCORE_BAN + 1);
    }
}

/* The side being perpetually checked keeps repeating: the checker, not it, must deviate. */
static void test_accepts_winning_repetition(void **state)
{
    (void)state;
    char moves[128];
    /* red to move, in check; e1f1 brings the position after red's first e1f1 back a third time */
    snprintf(moves, sizeof moves, "%s %s f1e1 f2e2", PERPETUAL_CYCLE, PERPETUAL_CYCLE);
    setup_with_moves(PERPETUAL_FEN, moves);
    Move repeat;
    XqError err;
    assert_true(move_parse_legal(&pos, "e1f1", &repeat, &err));
    /* black's checking cycle is the forbidden one, so red wins by the rules */
    assert_int_equal(run_move(repeat, 1, rules_default()).score, SCORE_BAN - 1);
    /* one cycle fewer: the second occurrence, and black may still deviate: no verdict yet */
    snprintf(moves, sizeof moves, "%s f1e1 f2e2", PERPETUAL_CYCLE);
    setup_with_moves(PERPETUAL_FEN, moves);
    assert_false(score_is_ban(run_move(repeat, 1, rules_default()).score));
}

/* A null move's fail-high returns an ordinary score as it is, but never a mate or a repetition-ban
 * score: those depend on the pass (or on the path) and stand for beta. */
static void test_null_cutoff_value(void **state)
{
    (void)state;
    static const int BETAS[] = { -SCORE_BAN - 10, -SCORE_KNOWN_WIN + 1, -300, 0, 5, 250, SCORE_KNOWN_WIN - 1 };
    for (size_t i = 0; i < sizeof BETAS / sizeof BETAS[0]; i++) {
        int beta = BETAS[i];
        for (int score = beta; score <= SCORE_MATE; score++) {
            int v = score_null_cutoff(score, beta);
            if (score_is_mate(score) || score_is_ban(score))
                assert_int_equal(v, beta);
            else if (score < SCORE_KNOWN_WIN)
                assert_int_equal(v, score);
            assert_false(score_is_ban(v) || score_is_mate(v));
        }
    }
}

/* A capture that leaves dead material is a draw to the search: taking the last horse scores 0, not a material gain. */
static void test_dead_capture_is_draw(void **state)
{
    (void)state;
    setup_with_moves("4k4/9/9/9/9/9/9/9/4n4/3AK4 w - - 0 1", "");
    Move take;
    XqError err;
    assert_true(move_parse_legal(&pos, "d0e1", &take, &err));
    SearchLimits limits = { 0 };
    limits.depth = 4;
    limits.n_root_moves = 1;
    limits.root_moves[0] = take;
    SearchResult res = run(&limits);
    assert_int_equal(res.best, take);
    assert_int_equal(res.score, SCORE_DRAW);
}

/* The 60-move rule at the horizon: with 119 quiet plies played, every quiet reply of the side a rook down draws, so
 * a depth-1 search (its replies searched at depth 0) scores the position a draw; a mate on the 120th ply still
 * wins there. */
static void test_quiet_limit_at_horizon(void **state)
{
    (void)state;
    SearchLimits limits = { 0 };
    limits.depth = 1;
    setup_with_moves("4k4/9/9/9/9/9/9/9/R8/3K5 b - - 119 60", "");
    SearchResult res = run(&limits);
    assert_int_not_equal(res.best, MOVE_NONE);
    assert_int_equal(res.score, SCORE_DRAW);
    setup_with_moves("4k4/8R/9/9/9/9/9/9/R8/3K5 w - - 119 60", "");
    res = run(&limits);
    assert_int_equal(res.score, SCORE_MATE - 1);
}

/* The 60-move rule inside quiescence: a check that loses its checker to SEE is not extended, so the reply to it is
 * searched by quiescence, and a quiet evasion that plays the 120th quiet ply draws there too. Red, a rook and an
 * advisor for a horse down with 118 quiet plies played, checks with Nd7; the advisor that attacks d7 is pinned on
 * the kings' file, so Black can only step aside, which draws: the check scores 0, every other move the evaluation. */
static void test_quiet_limit_in_quiescence(void **state)
{
    (void)state;
    setup_with_moves("4k4/4a4/9/9/2N6/9/9/9/8r/4K4 w - - 118 60", "");
    Move check;
    XqError err;
    assert_true(move_parse_legal(&pos, "c5d7", &check, &err));
    SearchLimits limits = { 0 };
    limits.depth = 1;
    SearchResult res = run(&limits);
    assert_int_equal(res.best, check);
    assert_int_equal(res.score, SCORE_DRAW);
}

enum { LINES_MAX = 8 };

/* What the MultiPV test's report callback saw: the exact lines of the deepest iteration. */
typedef struct Lines {
    int depth, count;
    SearchReport line[LINES_MAX];
} Lines;

/* Report callback: keeps the exact lines of the latest iteration, checking they arrive 1, 2, ... */
static void keep_lines(void *ctx, const SearchReport *r)
{
    Lines *l = ctx;
    if (r->bound != BOUND_EXACT)
        return;
    if (r->depth != l->depth || r->multipv == 1) {
        l->depth = r->depth;
        l->count = 0;
    }
    assert_int_equal(r->multipv, l->count + 1);
    assert_true(l->count < LINES_MAX);
    l->line[l->count++] = *r;
}

/* Searches pos with MultiPV `lines` to depth (root moves restricted to allowed when n_allowed > 0). */
static SearchResult run_lines(int lines, int depth, const Move *allowed, int n_allowed, Lines *seen)
{
    SearchLimits limits = { 0 };
    SearchShared shared;
    SearchResult res;
    limits.depth = depth;
    limits.multipv = lines;
    limits.n_root_moves = n_allowed;
    if (n_allowed > 0)
        memcpy(limits.root_moves, allowed, sizeof(Move) * (size_t)n_allowed);
    memset(seen, 0, sizeof *seen);
    atomic_init(&shared.pondering, false);
    tt_clear(&tt);
    search_thread_clear(st);
    search_shared_init(&shared, &tt, &limits, rules_default(), keep_lines, seen);
    search_run(st, &shared, &pos, &res);
    return res;
}

/* Each line plays legally from the root; first moves differ; scores never rise from line to line. */
static void check_lines(const Lines *l)
{
    for (int i = 0; i < l->count; i++) {
        const SearchReport *r = &l->line[i];
        assert_true(r->pv_len > 0);
        for (int j = 0; j < i; j++)
            assert_int_not_equal(r->pv[0], l->line[j].pv[0]);
        if (i > 0)
            assert_true(r->score <= l->line[i - 1].score);
        int k = 0;
        for (; k < r->pv_len; k++) {
            assert_true(move_is_pseudo_legal(&pos, r->pv[k]) && move_is_legal(&pos, r->pv[k]));
            pos_make(&pos, r->pv[k]);
        }
        while (k-- > 0)
            pos_unmake(&pos);
    }
}

/* MultiPV: N distinct lines best first, the first one is the move; fewer root moves give fewer lines;
 * MultiPV 1 is the search without MultiPV, node for node. */
static void test_multipv(void **state)
{
    (void)state;
    Lines seen;
    test_setup(&pos, START_FEN);
    SearchResult res = run_lines(4, 7, NULL, 0, &seen);
    assert_int_equal(seen.depth, 7);
    assert_int_equal(seen.count, 4);
    check_lines(&seen);
    assert_int_equal(res.best, seen.line[0].pv[0]);
    assert_int_equal(res.score, seen.line[0].score);

    Move two[2];
    XqError err;
    assert_true(move_parse_legal(&pos, "a3a4", &two[0], &err));
    assert_true(move_parse_legal(&pos, "b0c2", &two[1], &err));
    res = run_lines(5, 6, two, 2, &seen);
    assert_int_equal(seen.count, 2);
    check_lines(&seen);
    assert_true((seen.line[0].pv[0] == two[0] && seen.line[1].pv[0] == two[1])
                || (seen.line[0].pv[0] == two[1] && seen.line[1].pv[0] == two[0]));

    test_setup(&pos, "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"); /* one legal move (e0f0) */
    res = run_lines(3, 4, NULL, 0, &seen);
    assert_int_equal(seen.count, 1);
    check_lines(&seen);

    test_setup(&pos, START_FEN);
    SearchResult one = run_lines(1, 8, NULL, 0, &seen), plain = run_lines(0, 8, NULL, 0, &seen);
    assert_int_equal(one.nodes, plain.nodes);
    assert_int_equal(one.best, plain.best);
}

/* Runs the search tests. */
int main(void)
{
    tables_init();
    st = search_thread_new();
    assert_true(st && tt_resize(&tt, TEST_HASH_MB));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mates),
        cmocka_unit_test(test_no_move),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_net_determinism),
        cmocka_unit_test(test_refuses_perpetual),
        cmocka_unit_test(test_accepts_winning_repetition),
        cmocka_unit_test(test_history_needs_third),
        cmocka_unit_test(test_dead_capture_is_draw),
        cmocka_unit_test(test_quiet_limit_at_horizon),
        cmocka_unit_test(test_quiet_limit_in_quiescence),
        cmocka_unit_test(test_tactics),
        cmocka_unit_test(test_null_cutoff_value),
        cmocka_unit_test(test_multipv),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    tt_free(&tt);
    search_thread_free(st);
    return rc;
}
