/*
 * test_nnue.c - the network evaluation on seeded random nets (no trained net
 * needed): incremental updates equal a fresh refresh along thousands of
 * positions of random games (captures, king moves across the mirror line,
 * null moves, lazy catch-up over several plies, unmake back to the root);
 * every SIMD kernel equals the scalar one bit for bit; colour-flipped
 * positions evaluate alike for the side to move; net files round-trip and
 * every kind of bad file is rejected with its own message, the net kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "eval/nnue/nnue.h"
#include "testutil.h"

enum { GAMES = 60, GAME_PLIES = 120, FILE_SIZE = NNUE_HEADER_SIZE + NNUE_PAYLOAD_SIZE };

/* xorshift64* step: the tests' deterministic random numbers. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* A uniform integer in [lo, hi]. */
static int rnd_range(uint64_t *s, int lo, int hi) { return lo + (int)(rnd(s) % (uint64_t)(hi - lo + 1)); }

/* A random net whose accumulators land around the clamp range, so both clamps matter. */
static Network *random_net(uint64_t seed)
{
    Network *net = calloc(1, sizeof *net);
    assert_non_null(net);
    for (int i = 0; i < NNUE_FEATURES * NNUE_HIDDEN; i++)
        net->ft_weight[i] = (int16_t)rnd_range(&seed, -40, 40);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        net->ft_bias[i] = (int16_t)rnd_range(&seed, -60, 200);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            net->out_weight[b][i] = (int16_t)rnd_range(&seed, -NNUE_OUT_WEIGHT_MAX, NNUE_OUT_WEIGHT_MAX);
        net->out_bias[b] = rnd_range(&seed, -2000000, 2000000);
    }
    snprintf(net->desc, sizeof net->desc, "random test net %llu", (unsigned long long)seed);
    return net;
}

/* A random legal move, preferring captures and king moves now and then so both are common. */
static Move pick_move(Position *pos, uint64_t *seed)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    if (n == 0)
        return MOVE_NONE;
    int roll = rnd_range(seed, 0, 9);
    for (int i = 0; i < n && roll < 4; i++) {
        Move m = moves[(i + rnd_range(seed, 0, n - 1)) % n];
        bool capture = pos->board[move_to(m)] != EMPTY, king = piece_type(pos->board[move_from(m)]) == KING;
        if ((roll < 3 && capture) || (roll == 3 && king))
            return m;
    }
    return moves[rnd_range(seed, 0, n - 1)];
}

/* Incremental evaluation (lazy, evaluated at random plies) equals a fresh one, down and back up. */
static void test_incremental_equals_refresh(void **state)
{
    (void)state;
    Network *net = random_net(1);
    NnueStack *s = malloc(sizeof *s);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(s);
    assert_non_null(pos);
    uint64_t seed = 7, checked = 0;
    for (int g = 0; g < GAMES; g++) {
        test_setup(pos, START_FEN);
        nnue_reset(s, net, pos, NULL);
        int plies = 0;
        /* the stack holds a search path: go down up to NNUE_STACK - 1 plies, then back to the root */
        for (; plies < GAME_PLIES && plies < NNUE_STACK - 1; plies++) {
            bool null_move = !pos->in_check && rnd_range(&seed, 0, 19) == 0;
            Move m = null_move ? MOVE_NONE : pick_move(pos, &seed);
            if (!null_move && m == MOVE_NONE)
                break;
            if (null_move) {
                nnue_push_null(s);
                pos_make_null(pos);
            } else {
                nnue_push(s, pos, m);
                pos_make(pos, m);
            }
            if (rnd_range(&seed, 0, 2) == 0) {
                assert_int_equal(nnue_evaluate(net, s, pos), nnue_evaluate_fresh(net, pos, NULL));
                checked++;
            }
        }
        for (; plies > 0; plies--) {
            if (pos->hist[pos->ply - 1].move == MOVE_NONE)
                pos_unmake_null(pos);
            else
                pos_unmake(pos);
            nnue_pop(s);
            if (rnd_range(&seed, 0, 3) == 0) {
                assert_int_equal(nnue_evaluate(net, s, pos), nnue_evaluate_fresh(net, pos, NULL));
                checked++;
            }
        }
        assert_int_equal(s->top, 0);
    }
    assert_true(checked > 2000);
    assert_true(s->refreshes > 0); /* kings crossed the mirror line */
    assert_true(s->updates > 0);
    free(pos);
    free(s);
    free(net);
}

