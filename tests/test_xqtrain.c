/*
 * test_xqtrain.c - the network trainer (tools/xqtrain): the gradient against
 * central finite differences (feature sets 1 and 2, with their virtual
 * rows, and a second stage), the integer reference evaluation against hand-computed values,
 * loading and filtering records, the fit of K, checkpoints (every version,
 * both feature sets, a second stage), and a tiny training run on positions from random play
 * (loss goes down, two runs give byte-identical nets, the export
 * round-trips).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/nnue/nnue.h"
#include "testutil.h"
#include "xqtrain/train_ckpt.h"
#include "xqtrain/train_export.h"
#include "xqtrain/train_loop.h"
#include "train_testutil.h"

enum {
    RUN_RECORDS = 2000,     /* records of the tiny training run */
    RUN_EPOCHS = 6,
    RUN_BATCH = 64,
    FD_HIDDEN = 4,
    FD_POSITIONS = 6,
    FOLD_POSITIONS = 400,   /* positions of the folding test */
    K_FIT_RECORDS = 40000,
    CKPT_V2_HEADER = 32,    /* the header of checkpoint versions 1 and 2 */
    CKPT_HIDDEN = 8,
    CKPT_V3_HEADER = 40,    /* the header of checkpoint version 3 (no second stage) */
    CKPT_VERSION_AT = 7,
};
static const double FD_EPS = 1e-4, FD_REL_TOL = 2e-2, FD_ABS_TOL = 2e-5;
/* Positions of the gradient check with kings in other king buckets than the start squares' (feature set 2). */
static const char *const FD_KING_FENS[] = {
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "3k5/4a4/4b1n2/p1p1p3p/6p2/2P6/P3P1P1P/2N1B1N2/4A4/2BAK2R1 b - - 0 1",
};
static const double TRUE_K = 200.0, K_FIT_TOL = 12.0;
static const double FOLD_OUT_RANGE = 0.13, FOLD_VIRT_RANGE = 0.2; /* |out weight| of trained nets; test's |virtual| */
static const double FOLD_MIN_EFFECT_CP = 20.0; /* mean eval change the test's virtual rows must make */
static const double FOLD_EXPORT_MEAN_CP = 2.0; /* mean |float - int| of an export of a net on its grid */
/* |float - int| of a net trained on its grid: the integer arithmetic's truncation, the output bias's rounding */
static const double QAT_EXPORT_MAX_CP = EXPORT_DEQUANT_TOLERANCE_CP + 0.05;

/* Writes records given by plies, flags and scores (the start position's board). */
static void write_records(const char *path, int n, const uint16_t *ply, const uint8_t *flags, const int16_t *score)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_true(packed_write_header(f));
    Position pos;
    test_setup(&pos, START_FEN);
    for (int i = 0; i < n; i++) {
        PackedPos rec;
        memset(&rec, 0, sizeof rec);
        packed_from_position(&rec, &pos);
        rec.ply = ply[i];
        rec.flags = flags ? flags[i] : 0;
        rec.score = score ? score[i] : 0;
        uint8_t buf[NNUE_REC_SIZE];
        packed_encode(&rec, buf);
        assert_int_equal(fwrite(buf, 1, sizeof buf, f), sizeof buf);
    }
    assert_int_equal(fclose(f), 0);
}

/* Mean loss of a net over positions (after copying out_w to out_q, which the forward pass reads). */
static double mean_loss(Net *net, const TrainSet *s, const LossSpec *loss, Scratch *sc)
{
    net_sync(net);
    double sum = 0;
    for (size_t i = 0; i < s->count; i++)
        sum += net_loss(net, &s->pos[i], loss, sc);
    return sum / (double)s->count;
}

/* Compares the analytic gradient of one parameter with a central finite difference. */
static void check_param(Net *net, float *param, float analytic, const TrainSet *s, const LossSpec *loss, Scratch *sc)
{
    float saved = *param;
    *param = saved + (float)FD_EPS;
    double up = mean_loss(net, s, loss, sc);
    *param = saved - (float)FD_EPS;
    double down = mean_loss(net, s, loss, sc);
    *param = saved;
    double numeric = (up - down) / (2 * FD_EPS);
    double err = fabs(numeric - analytic);
    if (err > FD_ABS_TOL + FD_REL_TOL * fabs(numeric))
        fail_msg("gradient %g, finite difference %g (param %td)", (double)analytic, numeric, param - net->params);
}

/* The gradient of every parameter kind of a net of a feature set (with a second stage of l2 x l3, or none: 0 x 0),
 * virtual rows included, matches central finite differences (powers 2 and 2.5). */
