/*
 * test_nnue.c - the network evaluation on seeded random nets (no trained net
 * needed), in each shape the engine runs (feature set 1 at width 256, feature
 * set 2 with king buckets at width 512, and feature set 1 at width 1024):
 * incremental updates equal a fresh refresh along thousands of positions of
 * random games (captures, king moves, which refresh through the cache per
 * king square, null moves, lazy catch-up over several plies, unmake back to
 * the root); a king move and back costs the cache a few rows, not a refresh
 * of every piece; every SIMD kernel equals the scalar one bit for bit, at
 * every width; colour-flipped positions evaluate alike for the side to move;
 * net files round-trip, versions 1 and 2 still load, and every kind of bad
 * file is rejected with its own message. Two shapes add a second stage
 * (nnue_arch.h), whose kernels are compared too and tested at their worst case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "board/movegen.h"
#include "eval/nnue/nnue.h"
#include "testutil.h"

enum { GAMES = 60, GAME_PLIES = 120, N_SHAPES = 5, STAGE2_SHAPE = 3 };

/* The shapes tested: version 2's, the king-bucket net at 512, the widest first layer, and two with a second
 * stage (one of l2 rows not a multiple of the AVX2 kernel's four). */
static const NnueShape SHAPES[N_SHAPES] = {
    { NNUE_FEATURE_SET_PSQ, NNUE_FEATURES, NNUE_HIDDEN_V1, 0, 0 },
    { NNUE_FEATURE_SET_KING, NNUE_KING_BUCKETS * NNUE_FEATURES, 512, 0, 0 },
    { NNUE_FEATURE_SET_PSQ, NNUE_FEATURES, NNUE_HIDDEN_MAX, 0, 0 },
    { NNUE_FEATURE_SET_PSQ, NNUE_FEATURES, NNUE_HIDDEN_V1, 16, 32 },
    { NNUE_FEATURE_SET_KING, NNUE_KING_BUCKETS * NNUE_FEATURES, 512, 15, 7 },
};

/* A uniform integer in [lo, hi]. */
static int rnd_range(uint64_t *s, int lo, int hi) { return lo + (int)(test_random(s) % (uint64_t)(hi - lo + 1)); }

