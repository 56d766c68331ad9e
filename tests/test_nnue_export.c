/*
 * test_nnue_export.c - the trainer and the engine agree: a float net
 * (seeded random, trained-looking magnitudes) of each shape (feature set 1
 * at width 256, feature set 2 at width 512) is quantised and serialised by
 * the trainer (tools/xqtrain/train_export.c), parsed by the engine
 * (src/eval/nnue/nnue_file.c), and on positions of random games the engine's
 * evaluation, fresh and incremental, equals the trainer's independent integer
 * reference exactly, with and without a second stage (whose share of the
 * evaluation is checked to be there); and the description field survives
 * the trip from trainer to engine.
 */
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "eval/nnue/nnue.h"
#include "testutil.h"
#include "xqtrain/train_export.h"

enum { GAMES = 30, PLIES = 100, WIDE = 512 };

/* The trainer's view of a position. */
static void to_train_pos(const Position *pos, TrainPos *tp)
{
    PackedPos rec;
    packed_from_position(&rec, pos);
    memcpy(tp->sq, rec.sq, sizeof tp->sq);
    tp->stm = rec.stm;
    tp->result = 0;
    tp->score = 0;
}

/* The engine's net of a seeded float net of a shape, through the trainer's export and the engine's parser; the
 * trainer's quantised net in *q. */
static Network *export_parse(const NnueShape *shape, uint64_t seed, Network **q)
{
    Net fnet;
    assert_true(net_alloc(&fnet, shape));
    net_init_random(&fnet, seed);
    uint64_t s = seed * 33 + 1;
    size_t n_out = (size_t)NNUE_OUTPUT_BUCKETS * 2 * (size_t)shape->hidden;
    for (size_t i = 0; i < n_out; i++) /* output weights of a trained size */
        fnet.out_w[i] = (float)((double)(test_random(&s) % 2001) / 1000.0 - 1.0) * 0.5f;
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        fnet.out_b[b] = (float)b * 0.01f - 0.03f;
    for (size_t i = 0; i < (size_t)fnet.virt_rows * (size_t)shape->hidden; i++) /* folded into the export */
        fnet.virt[i] = (float)((double)(test_random(&s) % 2001) / 1000.0 - 1.0) * 0.05f;
    for (size_t i = 0; i < nnue_stage2_biases(shape); i++) /* a second stage's biases and output weights, trained-like */
        fnet.s2_b[i] = (float)((double)(test_random(&s) % 2001) / 1000.0 - 1.0) * 0.3f;
    for (int b = 0; shape->l2 && b < NNUE_OUTPUT_BUCKETS; b++) {
        S2Layers L = train_s2_layers(shape, fnet.s2_w, fnet.s2_b, b);
        for (int j = 0; j < shape->l3; j++)
            L.w4[j] = (float)((double)(test_random(&s) % 2001) / 1000.0 - 1.0);
    }
    net_clip(&fnet);
    XqError err;
    *q = qnet_quantise(&fnet, "export test", &err);
    if (!*q)
        fail_msg("quantise: %s", err.msg);
    size_t size;
    uint8_t *img = qnet_image(*q, &size);
    assert_non_null(img);
    assert_int_equal(size, nnue_file_size(shape));
    Network *net = nnue_parse(img, size, &err);
    if (!net)
        fail_msg("engine rejects the trainer's file: %s", err.msg);
    assert_memory_equal(&net->shape, shape, sizeof *shape);
    free(img);
    net_free(&fnet);
    return net;
}

/* Engine evaluation (fresh and incremental) == trainer's integer reference, along random games, for a shape; with
 * a second stage, it changes most evaluations from those of the same net without one. */