static void check_gradient(int feature_set, int l2, int l3)
{
    char path[PATH_MAX_TEST];
    write_random_games(tmp_path("fd.bin", path), FD_POSITIONS * 10, 7);
    TrainSet all = { 0 }, none = { 0 }, s = { 0 };
    TrainCounts tc, vc;
    bool unknown;
    TrainFilter keep = { true, true, true, 0, INT16_MAX };
    load(path, &keep, 0, &all, &none, &tc, &vc, &unknown);
    for (int i = 0; i < FD_POSITIONS; i++) /* spread over the games: varied boards and both sides to move */
        assert_true(train_set_push(&s, &all.pos[i * 9 + (i % 2)]));
    for (size_t i = 0; i < sizeof FD_KING_FENS / sizeof *FD_KING_FENS; i++) { /* kings off their start squares */
        TrainPos p;
        XqError err;
        assert_true(train_pos_from_fen(FD_KING_FENS[i], &p, &err));
        assert_true(train_set_push(&s, &p));
    }
    const double powers[] = { 2.0, 2.5 };
    for (int pw = 0; pw < 2; pw++) {
        Net net;
        Grad g;
        Scratch sc;
        NnueShape shape = train_shape(feature_set, FD_HIDDEN);
        shape.l2 = l2;
        shape.l3 = l3;
        assert_true(net_alloc(&net, &shape) && grad_alloc(&g, &net) && scratch_alloc(&sc, FD_HIDDEN));
        net_init_random(&net, 11);
        TrainRng sr = { 17 };
        const size_t n_s2w = nnue_stage2_weights(&shape), n_s2b = nnue_stage2_biases(&shape);
        for (size_t i = 0; i < n_s2w; i++) /* a second stage whose units are active and whose output counts */
            net.s2_w[i] = (float)(1.6 * (rng_uniform(&sr) - 0.5));
        for (size_t i = 0; i < n_s2b; i++)
            net.s2_b[i] = (float)(0.2 + 0.4 * rng_uniform(&sr));
        for (size_t i = 0; i < NNUE_OUTPUT_BUCKETS * 2 * FD_HIDDEN; i++)
            net.out_w[i] *= 20; /* outputs large enough for a clear gradient */
        for (int j = 0; j < FD_HIDDEN; j++)
            net.ft_b[j] = 0.3f;
        for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
            net.out_b[b] = 0.1f;
        TrainRng vr = { 13 };
        for (size_t i = 0; i < (size_t)net.virt_rows * FD_HIDDEN; i++) /* virtual rows that change the folded net */
            net.virt[i] = (float)(0.1 * (rng_uniform(&vr) - 0.5));
        net.factorised = true;
        net_sync(&net);
        LossSpec loss = { 150, 0.3, powers[pw] };
        for (size_t i = 0; i < s.count; i++)
            net_loss_grad(&net, &s.pos[i], &loss, 1.0f / (float)s.count, &g, &sc);
        int real_rows = g.row_count, kinds[3] = { 0 }; /* touched rows: real, psq, group */
        grad_factorise(&g, &net);
        assert_true(real_rows > 0);
        for (int r = 0; r < g.row_count; r++) {
            int row = g.row_list[r], virt[TRAIN_VIRT_MAX];
            kinds[row < net.shape.inputs ? 0 : row < net.shape.inputs + net.psq_rows ? 1 : 2]++;
            if (row < net.shape.inputs) /* a real row's virtual rows are all touched */
                for (int k = train_virtual_rows(&net, row, virt) - 1; k >= 0; k--)
                    assert_true(g.touched[virt[k]]);
        }
        assert_int_equal(kinds[0], real_rows);
        /* each group's material row, and some file and rank rows, are touched; in feature set 2 the psq rows of
           the pieces, several king buckets' real rows sharing each */
        assert_true(kinds[2] > TRAIN_GROUPS);
        if (feature_set == NNUE_FEATURE_SET_KING)
            assert_true(kinds[1] > NNUE_MAX_ACTIVE && kinds[1] < real_rows);
        else
            assert_int_equal(kinds[1], 0);
        for (int r = 0; r < g.row_count; r++) /* every active ft row, real and virtual, every unit */
            for (int j = 0; j < FD_HIDDEN; j++) {
                size_t at = (size_t)g.row_list[r] * FD_HIDDEN + (size_t)j;
                check_param(&net, &net.ft_w[at], g.ft_w[at], &s, &loss, &sc);
            }
        for (int j = 0; j < FD_HIDDEN; j++)
            check_param(&net, &net.ft_b[j], g.ft_b[j], &s, &loss, &sc);
        for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
            for (int j = 0; j < 2 * FD_HIDDEN; j++)
                check_param(&net, &net.out_w[b * 2 * FD_HIDDEN + j], g.out_w[b * 2 * FD_HIDDEN + j], &s, &loss, &sc);
            check_param(&net, &net.out_b[b], g.out_b[b], &s, &loss, &sc);
        }
        for (size_t i = 0; i < n_s2w; i++)
            check_param(&net, &net.s2_w[i], g.s2_w[i], &s, &loss, &sc);
        for (size_t i = 0; i < n_s2b; i++)
            check_param(&net, &net.s2_b[i], g.s2_b[i], &s, &loss, &sc);
        int s2_nonzero = 0, s2_used = 0; /* the check saw real gradients (a third at least: some units sit outside
                                          * (0, 1)) in the buckets the positions use */
        for (int b = 0; l2 && b < NNUE_OUTPUT_BUCKETS; b++) {
            if (g.out_b[b] == 0.0f)
                continue;
            S2Layers G = train_s2_layers(&shape, g.s2_w, g.s2_b, b);
            for (int i = 0; i < l2 * 2 * FD_HIDDEN; i++, s2_used++)
                s2_nonzero += G.w2[i] != 0.0f;
            for (int i = 0; i < l3; i++, s2_used++)
                s2_nonzero += G.w4[i] != 0.0f;
        }
        if (l2 && s2_nonzero * 3 <= s2_used)
            fail_msg("only %d of %d second-stage weights of the used buckets have a gradient", s2_nonzero, s2_used);
        /* a row no position uses has no gradient and is not listed */
        for (int f = 0; f < net.rows; f++)
            if (!g.touched[f])
                for (int j = 0; j < FD_HIDDEN; j++)
                    assert_true(g.ft_w[f * FD_HIDDEN + j] == 0.0f);
        net_free(&net);
        grad_free(&g);
        scratch_free(&sc);
    }
    train_set_free(&all);
    train_set_free(&s);
}