/* A random net of a shape whose accumulators land around the clamp range, so both clamps matter. */
static Network *random_net(uint64_t seed, const NnueShape *shape)
{
    Network *net = nnue_net_new(shape);
    assert_non_null(net);
    const size_t h = (size_t)shape->hidden;
    for (size_t i = 0; i < (size_t)shape->inputs * h; i++)
        net->ft_weight[i] = (int16_t)rnd_range(&seed, -40, 40);
    for (size_t i = 0; i < h; i++)
        net->ft_bias[i] = (int16_t)rnd_range(&seed, -60, 200);
    for (size_t i = 0; i < NNUE_OUTPUT_BUCKETS * 2 * h; i++)
        net->out_weight[i] = (int16_t)rnd_range(&seed, -NNUE_OUT_WEIGHT_MAX, NNUE_OUT_WEIGHT_MAX);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        net->out_bias[b] = rnd_range(&seed, -2000000, 2000000);
    /* second-stage weights that leave its sums around the activations' range, so both clamps matter */
    const size_t nb = NNUE_OUTPUT_BUCKETS, l2 = (size_t)shape->l2, l3 = (size_t)shape->l3;
    for (size_t i = 0; i < nb * l2 * 2 * h; i++)
        net->l2_weight[i] = (int16_t)rnd_range(&seed, -60, 60);
    for (size_t i = 0; i < nb * l2; i++)
        net->l2_bias[i] = rnd_range(&seed, -40000, 90000);
    for (size_t i = 0; i < nb * l3 * l2; i++)
        net->l3_weight[i] = (int16_t)rnd_range(&seed, -600, 600);
    for (size_t i = 0; i < nb * l3; i++) {
        net->l3_bias[i] = rnd_range(&seed, -40000, 90000);
        net->l4_weight[i] = (int16_t)rnd_range(&seed, -NNUE_L_WEIGHT_MAX, NNUE_L_WEIGHT_MAX);
    }
    for (size_t i = 0; l2 && i < nb; i++)
        net->l4_bias[i] = rnd_range(&seed, -(1 << 20), 1 << 20);
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

/* Incremental evaluation (lazy, evaluated at random plies) equals a fresh one, down and back up, in every
 * shape; king moves refresh through the cache. */
static void test_incremental_equals_refresh(void **state)
{
    (void)state;
    NnueStack *s = malloc(sizeof *s);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(s);
    assert_non_null(pos);
    for (int shape = 0; shape < N_SHAPES; shape++) {
        Network *net = random_net(1 + (uint64_t)shape, &SHAPES[shape]);
        uint64_t seed = 7, checked = 0;
        for (int g = 0; g < GAMES; g++) {
            test_setup(pos, START_FEN);
            nnue_reset(s, net, pos, NULL);
            if (g == 0)
                s->refreshes = s->updates = s->cache_rows = 0;
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
        assert_true(s->refreshes > 0); /* kings crossed the mirror line (and changed bucket) */
        assert_true(s->updates > 0);
        assert_true(s->cache_rows > 0);
        nnue_net_free(net);
    }
    free(pos);
    free(s);
}

/* With king buckets every king move refreshes its side's view, through the cache: stepping the king out and
 * back costs a handful of rows (the pieces that moved meanwhile), not one per piece on the board, and the
 * evaluations stay exact. */
static void test_king_move_uses_the_cache(void **state)
{
    (void)state;
    static const char *const MOVES[] = { "e0e1", "h9g7", "e1e0", "g7h9", "e0e1", "b9c7", "e1e0" };
    enum { N_MOVES = sizeof MOVES / sizeof *MOVES, PIECES = 32 };
    Network *net = random_net(21, &SHAPES[1]);
    NnueStack *s = malloc(sizeof *s);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(s);
    assert_non_null(pos);
    test_setup(pos, START_FEN);
    s->refreshes = s->updates = s->cache_rows = 0; /* the counters are the caller's to zero (nnue.h) */
    nnue_reset(s, net, pos, NULL);
    const uint64_t rows0 = s->cache_rows;
    assert_int_equal(rows0, 2 * PIECES); /* the reset: every piece into each side's empty entry */
    for (int i = 0; i < N_MOVES; i++) {
        XqError err;
        Move m;
        assert_true(move_parse_legal(pos, MOVES[i], &m, &err));
        nnue_push(s, pos, m);
        pos_make(pos, m);
        assert_int_equal(nnue_evaluate(net, s, pos), nnue_evaluate_fresh(net, pos, NULL));
    }
    /* four red king moves refreshed red's view: e1 (a new square: all 32 pieces), e0 (back: the king and the
     * moved horse, removed and added), e1 (the king and two horses), e0 (the king and a horse) */
    assert_int_equal(s->refreshes, 4);
    uint64_t rows = s->cache_rows - rows0;
    print_message("cache rows for 4 king moves: %llu (a full refresh is %d each)\n", (unsigned long long)rows, PIECES);
    assert_true(rows < PIECES + 3 * 8);
    free(pos);
    free(s);
    nnue_net_free(net);
}

/* Every kernel set this CPU runs gives the scalar results, on positions and on extreme accumulators, at every
 * width. */
static void test_simd_equals_scalar(void **state)
{
    (void)state;
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    const NnueKernels *scalar = nnue_kernels(NNUE_SCALAR);
    int levels = 0;
    static int16_t acc[2][NNUE_HIDDEN_MAX], row[4][NNUE_HIDDEN_MAX], a[NNUE_HIDDEN_MAX], b[NNUE_HIDDEN_MAX];
    static int16_t xa[2 * NNUE_HIDDEN_MAX], xb[2 * NNUE_HIDDEN_MAX], w2[NNUE_L2_MAX * 2 * NNUE_HIDDEN_MAX];
    int32_t sa[NNUE_L2_MAX], sb[NNUE_L2_MAX], bias[NNUE_L2_MAX];
    for (int shape = 0; shape < N_SHAPES; shape++) {
        Network *net = random_net(2 + (uint64_t)shape, &SHAPES[shape]);
        const int n = SHAPES[shape].hidden;
        for (int level = NNUE_SCALAR + 1; level < NNUE_SIMD_LEVELS; level++) {
            const NnueKernels *k = nnue_kernels((NnueSimd)level);
            if (!k)
                continue;
            levels += shape == 0;
            uint64_t seed = 11;
            for (int g = 0; g < 10; g++) {
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
            for (int t = 0; t < 200; t++) {
                for (int i = 0; i < n; i++) {
                    acc[0][i] = (int16_t)rnd_range(&seed, t % 2 ? -32768 : -100, t % 2 ? 32767 : 400);
                    acc[1][i] = (int16_t)rnd_range(&seed, -100, 400);
                    for (int r = 0; r < 4; r++)
                        row[r][i] = (int16_t)rnd_range(&seed, -2000, 2000);
                }
                const int16_t *w = nnue_out_row(net, t % NNUE_OUTPUT_BUCKETS);
                assert_true(k->output(acc[0], acc[1], w, n) == scalar->output(acc[0], acc[1], w, n));
                /* every count of added and removed rows a move or a refresh asks for (the kernels have fast
                 * paths for a quiet move's one and one and a capture's one and two) */
                const int16_t *add[2] = { row[0], row[1] }, *sub[2] = { row[2], row[3] };
                for (int n_add = 0; n_add <= 2; n_add++)
                    for (int n_sub = 0; n_sub <= 2; n_sub++) {
                        k->update(a, acc[t % 2], add, n_add, sub, n_sub, n);
                        scalar->update(b, acc[t % 2], add, n_add, sub, n_sub, n);
                        assert_memory_equal(a, b, (size_t)n * sizeof a[0]);
                    }
                /* the second stage's input, and its affine layer at every row count on inputs and weights
                 * anywhere in their ranges */
                k->stage2_input(xa, acc[t % 2], acc[1], n);
                scalar->stage2_input(xb, acc[t % 2], acc[1], n);
                assert_memory_equal(xa, xb, 2 * (size_t)n * sizeof xa[0]);
                const int rows = 1 + t % NNUE_L2_MAX, lim = t % 3 ? NNUE_L_WEIGHT_MAX : 50;
                for (int i = 0; i < rows * 2 * n; i++)
                    w2[i] = (int16_t)rnd_range(&seed, -lim, lim);
                for (int o = 0; o < rows; o++)
                    bias[o] = 2 * rnd_range(&seed, -NNUE_L_BIAS_MAX / 2, NNUE_L_BIAS_MAX / 2); /* +-2^30 */
                k->affine(sa, xa, w2, bias, 2 * n, rows);
                scalar->affine(sb, xa, w2, bias, 2 * n, rows);
                assert_memory_equal(sa, sb, (size_t)rows * sizeof sa[0]);
            }
        }
        nnue_net_free(net);
    }
    print_message("compared %d SIMD level(s) with scalar; best here: %s\n", levels, nnue_best_kernels()->name);
    free(pos);
    if (levels == 0) { /* nothing was compared: say so and skip, never a silent pass */
        print_message("SKIPPED: this CPU runs no SIMD kernel set, so none was compared with scalar\n");
        skip();
    }
}

/* The worst case of the output sum, all accumulators at QA and every weight at the clamp (+-127), on every
 * kernel set this CPU runs, scalar included, at every width, against the closed form 2 * n * QA^2 * 127 (at
 * width 1024 about 1.7e10: the kernels' 32-bit lanes must be emptied in time). */
static void test_output_worst_case(void **state)
{
    (void)state;
    static int16_t acc[NNUE_HIDDEN_MAX], w[2 * NNUE_HIDDEN_MAX];
    for (int i = 0; i < NNUE_HIDDEN_MAX; i++)
        acc[i] = NNUE_QA;
    int levels = 0;
    for (int shape = 0; shape < N_SHAPES; shape++) {
        const int n = SHAPES[shape].hidden;
        const int64_t extreme = (int64_t)2 * n * NNUE_QA * NNUE_QA * NNUE_OUT_WEIGHT_MAX;
        for (int level = NNUE_SCALAR; level < NNUE_SIMD_LEVELS; level++) {
            const NnueKernels *k = nnue_kernels((NnueSimd)level);
            if (!k)
                continue;
            levels++;
            for (int sign = -1; sign <= 1; sign += 2) {
                for (int i = 0; i < 2 * n; i++)
                    w[i] = (int16_t)(sign * NNUE_OUT_WEIGHT_MAX);
                int64_t got = k->output(acc, acc, w, n);
                if (got != sign * extreme)
                    fail_msg("%s at %d: output %lld, expected %lld", k->name, n, (long long)got,
                             (long long)(sign * extreme));
            }
        }
    }
    assert_true(levels >= N_SHAPES); /* scalar at least */
}

/* The second stage's worst case on every kernel set: its inputs from accumulators at QA are NNUE_QX each, and
 * the affine sum of the widest input (2 * NNUE_HIDDEN_MAX) at weights +-NNUE_L_WEIGHT_MAX with a bias of
 * +-NNUE_L_BIAS_MAX is exact (the closed form, about 1.6e9: inside int32 as nnue_arch.h says). */
static void test_stage2_worst_case(void **state)
{
    (void)state;
    enum { N_IN = 2 * NNUE_HIDDEN_MAX, ROWS = 5 };
    static int16_t acc[NNUE_HIDDEN_MAX], x[N_IN], w[ROWS * N_IN];
    for (int i = 0; i < NNUE_HIDDEN_MAX; i++)
        acc[i] = NNUE_QA;
    int levels = 0;
    for (int level = NNUE_SCALAR; level < NNUE_SIMD_LEVELS; level++) {
        const NnueKernels *k = nnue_kernels((NnueSimd)level);
        if (!k)
            continue;
        levels++;
        k->stage2_input(x, acc, acc, NNUE_HIDDEN_MAX);
        for (int i = 0; i < N_IN; i++)
            assert_int_equal(x[i], NNUE_QX);
        for (int sign = -1; sign <= 1; sign += 2) {
            int32_t bias[ROWS], out[ROWS];
            for (int i = 0; i < ROWS * N_IN; i++)
                w[i] = (int16_t)(sign * NNUE_L_WEIGHT_MAX);
            for (int o = 0; o < ROWS; o++)
                bias[o] = sign < 0 ? -NNUE_L_BIAS_MAX : NNUE_L_BIAS_MAX;
            k->affine(out, x, w, bias, N_IN, ROWS);
            const int64_t want = sign * ((int64_t)NNUE_L_BIAS_MAX + (int64_t)N_IN * NNUE_QX * NNUE_L_WEIGHT_MAX);
            for (int o = 0; o < ROWS; o++)
                if (out[o] != want)
                    fail_msg("%s: affine row %d gave %d, expected %lld", k->name, o, out[o], (long long)want);
        }
    }
    assert_true(levels >= 1);
}

/* A position and its colour-flipped twin score the same for the side to move, in every shape. */
static void test_colour_mirror(void **state)
{
    (void)state;
    Position *pos = malloc(sizeof *pos), *twin = malloc(sizeof *twin);
    assert_non_null(pos);
    assert_non_null(twin);
    for (int shape = 0; shape < N_SHAPES; shape++) {
        Network *net = random_net(3 + (uint64_t)shape, &SHAPES[shape]);
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
        nnue_net_free(net);
    }
    free(twin);
    free(pos);
}

/* Rewrites the checksum of a net image of size bytes after a test edited it. */
static void fix_checksum(uint8_t *img, size_t size)
{
    uint32_t h = nnue_file_checksum(img, size);
    for (int i = 0; i < 4; i++)
        img[NNUE_OFF_CHECKSUM + i] = (uint8_t)(h >> (8 * i));
}

/* Writes a little-endian 32-bit value. */
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Expects parsing img to fail with a message containing want. */
static void expect_rejected(const uint8_t *img, size_t size, const char *want)
{
    XqError err = { "" };
    Network *net = nnue_parse(img, size, &err);
    if (net)
        fail_msg("a net was made of a bad image (expected '%s')", want);
    if (!strstr(err.msg, want))
        fail_msg("error '%s' does not mention '%s'", err.msg, want);
}

/* Expects img to parse to a net equal to net (shape and arrays). */
static void expect_same_net(const uint8_t *img, size_t size, const Network *net)
{
    XqError err = { "" };
    Network *back = nnue_parse(img, size, &err);
    if (!back)
        fail_msg("parse failed: %s", err.msg);
    const size_t h = (size_t)net->shape.hidden;
    assert_memory_equal(&back->shape, &net->shape, sizeof net->shape);
    assert_memory_equal(back->ft_weight, net->ft_weight, (size_t)net->shape.inputs * h * 2);
    assert_memory_equal(back->ft_bias, net->ft_bias, h * 2);
    assert_memory_equal(back->out_weight, net->out_weight, NNUE_OUTPUT_BUCKETS * 2 * h * 2);
    assert_memory_equal(back->out_bias, net->out_bias, NNUE_OUTPUT_BUCKETS * 4);
    const size_t nb = NNUE_OUTPUT_BUCKETS, l2 = (size_t)net->shape.l2, l3 = (size_t)net->shape.l3;
    if (l2) {
        assert_memory_equal(back->l2_weight, net->l2_weight, nb * l2 * 2 * h * 2);
        assert_memory_equal(back->l2_bias, net->l2_bias, nb * l2 * 4);
        assert_memory_equal(back->l3_weight, net->l3_weight, nb * l3 * l2 * 2);
        assert_memory_equal(back->l3_bias, net->l3_bias, nb * l3 * 4);
        assert_memory_equal(back->l4_weight, net->l4_weight, nb * l3 * 2);
        assert_memory_equal(back->l4_bias, net->l4_bias, nb * 4);
    } else {
        assert_null(back->l2_weight);
    }
    nnue_net_free(back);
}

/* Serialise and parse back every shape; versions 1 and 2 of the old shape still load. */
static void test_net_files_round_trip(void **state)
{
    (void)state;
    for (int shape = 0; shape < N_SHAPES; shape++) {
        Network *net = random_net(4 + (uint64_t)shape, &SHAPES[shape]);
        const size_t size = nnue_net_file_size(net);
        assert_int_equal(size, NNUE_HEADER_SIZE + nnue_payload_size(&SHAPES[shape]));
        uint8_t *img = malloc(size);
        assert_non_null(img);
        nnue_serialise(net, img);
        assert_int_equal(img[NNUE_OFF_VERSION], NNUE_VERSION);
        expect_same_net(img, size, net);
        if (shape == 0) {
            /* version 2 (the files of the nets shipped before version 3: the same shape, an 80-byte
             * description whose last 16 bytes are version 3's second-stage fields, here zero padding) */
            img[NNUE_OFF_VERSION] = NNUE_VERSION_WHOLE_SUM;
            memcpy(img + NNUE_DESC_OFFSET, "v2 description of 80 bytes at most; this one is seventy-three characters..",
                   74);
            fix_checksum(img, size);
            expect_same_net(img, size, net);
            XqError err;
            Network *v2 = nnue_parse(img, size, &err);
            assert_non_null(v2);
            assert_int_equal(strlen(v2->desc), 74);
            nnue_net_free(v2);
            /* version 1: the checksum of the payload only; its payload is still checked */
            img[NNUE_OFF_VERSION] = NNUE_VERSION_PAYLOAD_SUM;
            put32(img + NNUE_OFF_CHECKSUM, nnue_fnv1a(img + NNUE_HEADER_SIZE, size - NNUE_HEADER_SIZE));
            expect_same_net(img, size, net);
            img[NNUE_HEADER_SIZE + 1000] ^= 1;
            expect_rejected(img, size, "checksum");
        }
        free(img);
        nnue_net_free(net);
    }
}

/* Every kind of corruption of a version 3 file rejected with its own message. */
static void test_net_files_rejected(void **state)
{
    (void)state;
    Network *net = random_net(8, &SHAPES[1]);
    const size_t size = nnue_net_file_size(net);
    uint8_t *img = malloc(size + 1), *bad = malloc(size + 1);
    assert_non_null(img);
    assert_non_null(bad);
    nnue_serialise(net, img);
    expect_rejected(img, size - 1, "truncated");
    expect_rejected(img, 100, "header");
    memcpy(bad, img, size);
    bad[size] = 0;
    expect_rejected(bad, size + 1, "trailing");
    bad[0] = 'X';
    expect_rejected(bad, size, "magic");
#define EDIT(offset, value, want)                                                                                     \
    do {                                                                                                             \
        memcpy(bad, img, size);                                                                                      \
        put32(bad + (offset), (value));                                                                              \
        fix_checksum(bad, size);                                                                                     \
        expect_rejected(bad, size, (want));                                                                          \
    } while (0)
    EDIT(NNUE_OFF_VERSION, NNUE_VERSION + 1, "version");
    EDIT(NNUE_OFF_FEATURE_SET, 3, "feature set");
    EDIT(NNUE_OFF_FEATURE_SET, NNUE_FEATURE_SET_PSQ, "input count"); /* set 1 with set 2's inputs */
    EDIT(NNUE_OFF_INPUTS, NNUE_FEATURES, "input count");
    EDIT(NNUE_OFF_HIDDEN, 0, "hidden size");
    EDIT(NNUE_OFF_HIDDEN, 520, "hidden size");  /* not a multiple of 32 */
    EDIT(NNUE_OFF_HIDDEN, 2048, "hidden size"); /* wider than the engine runs */
    EDIT(NNUE_OFF_HIDDEN, 256, "payload size"); /* a width the engine runs, but not this payload's */
    EDIT(NNUE_OFF_BUCKETS, 4, "output buckets");
    EDIT(NNUE_OFF_QA, 127, "QA");
    EDIT(NNUE_OFF_L2, 16, "second stage"); /* l2 without l3 */
    EDIT(NNUE_OFF_L3, 32, "second stage");
    EDIT(NNUE_OFF_RESERVED, 1, "reserved");
    /* the checksum covers the header too: a description edited after export fails */
    memcpy(bad, img, size);
    bad[NNUE_DESC_OFFSET] ^= '\n';
    expect_rejected(bad, size, "checksum");
    memcpy(bad, img, size);
    bad[NNUE_HEADER_SIZE + 1000] ^= 1;
    expect_rejected(bad, size, "checksum");
    memcpy(bad, img, size);
    size_t out_at = NNUE_HEADER_SIZE + 2 * ((size_t)net->shape.inputs * 512 + 512) + 2 * 5;
    bad[out_at] = 200; /* output weight 200: beyond the kernels' range */
    bad[out_at + 1] = 0;
    fix_checksum(bad, size);
    expect_rejected(bad, size, "output weight");
    /* a version 2 file must have version 2's one shape */
    Network *v1 = random_net(9, &SHAPES[0]);
    const size_t v1_size = nnue_net_file_size(v1);
    uint8_t *old = malloc(v1_size);
    assert_non_null(old);
    nnue_serialise(v1, old);
    old[NNUE_OFF_VERSION] = NNUE_VERSION_WHOLE_SUM;
    put32(old + NNUE_OFF_HIDDEN, 512);
    fix_checksum(old, v1_size);
    expect_rejected(old, v1_size, "hidden size");
    /* a net with a second stage: its widths bounded and matching the payload, its values in their ranges */
    Network *s2 = random_net(10, &SHAPES[STAGE2_SHAPE]);
    const size_t s2_size = nnue_net_file_size(s2);
    uint8_t *two = malloc(s2_size), *bad2 = malloc(s2_size);
    assert_non_null(two);
    assert_non_null(bad2);
    nnue_serialise(s2, two);
    expect_same_net(two, s2_size, s2);
    const struct {
        int offset;
        uint32_t value;
        const char *want;
    } S2_EDITS[] = { { NNUE_OFF_L2, NNUE_L2_MAX + 1, "second stage" }, { NNUE_OFF_L3, NNUE_L3_MAX + 1, "second stage" },
                     { NNUE_OFF_L3, 0, "second stage" },                { NNUE_OFF_L2, 8, "payload size" } };
    for (size_t e = 0; e < sizeof S2_EDITS / sizeof *S2_EDITS; e++) {
        memcpy(bad2, two, s2_size);
        put32(bad2 + S2_EDITS[e].offset, S2_EDITS[e].value);
        fix_checksum(bad2, s2_size);
        expect_rejected(bad2, s2_size, S2_EDITS[e].want);
    }
    /* the 8th second-stage weight (it follows the arrays of SHAPES[0], the same net without a second stage): 2048 */
    const size_t l2_at = NNUE_HEADER_SIZE + nnue_payload_size(&SHAPES[0]) + 2 * 7;
    memcpy(bad2, two, s2_size);
    bad2[l2_at] = 0;
    bad2[l2_at + 1] = 8;
    fix_checksum(bad2, s2_size);
    expect_rejected(bad2, s2_size, "second-stage weight");
    memcpy(bad2, two, s2_size);
    put32(bad2 + s2_size - 4, (uint32_t)NNUE_L_BIAS_MAX + 1); /* the last bucket's output bias */
    fix_checksum(bad2, s2_size);
    expect_rejected(bad2, s2_size, "bias");
    free(bad2);
    free(two);
    nnue_net_free(s2);
    XqError err;
    assert_null(nnue_load_file("/nonexistent/dir/x.nnue", NULL, &err));
    assert_non_null(strstr(err.msg, "cannot open"));
    free(old);
    nnue_net_free(v1);
    free(bad);
    free(img);
    nnue_net_free(net);
}

/* Runs the network tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_incremental_equals_refresh),
        cmocka_unit_test(test_king_move_uses_the_cache),
        cmocka_unit_test(test_simd_equals_scalar),
        cmocka_unit_test(test_output_worst_case),
        cmocka_unit_test(test_stage2_worst_case),
        cmocka_unit_test(test_colour_mirror),
        cmocka_unit_test(test_net_files_round_trip),
        cmocka_unit_test(test_net_files_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
