/*
 * test_xqtrain_lift.c - starting a net of a new shape from a trained one
 * (tools/xqtrain/train_lift.h): a factorised feature-set-1 net widened and
 * lifted to feature set 2 evaluates exactly as before on positions of random
 * games (float, with and without the quantisation grid), its new units learn
 * from the first batch, impossible lifts are refused; and, exported, net1
 * (nets/net1.nnue, feature set 1) lifted to feature set 2 at width 512 and
 * the shipped net (nets/default.nnue) given a second stage give the engine
 * the very same evaluations as the files they came from.
 */
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "testutil.h"
#include "xqtrain/train_ckpt.h"
#include "xqtrain/train_export.h"
#include "xqtrain/train_lift.h"
#include "train_testutil.h"

enum { GAMES = 10, PLIES = 120, WIDE = 512, SEED = 7 };
static const double OUT_RANGE = 0.13, VIRT_RANGE = 0.2; /* |out weight| of trained nets; test's |virtual| */

/* A random legal move of pos, a capture when there is one in half the games (material falls: every output bucket
 * comes up); 0 if there is none. */
static Move random_move(Position *pos, bool captures, uint64_t *s)
{
    Move moves[MAX_MOVES], taking[MAX_MOVES];
    int count = gen_legal(pos, moves), n_taking = 0;
    for (int i = 0; i < count; i++)
        if (pos->board[move_to(moves[i])])
            taking[n_taking++] = moves[i];
    if (captures && n_taking)
        return taking[test_random(s) % (uint64_t)n_taking];
    return count ? moves[test_random(s) % (uint64_t)count] : 0;
}

/* Positions of random games, as boards and as the trainer sees them. */
typedef struct Sample {
    Position *pos;
    TrainPos *tp;
    int n;
    int king_moved;   /* positions with a king off its start square */
    unsigned buckets; /* output buckets used, a bit each */
} Sample;

/* Fills a sample with the positions of random games from the start position (GAMES x PLIES at most). */
static void random_positions(Sample *sm)
{
    sm->pos = malloc(GAMES * PLIES * sizeof *sm->pos);
    sm->tp = malloc(GAMES * PLIES * sizeof *sm->tp);
    assert_non_null(sm->pos);
    assert_non_null(sm->tp);
    Position *pos = sm->pos;
    TrainPos *tp = sm->tp;
    uint64_t s = 12345;
    int n = 0;
    sm->king_moved = 0;
    sm->buckets = 0;
    for (int g = 0; g < GAMES; g++) {
        test_setup(&pos[n], START_FEN);
        for (int ply = 0; ply < PLIES; ply++) {
            PackedPos rec;
            packed_from_position(&rec, &pos[n]);
            memset(&tp[n], 0, sizeof tp[n]);
            memcpy(tp[n].sq, rec.sq, sizeof tp[n].sq);
            tp[n].stm = rec.stm;
            sm->king_moved += rec.sq[0] != nnue_sq(4, 0) || rec.sq[SIDE_PIECES] != nnue_sq(4, 9);
            TrainFeatures f;
            train_features(&tp[n], NNUE_FEATURE_SET_PSQ, &f);
            sm->buckets |= 1u << f.bucket;
            Move m = random_move(&pos[n], g % 2, &s);
            n++;
            if (!m || ply == PLIES - 1)
                break;
            pos[n] = pos[n - 1];
            pos_make(&pos[n], m);
        }
    }
    sm->n = n;
}

/* Frees a sample's positions. */
static void sample_free(Sample *sm)
{
    free(sm->pos);
    free(sm->tp);
}

/* A trained-looking factorised net of a shape: random rows, output weights and virtual rows. */
static void trained_like(Net *net, const NnueShape *shape, uint64_t seed)
{
    assert_true(net_alloc(net, shape));
    net_init_random(net, seed);
    TrainRng r = { seed + 1 };
    size_t h = (size_t)shape->hidden;
    for (size_t i = 0; i < NNUE_OUTPUT_BUCKETS * 2 * h; i++)
        net->out_w[i] = (float)(OUT_RANGE * (2 * rng_uniform(&r) - 1));
    for (size_t i = 0; i < (size_t)net->virt_rows * h; i++)
        net->virt[i] = (float)(VIRT_RANGE * (2 * rng_uniform(&r) - 1));
    for (size_t j = 0; j < h; j++)
        net->ft_b[j] = (float)(0.2 * rng_uniform(&r));
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        net->out_b[b] = (float)(0.05 * (b - 3));
    net->factorised = true;
    net_clip(net);
}