/* Every kernel set this CPU runs gives the scalar results, on positions and on extreme accumulators. */
static void test_simd_equals_scalar(void **state)
{
    (void)state;
    Network *net = random_net(2);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    const NnueKernels *scalar = nnue_kernels(NNUE_SCALAR);
    int levels = 0;
    for (int level = NNUE_SCALAR + 1; level < NNUE_SIMD_LEVELS; level++) {
        const NnueKernels *k = nnue_kernels((NnueSimd)level);
        if (!k)
            continue;
        levels++;
        uint64_t seed = 11;
        for (int g = 0; g < 20; g++) {
            test_setup(pos, START_FEN);
            for (int ply = 0; ply < 100; ply++) {
                assert_int_equal(nnue_evaluate_fresh(net, pos, k), nnue_evaluate_fresh(net, pos, scalar));
                Move m = pick_move(pos, &seed);
                if (m == MOVE_NONE)
                    break;
                pos_make(pos, m);
            }
        }
        /* raw kernels on accumulators anywhere in int16, rows and weights at their limits */
        int16_t acc[2][NNUE_HIDDEN], row[3][NNUE_HIDDEN], a[NNUE_HIDDEN], b[NNUE_HIDDEN];
        for (int t = 0; t < 200; t++) {
            for (int i = 0; i < NNUE_HIDDEN; i++) {
                acc[0][i] = (int16_t)rnd_range(&seed, t % 2 ? -32768 : -100, t % 2 ? 32767 : 400);
                acc[1][i] = (int16_t)rnd_range(&seed, -100, 400);
                for (int r = 0; r < 3; r++)
                    row[r][i] = (int16_t)rnd_range(&seed, -2000, 2000);
            }
            const int16_t *w = net->out_weight[t % NNUE_OUTPUT_BUCKETS];
            assert_true(k->output(acc[0], acc[1], w) == scalar->output(acc[0], acc[1], w));
            const int16_t *add[2] = { row[0], row[1] }, *sub[1] = { row[2] };
            k->update(a, acc[1], add, 2, sub, 1);
            scalar->update(b, acc[1], add, 2, sub, 1);
            assert_memory_equal(a, b, sizeof a);
        }
    }
    print_message("compared %d SIMD level(s) with scalar; best here: %s\n", levels, nnue_best_kernels()->name);
    free(pos);
    free(net);
    if (levels == 0) { /* nothing was compared: say so and skip, never a silent pass */
        print_message("SKIPPED: this CPU runs no SIMD kernel set, so none was compared with scalar\n");
        skip();
    }
}

/* The worst case of the output sum, all accumulators at QA and every weight at the clamp (+-127), on every
 * kernel set this CPU runs, scalar included, against the closed form 2 * HIDDEN * QA^2 * 127. */
static void test_output_worst_case(void **state)
{
    (void)state;
    static int16_t acc[NNUE_HIDDEN], w[2 * NNUE_HIDDEN];
    for (int i = 0; i < NNUE_HIDDEN; i++)
        acc[i] = NNUE_QA;
    const int64_t extreme = (int64_t)2 * NNUE_HIDDEN * NNUE_QA * NNUE_QA * NNUE_OUT_WEIGHT_MAX;
    int levels = 0;
    for (int level = NNUE_SCALAR; level < NNUE_SIMD_LEVELS; level++) {
        const NnueKernels *k = nnue_kernels((NnueSimd)level);
        if (!k)
            continue;
        levels++;
        for (int sign = -1; sign <= 1; sign += 2) {
            for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
                w[i] = (int16_t)(sign * NNUE_OUT_WEIGHT_MAX);
            int64_t got = k->output(acc, acc, w);
            if (got != sign * extreme)
                fail_msg("%s: output %lld, expected %lld", k->name, (long long)got, (long long)(sign * extreme));
        }
    }
    assert_true(levels >= 1); /* scalar at least */
}

/* A position and its colour-flipped twin score the same for the side to move. */
static void test_colour_mirror(void **state)
{
    (void)state;
    Network *net = random_net(3);
    Position *pos = malloc(sizeof *pos), *twin = malloc(sizeof *twin);
    assert_non_null(pos);
    assert_non_null(twin);
    uint64_t seed = 5;
    int compared = 0;
    for (int g = 0; g < 20; g++) {
        test_setup(pos, START_FEN);
        for (int ply = 0; ply < 80; ply++) {
            char fen[FEN_MAX];
            test_flip_colours(pos, fen, sizeof fen);
            test_setup(twin, fen);
            assert_int_equal(nnue_evaluate_fresh(net, pos, NULL), nnue_evaluate_fresh(net, twin, NULL));
            compared++;
            Move m = pick_move(pos, &seed);
            if (m == MOVE_NONE)
                break;
            pos_make(pos, m);
        }
    }
    assert_true(compared > 1000);
    free(twin);
    free(pos);
    free(net);
}

/* Rewrites the checksum of a net image after a test edited it. */
static void fix_checksum(uint8_t *img)
{
    uint32_t h = nnue_file_checksum(img, FILE_SIZE);
    for (int i = 0; i < 4; i++)
        img[44 + i] = (uint8_t)(h >> (8 * i));
}

