/*
 * test_xqtrain_stage2.c - a net with a second stage (nnue_arch.h) through the
 * trainer's export: the export check passes on an active second stage, the
 * second stage changes the integer evaluations, and -init from the file gets
 * the shape and the quantised weights back. (Its gradient is checked in
 * test_xqtrain.c, its engine evaluation against the trainer's integer
 * reference in test_nnue_export.c.)
 */
#include <math.h>
#include <string.h>

#include "eval/nnue/nnue.h"
#include "testutil.h"
#include "xqtrain/train_ckpt.h"
#include "xqtrain/train_export.h"
#include "train_testutil.h"

enum {
    S2_HIDDEN = 32, /* the smallest width the engine runs */
    S2_POSITIONS = 400,
};

/* A net with an active second stage exports through the export check (the dequantised net within
 * EXPORT_DEQUANT_TOLERANCE_S2_CP of the integer one, whose activations are rounded), and -init from the file keeps
 * the shape and the quantised second stage exactly. */
static void test_stage2_export(void **state)
{
    (void)state;
    char path[PATH_MAX_TEST];
    write_random_games(tmp_path("s2.bin", path), S2_POSITIONS, 23);
    TrainSet s = { 0 };
    load_all_records(path, &s);
    NnueShape shape = train_shape(NNUE_FEATURE_SET_PSQ, S2_HIDDEN);
    shape.l2 = 8;
    shape.l3 = 4;
    Net net, back;
    Adam adam;
    Scratch sc;
    assert_true(net_alloc(&net, &shape) && scratch_alloc(&sc, S2_HIDDEN));
    net_init_random(&net, 31);
    TrainRng r = { 37 };
    for (size_t i = 0; i < nnue_stage2_biases(&shape); i++)
        net.s2_b[i] = (float)(0.5 * rng_uniform(&r));
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) { /* output weights that make the second stage count */
        S2Layers L = train_s2_layers(&shape, net.s2_w, net.s2_b, b);
        for (int j = 0; j < shape.l3; j++)
            L.w4[j] = (float)(2 * rng_uniform(&r) - 1);
    }
    net.qat = true;
    net_clip(&net);
    XqError err;
    ExportCheck chk;
    LossSpec loss = { 200, 0.5, 2.0 };
    if (!export_net(&net, "stage2", tmp_path("s2.nnue", path), &s, &loss, EXPORT_MEAN_TOLERANCE_CP, &chk, &err))
        fail_msg("export: %s", err.msg);
    print_message("second stage export: |float - int| mean %.2f max %.2f cp, |dequantised - int| max %.2f cp\n",
                  chk.mean_diff, chk.max_diff, chk.max_dequant_diff);
    assert_true(chk.passed && chk.max_dequant_diff > 0);
    Network *q = qnet_read_file(path, &err);
    assert_non_null(q);
    assert_int_equal(q->shape.l2, 8);
    int changed = 0; /* the second stage counts: without its output the integer evals differ */
    for (size_t i = 0; i < s.count; i++) {
        int with = qnet_eval(q, &s.pos[i]);
        int16_t saved[NNUE_OUTPUT_BUCKETS * 4];
        memcpy(saved, q->l4_weight, sizeof saved);
        memset(q->l4_weight, 0, sizeof saved); /* every bucket's output weights (l3 = 4) */
        changed += qnet_eval(q, &s.pos[i]) != with;
        memcpy(q->l4_weight, saved, sizeof saved);
    }
    assert_true(changed > (int)s.count / 2);
    assert_true(init_from_file(path, &back, &adam, &err));
    assert_memory_equal(&back.shape, &shape, sizeof shape);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        S2Layers L = train_s2_layers(&shape, back.s2_w, back.s2_b, b);
        for (int j = 0; j < shape.l3; j++)
            assert_true(L.w4[j] * NNUE_QW == (float)q->l4_weight[b * shape.l3 + j]);
        for (int i = 0; i < shape.l2; i++)
            assert_true(fabs(L.b2[i] * NNUE_QXW - q->l2_bias[b * shape.l2 + i]) < 1e-2);
    }
    nnue_net_free(q);
    net_free(&back);
    adam_free(&adam);
    net_free(&net);
    scratch_free(&sc);
    train_set_free(&s);
}

/* Runs the second-stage trainer tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stage2_export),
    };
    return cmocka_run_group_tests(tests, train_test_setup, train_test_teardown);
}