static void engine_matches_trainer(const NnueShape *shape)
{
    Network *q, *q_lin;
    Network *net = export_parse(shape, 3, &q);
    NnueShape linear = *shape;
    linear.l2 = linear.l3 = 0;
    Network *lin = export_parse(&linear, 3, &q_lin); /* the same seed: the same first layer and linear output */
    int stage2_changed = 0;
    NnueStack *stack = malloc(sizeof *stack);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(stack);
    assert_non_null(pos);
    uint64_t s = 99;
    int compared = 0, nonzero = 0, king_moves = 0;
    for (int g = 0; g < GAMES; g++) {
        test_setup(pos, START_FEN);
        nnue_reset(stack, net, pos, NULL);
        for (int ply = 0; ply < PLIES; ply++) {
            TrainPos tp;
            to_train_pos(pos, &tp);
            int want = qnet_eval(q, &tp);
            assert_int_equal(nnue_evaluate_fresh(net, pos, nnue_kernels(NNUE_SCALAR)), want);
            assert_int_equal(nnue_evaluate(net, stack, pos), want);
            if (shape->l2)
                assert_int_equal(nnue_evaluate_fresh(net, pos, NULL), want); /* the best kernels too */
            stage2_changed += nnue_evaluate_fresh(lin, pos, NULL) != want;
            compared++;
            nonzero += want != 0;
            Move moves[MAX_MOVES];
            int n = gen_legal(pos, moves);
            if (n == 0)
                break;
            Move m = moves[test_random(&s) % (uint64_t)n];
            king_moves += piece_type(pos->board[move_from(m)]) == KING;
            nnue_push(stack, pos, m);
            pos_make(pos, m);
        }
    }
    assert_true(compared > 1000);
    assert_true(nonzero > compared / 2); /* the evaluations are not all trivially zero */
    assert_true(king_moves > GAMES);    /* kings change bucket along the games (feature set 2) */
    if (shape->l2)
        assert_true(stage2_changed > compared / 2);
    else
        assert_int_equal(stage2_changed, 0);
    free(pos);
    free(stack);
    nnue_net_free(net);
    nnue_net_free(q);
    nnue_net_free(lin);
    nnue_net_free(q_lin);
}

/* Feature set 1, width 256 (the shape of version 1 and 2 files). */
static void test_engine_matches_trainer(void **state)
{
    (void)state;
    engine_matches_trainer(&NNUE_SHAPE_V1);
}

/* Feature set 2 (king buckets), width 512. */
static void test_engine_matches_trainer_king(void **state)
{
    (void)state;
    const NnueShape shape = { NNUE_FEATURE_SET_KING, nnue_feature_count(NNUE_FEATURE_SET_KING), WIDE, 0, 0 };
    engine_matches_trainer(&shape);
}

/* With a second stage: feature set 1 at width 256 with 16 x 32, feature set 2 at 512 with 15 x 7 (odd widths). */
static void test_engine_matches_trainer_stage2(void **state)
{
    (void)state;
    NnueShape shape = NNUE_SHAPE_V1;
    shape.l2 = 16;
    shape.l3 = 32;
    engine_matches_trainer(&shape);
    const NnueShape king = { NNUE_FEATURE_SET_KING, nnue_feature_count(NNUE_FEATURE_SET_KING), WIDE, 15, 7 };
    engine_matches_trainer(&king);
}

/* A description fills the header's 64 bytes (a longer one is cut there); the engine reads the trainer's file
 * back to the same bytes and writes it out unchanged. */
static void test_description_round_trip(void **state)
{
    (void)state;
    static const char *const DESCS[] = { "", "short", /* 64 and 65 bytes: */
        "012345678901234567890123456789012345678901234567890123456789012X",
        "012345678901234567890123456789012345678901234567890123456789012XY" };
    Network *q;
    Network *net = export_parse(&NNUE_SHAPE_V1, 5, &q);
    nnue_net_free(net);
    XqError err;
    for (size_t i = 0; i < sizeof DESCS / sizeof *DESCS; i++) {
        snprintf(q->desc, sizeof q->desc, "%s", DESCS[i]);
        size_t size, again_size;
        uint8_t *img = qnet_image(q, &size);
        assert_non_null(img);
        net = nnue_parse(img, size, &err);
        if (!net)
            fail_msg("engine rejects the trainer's file: %s", err.msg);
        size_t want = strlen(DESCS[i]) < NNUE_DESC_SIZE ? strlen(DESCS[i]) : NNUE_DESC_SIZE;
        assert_int_equal(strlen(net->desc), want);
        assert_memory_equal(net->desc, DESCS[i], want);
        NnueHeader h;
        assert_true(nnue_parse_header(img, size, &h, &err));
        assert_string_equal(h.desc, net->desc);
        uint8_t *again = qnet_image(net, &again_size);
        assert_non_null(again);
        assert_int_equal(again_size, size);
        assert_memory_equal(again, img, size);
        free(again);
        free(img);
        nnue_net_free(net);
    }
    nnue_net_free(q);
}

/* Runs the trainer/engine agreement tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_engine_matches_trainer),
                                        cmocka_unit_test(test_engine_matches_trainer_king),
                                        cmocka_unit_test(test_engine_matches_trainer_stage2),
                                        cmocka_unit_test(test_description_round_trip) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