/* Expects parsing img to fail with a message containing want and to leave the net as it was. */
static void expect_rejected(const uint8_t *img, size_t size, const char *want)
{
    Network *net = random_net(9), *copy = malloc(sizeof *copy);
    assert_non_null(copy);
    memcpy(copy, net, sizeof *net);
    XqError err = { "" };
    assert_false(nnue_parse(net, img, size, &err));
    if (!strstr(err.msg, want))
        fail_msg("error '%s' does not mention '%s'", err.msg, want);
    assert_memory_equal(net, copy, sizeof *net);
    free(copy);
    free(net);
}

/* Serialise, parse back, and every kind of corruption rejected with its own message. */
static void test_net_files(void **state)
{
    (void)state;
    Network *net = random_net(4), *back = calloc(1, sizeof *back);
    uint8_t *img = malloc(FILE_SIZE + 1), *bad = malloc(FILE_SIZE + 1);
    assert_non_null(back);
    assert_non_null(img);
    assert_non_null(bad);
    nnue_serialise(net, img);
    XqError err;
    assert_true(nnue_parse(back, img, FILE_SIZE, &err));
    assert_memory_equal(net, back, sizeof *net);

    expect_rejected(img, FILE_SIZE - 1, "truncated");
    expect_rejected(img, 100, "header");
    memcpy(bad, img, FILE_SIZE);
    bad[FILE_SIZE] = 0;
    expect_rejected(bad, FILE_SIZE + 1, "trailing");
    bad[0] = 'X';
    expect_rejected(bad, FILE_SIZE, "magic");
    memcpy(bad, img, FILE_SIZE);
    bad[8] = NNUE_VERSION + 1;
    expect_rejected(bad, FILE_SIZE, "version");
    /* the checksum covers the header too: a description or a padding byte edited after export fails */
    memcpy(bad, img, FILE_SIZE);
    bad[NNUE_DESC_OFFSET] ^= '\n';
    expect_rejected(bad, FILE_SIZE, "checksum");
    memcpy(bad, img, FILE_SIZE);
    bad[NNUE_HEADER_SIZE - 1] ^= 1;
    expect_rejected(bad, FILE_SIZE, "checksum");
    /* a version 1 file (checksum of the payload only, as nets were written before) still loads, its version
     * telling the definitions apart; its payload is still checked */
    memcpy(bad, img, FILE_SIZE);
    bad[8] = NNUE_VERSION_PAYLOAD_SUM;
    bad[NNUE_DESC_OFFSET] = 'v';
    uint32_t payload_sum = nnue_fnv1a(bad + NNUE_HEADER_SIZE, NNUE_PAYLOAD_SIZE);
    for (int i = 0; i < 4; i++)
        bad[NNUE_OFF_CHECKSUM + i] = (uint8_t)(payload_sum >> (8 * i));
    assert_true(nnue_parse(back, bad, FILE_SIZE, &err));
    assert_memory_equal(back->ft_weight, net->ft_weight, sizeof net->ft_weight);
    assert_int_equal(back->desc[0], 'v');
    bad[NNUE_HEADER_SIZE + 1000] ^= 1;
    expect_rejected(bad, FILE_SIZE, "checksum");
    memcpy(bad, img, FILE_SIZE);
    bad[20] = 0; /* hidden size 256 -> 0 */
    bad[21] = 0;
    expect_rejected(bad, FILE_SIZE, "hidden size");
    memcpy(bad, img, FILE_SIZE);
    bad[NNUE_HEADER_SIZE + 1000] ^= 1;
    expect_rejected(bad, FILE_SIZE, "checksum");
    memcpy(bad, img, FILE_SIZE);
    size_t out_at = NNUE_HEADER_SIZE + 2 * (NNUE_FEATURES * NNUE_HIDDEN + NNUE_HIDDEN) + 2 * 5;
    bad[out_at] = 200; /* output weight 200: beyond the kernels' range */
    bad[out_at + 1] = 0;
    fix_checksum(bad);
    expect_rejected(bad, FILE_SIZE, "output weight");

    Network *kept = random_net(9), *copy = malloc(sizeof *copy);
    assert_non_null(copy);
    memcpy(copy, kept, sizeof *kept);
    assert_false(nnue_load_file(kept, "/nonexistent/dir/x.nnue", NULL, &err));
    assert_non_null(strstr(err.msg, "cannot open"));
    assert_memory_equal(kept, copy, sizeof *kept);
    free(copy);
    free(kept);
    free(bad);
    free(img);
    free(back);
    free(net);
}

/* Runs the network tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_incremental_equals_refresh),
        cmocka_unit_test(test_simd_equals_scalar),
        cmocka_unit_test(test_output_worst_case),
        cmocka_unit_test(test_colour_mirror),
        cmocka_unit_test(test_net_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