/* The gradient of a feature-set-1 net (1260 inputs; material, file and rank rows). */
static void test_gradient(void **state)
{
    (void)state;
    check_gradient(NNUE_FEATURE_SET_PSQ, 0, 0);
}

/* The gradient of a net with a second stage (its weights and biases, and the first layer through it). */
static void test_gradient_stage2(void **state)
{
    (void)state;
    check_gradient(NNUE_FEATURE_SET_PSQ, 3, 2);
}

/* The gradient of a feature-set-2 net (king buckets; psq rows shared by the buckets, then material, file, rank). */
static void test_gradient_king(void **state)
{
    (void)state;
    check_gradient(NNUE_FEATURE_SET_KING, 0, 0);
}

/* A factorised float net evaluates exactly like its folded copy, and its export like both (within quantisation). */
static void test_factorised_export(void **state)
{
    (void)state;
    char path[PATH_MAX_TEST];
    write_random_games(tmp_path("fold.bin", path), FOLD_POSITIONS, 21);
    TrainSet s = { 0 };
    load_all_records(path, &s);
    Net net, folded, plain;
    Scratch sc;
    const size_t H = NNUE_HIDDEN_V1;
    assert_true(net_alloc(&net, &NNUE_SHAPE_V1) && net_alloc(&folded, &NNUE_SHAPE_V1));
    assert_true(net_alloc(&plain, &NNUE_SHAPE_V1) && scratch_alloc(&sc, (int)H));
    const size_t n_virt = (size_t)net.virt_rows * H;
    net_init_random(&net, 17);
    TrainRng r = { 19 };
    for (size_t i = 0; i < NNUE_OUTPUT_BUCKETS * 2 * H; i++) /* output weights of a trained size */
        net.out_w[i] = (float)(FOLD_OUT_RANGE * (2 * rng_uniform(&r) - 1));
    for (size_t i = 0; i < n_virt; i++)
        net.virt[i] = (float)(FOLD_VIRT_RANGE * (2 * rng_uniform(&r) - 1));
    net.factorised = true;
    net.qat = true; /* the net on its grid: the export then differs by the integer arithmetic only */
    net_sync(&net);
    memcpy(folded.params, net.params, net.size * sizeof *net.params);
    memcpy(plain.params, net.params, net.size * sizeof *net.params);
    folded.qat = plain.qat = true;
    net_unfactorise(&folded, NULL, NULL);
    memset(plain.virt, 0, n_virt * sizeof *plain.virt);
    net_sync(&folded);
    net_sync(&plain);
    for (size_t i = 0; i < n_virt; i++)
        assert_true(folded.virt[i] == 0.0f);
    double plain_diff = 0;
    for (size_t i = 0; i < s.count; i++) {
        double e = net_eval_cp(&net, &s.pos[i], &sc);
        assert_true(net_eval_cp(&folded, &s.pos[i], &sc) == e);
        plain_diff += fabs(net_eval_cp(&plain, &s.pos[i], &sc) - e);
    }
    if (!(plain_diff / (double)s.count > FOLD_MIN_EFFECT_CP)) /* the virtual rows matter */
        fail_msg("the virtual rows change the eval by %.2f cp on average", plain_diff / (double)s.count);
    /* the export (the folded rows, quantised) against the factorised float net: the export check passes */
    XqError err;
    ExportCheck chk;
    LossSpec loss = { 200, 0.5, 2.0 };
    if (!export_net(&net, "fold", tmp_path("fold.nnue", path), &s, &loss, EXPORT_MEAN_TOLERANCE_CP, &chk, &err))
        fail_msg("export: %s", err.msg);
    assert_true(chk.passed && chk.positions == s.count);
    if (!(chk.mean_diff < FOLD_EXPORT_MEAN_CP))
        fail_msg("mean |factorised float - int| %.2f cp", chk.mean_diff);
    /* -init from that .nnue: the folded weights in the real rows, zero virtual rows */
    Net back;
    Adam adam;
    Network *q = qnet_read_file(path, &err);
    assert_non_null(q);
    assert_true(init_from_file(path, &back, &adam, &err));
    for (size_t i = 0; i < n_virt; i++)
        assert_true(back.virt[i] == 0.0f);
    for (size_t i = 0; i < NNUE_FEATURES * H; i += H + 1)
        assert_true(fabs(back.ft_w[i] - folded.ft_w[i]) <= 0.5 / NNUE_QA + 1e-6);
    for (size_t i = 0; i < s.count; i++)
        assert_true(fabs(net_eval_cp(&back, &s.pos[i], &sc) - qnet_eval(q, &s.pos[i])) <= EXPORT_DEQUANT_TOLERANCE_CP);
    nnue_net_free(q);
    net_free(&back);
    adam_free(&adam);
    net_free(&net);
    net_free(&folded);
    net_free(&plain);
    scratch_free(&sc);
    train_set_free(&s);
}