/* Every position evaluates to the same float, bit for bit, in both nets. */
static void assert_same_evals(const Net *a, const Net *b, const TrainPos *tp, int n)
{
    Scratch sa, sb;
    assert_true(scratch_alloc(&sa, a->shape.hidden) && scratch_alloc(&sb, b->shape.hidden));
    for (int i = 0; i < n; i++) {
        double ea = net_eval_cp(a, &tp[i], &sa), eb = net_eval_cp(b, &tp[i], &sb);
        if (ea != eb)
            fail_msg("position %d: %.9f cp before the lift, %.9f after", i, ea, eb);
    }
    scratch_free(&sa);
    scratch_free(&sb);
}

/* A set-1 net lifted to set 2 and widened (and each alone), or given a second stage, evaluates exactly as before,
 * on and off the grid; its new units and second stage get a gradient; narrower or set 2 -> 1 lifts, and a second
 * stage's widths changed, are refused. */
static void test_lift_exact(void **state)
{
    (void)state;
    Sample sm;
    random_positions(&sm);
    const int n = sm.n;
    TrainPos *tp = sm.tp;
    assert_true(n > GAMES * PLIES / 2 && sm.king_moved > n / 10);
    assert_int_equal(sm.buckets, (1u << NNUE_OUTPUT_BUCKETS) - 1); /* every output bucket is evaluated */
    Net from, to;
    trained_like(&from, &NNUE_SHAPE_V1, SEED);
    NnueShape targets[] = { train_shape(NNUE_FEATURE_SET_KING, WIDE), train_shape(NNUE_FEATURE_SET_KING, NNUE_HIDDEN_V1),
                            train_shape(NNUE_FEATURE_SET_PSQ, WIDE), NNUE_SHAPE_V1, train_shape(NNUE_FEATURE_SET_KING, WIDE) };
    targets[3].l2 = 16; /* a second stage added, alone and with the rest */
    targets[3].l3 = 32;
    targets[4].l2 = 8;
    targets[4].l3 = 4;
    XqError err;
    for (size_t t = 0; t < sizeof targets / sizeof *targets; t++)
        for (int qat = 0; qat < 2; qat++) {
            from.qat = qat;
            net_sync(&from);
            assert_true(net_lift(&from, &targets[t], SEED, &to, &err));
            assert_memory_equal(&to.shape, &targets[t], sizeof to.shape);
            assert_true(to.qat == (bool)qat && to.factorised);
            assert_same_evals(&from, &to, tp, n);
            net_free(&to);
        }
    /* the lifted net's new units compute (random rows), so their output weights get a gradient at once */
    from.qat = false;
    net_sync(&from);
    assert_true(net_lift(&from, &targets[0], SEED, &to, &err));
    Grad g;
    Scratch sc;
    LossSpec loss = { 200, 0.5, 2.0 };
    assert_true(grad_alloc(&g, &to) && scratch_alloc(&sc, WIDE));
    for (int i = 0; i < n; i++) {
        tp[i].score = (int16_t)(i % 7 * 100 - 300);
        net_loss_grad(&to, &tp[i], &loss, 1.0f / (float)n, &g, &sc);
    }
    int live = 0; /* new units with a gradient on an output weight of some bucket, either half */
    for (int j = NNUE_HIDDEN_V1; j < WIDE; j++) {
        bool any = false;
        for (int k = 0; k < 2 * NNUE_OUTPUT_BUCKETS; k++)
            any |= g.out_w[k * WIDE + j] != 0.0f;
        live += any;
    }
    if (live < (WIDE - NNUE_HIDDEN_V1) / 4)
        fail_msg("only %d of the %d new units have a gradient", live, WIDE - NNUE_HIDDEN_V1);
    grad_free(&g);
    scratch_free(&sc);
    /* an added second stage (output weights 0) computes, so its output weights get a gradient at once; a net with
     * one keeps it (the same evaluations), and its widths cannot change */
    Net staged, kept;
    assert_true(net_lift(&from, &targets[3], SEED, &staged, &err));
    assert_true(grad_alloc(&g, &staged) && scratch_alloc(&sc, NNUE_HIDDEN_V1));
    for (int i = 0; i < n; i++)
        net_loss_grad(&staged, &tp[i], &loss, 1.0f / (float)n, &g, &sc);
    int live_s2 = 0;
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        S2Layers G = train_s2_layers(&staged.shape, g.s2_w, g.s2_b, b);
        for (int j = 0; j < staged.shape.l3; j++)
            live_s2 += G.w4[j] != 0.0f;
    }
    if (live_s2 < NNUE_OUTPUT_BUCKETS * staged.shape.l3 / 4)
        fail_msg("only %d second-stage output weights have a gradient", live_s2);
    grad_free(&g);
    scratch_free(&sc);
    NnueShape kept_shape = targets[3];
    kept_shape.feature_set = NNUE_FEATURE_SET_KING;
    kept_shape.inputs = nnue_feature_count(NNUE_FEATURE_SET_KING);
    assert_true(net_lift(&staged, &kept_shape, SEED, &kept, &err));
    assert_same_evals(&staged, &kept, tp, n);
    net_free(&kept);
    NnueShape other = targets[3];
    other.l2 = 8;
    assert_false(net_lift(&staged, &other, SEED, &kept, &err));
    other = targets[3];
    other.hidden = WIDE;
    assert_false(net_lift(&staged, &other, SEED, &kept, &err));
    net_free(&staged);
    /* impossible lifts: a narrower width, feature set 2 to 1 */
    const NnueShape narrow = train_shape(NNUE_FEATURE_SET_PSQ, NNUE_HIDDEN_V1 / 2);
    Net bad;
    assert_false(net_lift(&from, &narrow, SEED, &bad, &err));
    assert_non_null(strstr(err.msg, "cannot lift"));
    assert_false(net_lift(&to, &NNUE_SHAPE_V1, SEED, &bad, &err));
    net_free(&to);
    net_free(&from);
    sample_free(&sm);
}