/* Sets a quantised net's weights to 0 but units 0..3 of ft_b (v) and their output weights (w) in the side to
 * move's half of every bucket, and every output bias to bias. */
static void tiny_qnet(Network *q, const int v[4], int16_t w, int32_t bias)
{
    size_t h = (size_t)q->shape.hidden;
    memset(q->ft_weight, 0, (size_t)q->shape.inputs * h * sizeof *q->ft_weight);
    memset(q->ft_bias, 0, h * sizeof *q->ft_bias);
    memset(q->out_weight, 0, NNUE_OUTPUT_BUCKETS * 2 * h * sizeof *q->out_weight);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        for (int j = 0; j < 4; j++)
            nnue_out_row(q, b)[j] = w;
        q->out_bias[b] = bias;
    }
    for (int j = 0; j < 4; j++)
        q->ft_bias[j] = (int16_t)v[j];
}

/* The trainer's view of a FEN. */
static TrainPos fen_pos(const char *fen)
{
    TrainPos p;
    XqError err;
    if (!train_pos_from_fen(fen, &p, &err))
        fail_msg("%s: %s", fen, err.msg);
    return p;
}

/* The integer reference follows the documented order of operations, truncating toward zero. */
static void test_integer_reference(void **state)
{
    (void)state;
    Network *q = nnue_net_new(&NNUE_SHAPE_V1);
    assert_non_null(q);
    TrainPos p = fen_pos(START_FEN);
    /* sum = -(100^2 + 21^2 + 3^2 + 2^2) = -10454; sum / 255 = -40 (not -41); -40 * 400 / 16320 = -0.98 -> 0 */
    const int v[4] = { 100, 21, 3, 2 };
    tiny_qnet(q, v, -1, 0);
    assert_int_equal(qnet_eval(q, &p), 0);
    /* with bias -1: (-40 - 1) * 400 / 16320 = -1.0049 -> -1 (not -2) */
    tiny_qnet(q, v, -1, -1);
    assert_int_equal(qnet_eval(q, &p), -1);
    /* sum = +10454 and bias 1: (40 + 1) * 400 / 16320 = 1.0049 -> 1 */
    tiny_qnet(q, v, 1, 1);
    assert_int_equal(qnet_eval(q, &p), 1);
    /* bias 5.0 (81600): (40 + 81600) * 400 / 16320 = 2000.98 -> 2000 */
    tiny_qnet(q, v, 1, 5 * NNUE_QA * NNUE_QB);
    assert_int_equal(qnet_eval(q, &p), 2000);
    /* red lacks its rook on i0, so black's rook on i9 is a feature of black's view only: it adds 200 to unit 0
       of black's accumulator (300, clamped to 255) and nothing to red's (100) */
    p = fen_pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1");
    const int rook = nnue_feature(BLACK, false, BLACK, ROOK, nnue_sq(8, 9));
    tiny_qnet(q, v, 1, 0);
    q->ft_weight[(size_t)rook * NNUE_HIDDEN_V1] = 200;
    /* red to move: red's accumulator meets the weights (the side to move's half): as above, 0 */
    assert_int_equal(qnet_eval(q, &p), 0);
    /* black to move: (255^2 + 21^2 + 3^2 + 2^2) / 255 = 256; 256 * 400 / 16320 = 6.27 -> 6 */
    p.stm = BLACK;
    assert_int_equal(qnet_eval(q, &p), 6);
    /* the same weights on the other half of the output: the other side's accumulator counts */
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        for (int j = 0; j < 4; j++) {
            nnue_out_row(q, b)[NNUE_HIDDEN_V1 + j] = 1;
            nnue_out_row(q, b)[j] = 0;
        }
    assert_int_equal(qnet_eval(q, &p), 0);
    p.stm = RED;
    assert_int_equal(qnet_eval(q, &p), 6);
    nnue_net_free(q);
    /* feature set 2: the rook's row is that of black's king bucket. Black's king on e8 is on its second rank
       (bucket 2 * 1 + 1 = 3); red's on e0 (bucket 1): the row in bucket 3 counts, the one in bucket 1 does not */
    const NnueShape king = train_shape(NNUE_FEATURE_SET_KING, NNUE_HIDDEN_STEP);
    q = nnue_net_new(&king);
    assert_non_null(q);
    p = fen_pos("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 b - - 0 1");
    assert_int_equal(nnue_king_bucket(BLACK, nnue_sq(4, 8)), 3);
    assert_int_equal(nnue_king_bucket(RED, nnue_sq(4, 0)), 1);
    tiny_qnet(q, v, 1, 0);
    q->ft_weight[(size_t)(1 * NNUE_FEATURES + rook) * NNUE_HIDDEN_STEP] = 200;
    assert_int_equal(qnet_eval(q, &p), 0);
    q->ft_weight[(size_t)(3 * NNUE_FEATURES + rook) * NNUE_HIDDEN_STEP] = 200;
    assert_int_equal(qnet_eval(q, &p), 6);
    nnue_net_free(q);
}

/* Filters count their records, plies of 0xFFFF and files without plies are not ply-filtered, and the
 * validation block starts at a game start. */
static void test_load_filters(void **state)
{
    (void)state;
    enum { GAMES = 3, LEN = 10, N = GAMES * LEN };
    uint16_t ply[N];
    uint8_t flags[N] = { 0 };
    int16_t score[N] = { 0 };
    for (int i = 0; i < N; i++)
        ply[i] = (uint16_t)(i % LEN * 4); /* 0, 4, ... 36: ply < 16 for 4 of each game */
    flags[5] = NNUE_REC_IN_CHECK;
    flags[6] = NNUE_REC_CAPTURE | NNUE_REC_IN_CHECK; /* counted once, as in check */
    flags[7] = NNUE_REC_MATE;
    score[8] = 3001;
    score[9] = -3000; /* kept: the limit is |score| > 3000 */
    ply[2] = TRAIN_PLY_UNKNOWN;
    char path[PATH_MAX_TEST];
    write_records(tmp_path("filters.bin", path), N, ply, flags, score);
    TrainFilter def = train_filter_default();
    TrainSet train = { 0 }, valid = { 0 };
    TrainCounts tc, vc;
    bool unknown;
    /* nominal cut 30 - 9 = 21: no game starts at or after it, so the last game (20..29) is held out */
    load(path, &def, 0.3, &train, &valid, &tc, &vc, &unknown);
    assert_false(unknown);
    assert_int_equal(tc.n[REASON_CHECK], 2);
    assert_int_equal(tc.n[REASON_MATE], 1);
    assert_int_equal(tc.n[REASON_SCORE], 1);
    assert_int_equal(tc.n[REASON_PLY], 2 * 4 - 1); /* record 2 has an unknown ply */
    assert_int_equal(tc.n[REASON_KEPT], 20 - 2 - 1 - 1 - 7);
    assert_int_equal(vc.n[REASON_KEPT] + vc.n[REASON_PLY], LEN);
    assert_int_equal(vc.n[REASON_PLY], 4);
    assert_int_equal(train.count, tc.n[REASON_KEPT]);
    train_set_free(&train);
    train_set_free(&valid);
    /* every ply 0: the plies are unknown, nothing is filtered by ply, and the cut is the nominal one */
    memset(ply, 0, sizeof ply);
    write_records(path, N, ply, NULL, NULL);
    load(path, &def, 0.3, &train, &valid, &tc, &vc, &unknown);
    assert_true(unknown);
    assert_int_equal(train.count, 21);
    assert_int_equal(valid.count, 9);
    train_set_free(&train);
    train_set_free(&valid);
}

/* K is found again from results drawn with win probability sigmoid(score / 200). */
static void test_fit_k(void **state)
{
    (void)state;
    TrainSet s = { 0 };
    TrainRng rng = { 3 };
    for (int i = 0; i < K_FIT_RECORDS; i++) {
        TrainPos p;
        memset(&p, 0, sizeof p);
        p.score = (int16_t)((int)(rng_next(&rng) % 1601) - 800);
        p.result = (int8_t)(rng_uniform(&rng) < train_sigmoid(p.score / TRUE_K) ? 1 : -1);
        assert_true(train_set_push(&s, &p));
    }
    double k = train_fit_k(&s);
    if (fabs(k - TRUE_K) > K_FIT_TOL)
        fail_msg("fitted K %.1f, want %.0f +- %.0f", k, TRUE_K, K_FIT_TOL);
    train_set_free(&s);
}