/* Lifts the net in `file` to shape `to` and checks it exactly: the float net evaluates as its dequantised source,
 * and the exported net gives the engine the very evaluations of the file (most of them not 0). */
static void check_file_lift(const char *file, const NnueShape *to, const Sample *sm)
{
    const int n = sm->n;
    Net from, lifted_f;
    Adam adam;
    XqError err;
    if (!init_from_file(file, &from, &adam, &err))
        fail_msg("%s: %s", file, err.msg);
    adam_free(&adam);
    from.factorised = true; /* as xqtrain trains it */
    if (!net_lift(&from, to, SEED, &lifted_f, &err))
        fail_msg("%s: %s", file, err.msg);
    assert_same_evals(&from, &lifted_f, sm->tp, n);
    Network *source = nnue_load_file(file, NULL, &err);
    assert_non_null(source);
    Network *lifted = qnet_quantise(&lifted_f, "lifted", &err);
    if (!lifted)
        fail_msg("%s", err.msg);
    size_t size;
    uint8_t *img = qnet_image(lifted, &size);
    Network *engine = nnue_parse(img, size, &err);
    if (!engine)
        fail_msg("%s", err.msg);
    assert_memory_equal(&engine->shape, to, sizeof *to);
    int nonzero = 0;
    for (int i = 0; i < n; i++) {
        int want = nnue_evaluate_fresh(source, &sm->pos[i], NULL);
        assert_int_equal(nnue_evaluate_fresh(engine, &sm->pos[i], NULL), want);
        assert_int_equal(qnet_eval(lifted, &sm->tp[i]), want);
        nonzero += want != 0;
    }
    assert_true(nonzero > n / 2);
    free(img);
    nnue_net_free(engine);
    nnue_net_free(lifted);
    nnue_net_free(source);
    net_free(&lifted_f);
    net_free(&from);
}

/* Trained nets lifted exactly: net1 (feature set 1, width 256, the shape every net before network v2 had) to
 * feature set 2 at width 512, the step the shipped v2 net started from; and the shipped net (nets/default.nnue,
 * whatever its shape) given a second stage with output weights 0, which the engine runs and which changes no
 * evaluation. */
static void test_lift_shipped_net(void **state)
{
    (void)state;
    Sample sm;
    random_positions(&sm);
    XqError err;
    Network *v1 = nnue_load_file(XQ_TEST_NET1, NULL, &err);
    assert_non_null(v1);
    assert_memory_equal(&v1->shape, &NNUE_SHAPE_V1, sizeof NNUE_SHAPE_V1);
    nnue_net_free(v1);
    const NnueShape wide = train_shape(NNUE_FEATURE_SET_KING, WIDE);
    check_file_lift(XQ_TEST_NET1, &wide, &sm);
    Network *shipped = nnue_load_file(XQ_TEST_DEFAULT_NET, NULL, &err);
    assert_non_null(shipped);
    NnueShape staged = shipped->shape;
    nnue_net_free(shipped);
    assert_int_equal(staged.l2, 0); /* the test adds one */
    staged.l2 = 16;
    staged.l3 = 32;
    check_file_lift(XQ_TEST_DEFAULT_NET, &staged, &sm);
    sample_free(&sm);
}

/* Runs the lift tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lift_exact),
        cmocka_unit_test(test_lift_shipped_net),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