/* The learning-rate schedules. */
static void test_schedule(void **state)
{
    (void)state;
    Schedule step = { 0.001, 2, 0.5, false, 0, 6 };
    assert_true(fabs(schedule_lr(&step, 1, 0) - 0.001) < 1e-12);
    assert_true(fabs(schedule_lr(&step, 2, 0.9) - 0.001) < 1e-12);
    assert_true(fabs(schedule_lr(&step, 3, 0) - 0.0005) < 1e-12);
    assert_true(fabs(schedule_lr(&step, 6, 0) - 0.00025) < 1e-12);
    Schedule cosine = { 0.001, 0, 0, true, 0.1, 4 };
    assert_true(fabs(schedule_lr(&cosine, 1, 0) - 0.001) < 1e-12);
    assert_true(fabs(schedule_lr(&cosine, 3, 0) - 0.00055) < 1e-12); /* half way */
    assert_true(schedule_lr(&cosine, 4, 0.999) < 0.000101);
}

/* Options of the tiny training run, writing into dir. */
static TrainOptions run_options(const char *dir)
{
    TrainOptions o;
    memset(&o, 0, sizeof o);
    o.epochs = RUN_EPOCHS;
    o.batch = RUN_BATCH;
    o.sched = (Schedule){ 0.003, 4, 0.3, false, 0, RUN_EPOCHS };
    o.loss = (LossSpec){ 0, 0.3, 2.0 };
    o.threads = 2;
    o.qat_epochs = 2;
    o.seed = 5;
    o.out_dir = dir;
    o.desc = "test_xqtrain";
    o.export_tolerance = EXPORT_MEAN_TOLERANCE_CP;
    return o;
}

/* Trains a fresh net on the records into dir; returns the per-epoch results and the losses before training. */
static void run_training(const TrainSet *train, const TrainSet *valid, double k, const char *dir, EpochResult *res,
                         double *train_before, double *valid_before)
{
    assert_true(mkdir_for_test(dir));
    Net net;
    Adam adam;
    assert_true(net_alloc(&net, &NNUE_SHAPE_V1) && adam_alloc(&adam, &net));
    net_init_random(&net, 5);
    net.factorised = true; /* the trainer's default */
    TrainOptions o = run_options(dir);
    o.loss.k = k;
    *train_before = train_eval_loss(&net, train, &o.loss, o.threads);
    *valid_before = train_eval_loss(&net, valid, &o.loss, o.threads);
    assert_int_equal(train_run(&net, &adam, train, valid, &o, res), 0);
    net_free(&net);
    adam_free(&adam);
}

/* A tiny training run: the loss goes down, two runs are byte-identical, and the net round-trips. */
static void test_training_run(void **state)
{
    (void)state;
    char data[PATH_MAX_TEST], dir1[PATH_MAX_TEST], dir2[PATH_MAX_TEST], path[PATH_MAX_TEST];
    write_random_games(tmp_path("run.bin", data), RUN_RECORDS, 1);
    TrainFilter filter = train_filter_default();
    filter.min_ply = 0;
    TrainSet train = { 0 }, valid = { 0 };
    TrainCounts tc, vc;
    bool unknown;
    load(data, &filter, 0.1, &train, &valid, &tc, &vc, &unknown);
    assert_true(train.count > RUN_RECORDS / 2 && valid.count > 20);
    double k = train_fit_k(&train);
    EpochResult r1[RUN_EPOCHS], r2[RUN_EPOCHS];
    double train0, valid0;
    run_training(&train, &valid, k, tmp_path("run1", dir1), r1, &train0, &valid0);
    run_training(&train, &valid, k, tmp_path("run2", dir2), r2, &train0, &valid0);
    /* the running training loss falls from epoch to epoch; both losses end below the untrained net's */
    const EpochResult *last = &r1[RUN_EPOCHS - 1];
    for (int e = 1; e < RUN_EPOCHS; e++)
        assert_true(r1[e].train_loss < r1[e - 1].train_loss);
    if (!(last->train_loss < 0.5 * train0 && last->valid_loss < valid0))
        fail_msg("loss did not go down: train %.5f -> %.5f, valid %.5f -> %.5f", train0, last->train_loss, valid0,
                 last->valid_loss);
    const char *files[][2] = { { "run1/final.nnue", "run2/final.nnue" }, { "run1/epoch-6.nnue", "run2/epoch-6.nnue" },
                               { "run1/epoch-6.ckpt", "run2/epoch-6.ckpt" } };
    for (int f = 0; f < 3; f++) {
        size_t n1, n2;
        uint8_t *a = slurp(tmp_path(files[f][0], path), &n1);
        uint8_t *b = slurp(tmp_path(files[f][1], path), &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(a, b, n1);
        free(a);
        free(b);
        assert_true(r1[RUN_EPOCHS - 1].train_loss == r2[RUN_EPOCHS - 1].train_loss);
    }

    /* the written net: header fields, checksum, and its integer eval near the float net's */
    size_t n;
    uint8_t *file = slurp(tmp_path("run1/final.nnue", path), &n);
    const size_t payload = nnue_payload_size(&NNUE_SHAPE_V1);
    assert_int_equal(n, NNUE_HEADER_SIZE + payload);
    assert_memory_equal(file, NNUE_MAGIC, 8);
    NnueHeader h;
    XqError err;
    assert_true(nnue_parse_header(file, n, &h, &err));
    assert_int_equal(h.version, NNUE_VERSION);
    assert_int_equal(h.feature_set, NNUE_FEATURE_SET_PSQ);
    assert_int_equal(h.inputs, NNUE_FEATURES);
    assert_int_equal(h.hidden, NNUE_HIDDEN_V1);
    assert_int_equal(h.buckets, NNUE_OUTPUT_BUCKETS);
    assert_int_equal(h.qa, NNUE_QA);
    assert_int_equal(h.qb, NNUE_QB);
    assert_int_equal(h.scale, NNUE_SCALE);
    assert_int_equal(h.payload_size, payload);
    assert_int_equal(h.checksum, nnue_file_checksum(file, n));
    assert_string_equal(h.desc, "test_xqtrain");
    Network *q = nnue_parse(file, n, &err);
    assert_non_null(q);
    Net net, dq;
    Adam adam;
    Scratch sc;
    assert_true(init_from_file(tmp_path("run1/epoch-6.ckpt", path), &net, &adam, &err));
    net.qat = true; /* the last epochs trained the net on its grid */
    net_sync(&net);
    assert_true(scratch_alloc(&sc, NNUE_HIDDEN_V1));
    double total = 0;
    for (size_t i = 0; i < valid.count; i++) {
        /* on the grid the float net is the integer net, but for the integer arithmetic's truncation */
        double d = fabs(net_eval_cp(&net, &valid.pos[i], &sc) - qnet_eval(q, &valid.pos[i]));
        if (!(d <= QAT_EXPORT_MAX_CP))
            fail_msg("position %zu: |float - int| %.2f cp for a net trained on its grid", i, d);
        total += d;
    }
    assert_true(total / (double)valid.count <= EXPORT_MEAN_TOLERANCE_CP);
    /* -init NET.nnue dequantises: its float eval is within the truncation of the integer eval */
    adam_free(&adam);
    assert_true(init_from_file(tmp_path("run1/final.nnue", path), &dq, &adam, &err));
    for (size_t i = 0; i < valid.count; i++)
        assert_true(fabs(net_eval_cp(&dq, &valid.pos[i], &sc) - qnet_eval(q, &valid.pos[i]))
                    <= EXPORT_DEQUANT_TOLERANCE_CP);
    /* a flipped payload byte fails the checksum */
    file[NNUE_HEADER_SIZE + 1000] ^= 1;
    assert_null(nnue_parse(file, n, &err));
    assert_non_null(strstr(err.msg, "checksum"));
    free(file);
    nnue_net_free(q);
    net_free(&net);
    net_free(&dq);
    adam_free(&adam);
    scratch_free(&sc);
    train_set_free(&train);
    train_set_free(&valid);
}

/* Writes a checkpoint of a feature-set-1 net of width CKPT_HIDDEN as the trainer once did: version 1 (no virtual
 * rows) or 2 (280 of them); no Adam state. */
static void write_ckpt_old(const char *path, const Net *net, int version)
{
    uint8_t head[CKPT_V2_HEADER] = { 'X', 'Q', 'C', 'K', 'P', 'T', 0, (uint8_t)version, CKPT_HIDDEN, 0, 0, 0, 1 };
    head[28] = version == 2 ? TRAIN_GROUP_ROWS % 256 : 0; /* the virtual rows, little-endian */
    head[29] = version == 2 ? TRAIN_GROUP_ROWS / 256 : 0;
    size_t h = CKPT_HIDDEN, real = NNUE_FEATURES * h, virt = TRAIN_GROUP_ROWS * h;
    size_t dense = net->size - (size_t)net->rows * h;
    assert_int_equal(net->shape.hidden, CKPT_HIDDEN);
    assert_int_equal(net->shape.feature_set, NNUE_FEATURE_SET_PSQ);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(head, 1, sizeof head, f), sizeof head); /* hidden 8, epoch 1, no Adam */
    assert_int_equal(fwrite(net->ft_w, sizeof(float), real, f), real); /* little-endian floats, as x86-64 holds them */
    if (version == 2)
        assert_int_equal(fwrite(net->virt, sizeof(float), virt, f), virt);
    assert_int_equal(fwrite(net->ft_b, sizeof(float), dense, f), dense);
    assert_int_equal(fclose(f), 0);
}

/* A checkpoint of either feature set, and of one with a second stage, restores the shape, the weights (virtual rows
 * too) and the Adam state exactly. */
static void test_checkpoint(void **state)
{
    (void)state;
    XqError err;
    char path[PATH_MAX_TEST];
    for (int set = NNUE_FEATURE_SET_PSQ; set <= NNUE_FEATURE_SET_KING + 1; set++) {
        Net net, back;
        Adam adam, back_adam;
        NnueShape shape = train_shape(set > NNUE_FEATURE_SET_KING ? NNUE_FEATURE_SET_PSQ : set, CKPT_HIDDEN);
        if (set > NNUE_FEATURE_SET_KING) { /* the last round: a second stage */
            shape.l2 = 3;
            shape.l3 = 2;
        }
        assert_true(net_alloc(&net, &shape) && adam_alloc(&adam, &net));
        net_init_random(&net, 9);
        for (size_t i = 0; i < (size_t)net.virt_rows * CKPT_HIDDEN; i++)
            net.virt[i] = (float)i * 1e-4f;
        for (size_t i = 0; i < net.size; i++) {
            adam.m[i] = (float)i * 1e-3f;
            adam.v[i] = (float)i * 1e-6f;
        }
        adam.step = 0x100000005ull;
        assert_true(ckpt_save(tmp_path("t.ckpt", path), &net, &adam, 3, &err));
        assert_true(init_from_file(path, &back, &back_adam, &err));
        assert_memory_equal(&back.shape, &shape, sizeof shape);
        assert_int_equal(back.size, net.size);
        assert_memory_equal(back.params, net.params, net.size * sizeof(float));
        assert_memory_equal(back_adam.m, adam.m, net.size * sizeof(float));
        assert_memory_equal(back_adam.v, adam.v, net.size * sizeof(float));
        assert_true(back_adam.step == adam.step);
        net_free(&back);
        adam_free(&back_adam);
        /* a .nnue net of a width the engine does not run cannot be exported */
        assert_null(qnet_quantise(&net, "", &err));
        assert_non_null(strstr(err.msg, "cannot export"));
        net_free(&net);
        adam_free(&adam);
    }
}

/* Checkpoints of versions 1 (no virtual rows) and 2 (280 of them) load as feature set 1. */
static void test_checkpoint_old(void **state)
{
    (void)state;
    XqError err;
    char path[PATH_MAX_TEST];
    Net net, back;
    Adam adam;
    NnueShape shape = train_shape(NNUE_FEATURE_SET_PSQ, CKPT_HIDDEN);
    assert_true(net_alloc(&net, &shape));
    net_init_random(&net, 9);
    for (size_t i = 0; i < (size_t)net.virt_rows * CKPT_HIDDEN; i++)
        net.virt[i] = (float)i * 1e-4f;
    for (int version = 1; version <= 2; version++) {
        write_ckpt_old(tmp_path("old.ckpt", path), &net, version);
        assert_true(init_from_file(path, &back, &adam, &err));
        assert_int_equal(back.shape.feature_set, NNUE_FEATURE_SET_PSQ);
        assert_int_equal(back.shape.hidden, CKPT_HIDDEN);
        assert_true(adam.step == 0);
        assert_memory_equal(back.ft_w, net.ft_w, NNUE_FEATURES * CKPT_HIDDEN * sizeof(float));
        assert_memory_equal(back.ft_b, net.ft_b, (net.size - (size_t)net.rows * CKPT_HIDDEN) * sizeof(float));
        for (size_t i = 0; i < (size_t)net.virt_rows * CKPT_HIDDEN; i++) /* version 1: zero virtual rows */
            assert_true(back.virt[i] == (version == 1 ? 0.0f : net.virt[i]));
        net_free(&back);
        adam_free(&adam);
    }
    net_free(&net);
    /* version 3: the 40-byte header of version 4 without the second stage's widths */
    shape = train_shape(NNUE_FEATURE_SET_KING, CKPT_HIDDEN);
    assert_true(net_alloc(&net, &shape));
    net_init_random(&net, 5);
    assert_true(ckpt_save(tmp_path("v4.ckpt", path), &net, NULL, 2, &err));
    size_t n;
    uint8_t *img = read_whole_file(path, &n, &err);
    assert_non_null(img);
    img[CKPT_VERSION_AT] = 3;
    memmove(img + CKPT_V3_HEADER, img + CKPT_V3_HEADER + 8, n - CKPT_V3_HEADER - 8);
    FILE *f = fopen(tmp_path("v3.ckpt", path), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(img, 1, n - 8, f), n - 8);
    assert_int_equal(fclose(f), 0);
    free(img);
    assert_true(init_from_file(path, &back, &adam, &err));
    assert_memory_equal(&back.shape, &shape, sizeof shape);
    assert_memory_equal(back.params, net.params, net.size * sizeof(float));
    net_free(&back);
    adam_free(&adam);
    net_free(&net);
}

/* Runs the trainer tests in a temporary directory. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gradient),
        cmocka_unit_test(test_gradient_king),
        cmocka_unit_test(test_gradient_stage2),
        cmocka_unit_test(test_factorised_export),
        cmocka_unit_test(test_integer_reference),
        cmocka_unit_test(test_load_filters),
        cmocka_unit_test(test_fit_k),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_checkpoint),
        cmocka_unit_test(test_checkpoint_old),
        cmocka_unit_test(test_training_run),
    };
    return cmocka_run_group_tests(tests, train_test_setup, train_test_teardown);
}
