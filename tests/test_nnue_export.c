/*
 * test_nnue_export.c - the trainer and the engine agree: a float net
 * (seeded random, trained-looking magnitudes) is quantised and serialised by
 * the trainer (tools/xqtrain/train_export.c), parsed by the engine (src/eval/nnue/nnue.c), and
 * on positions of random games the engine's evaluation, fresh and
 * incremental, equals the trainer's independent integer reference exactly;
 * and the description field survives the trip from trainer to engine.
 */
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "eval/nnue/nnue.h"
#include "testutil.h"
#include "xqtrain/train_export.h"

enum { GAMES = 30, PLIES = 100 };

/* xorshift64* step. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

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

/* Engine evaluation (fresh and incremental) == trainer's integer reference, along random games. */
static void test_engine_matches_trainer(void **state)
{
    (void)state;
    Net fnet;
    assert_true(net_alloc(&fnet, NNUE_HIDDEN));
    net_init_random(&fnet, 3);
    uint64_t s = 99;
    for (size_t i = 0; i < (size_t)NNUE_OUTPUT_BUCKETS * 2 * NNUE_HIDDEN; i++) /* output weights of a trained size */
        fnet.out_w[i] = (float)((double)(rnd(&s) % 2001) / 1000.0 - 1.0) * 0.5f;
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        fnet.out_b[b] = (float)b * 0.01f - 0.03f;
    net_clip(&fnet);
    net_sync(&fnet);
    QNet q;
    XqError err;
    assert_true(qnet_alloc(&q));
    if (!qnet_quantise(&fnet, &q, &err))
        fail_msg("quantise: %s", err.msg);
    uint8_t *img = malloc(NNUE_FILE_SIZE);
    Network *net = malloc(sizeof *net);
    NnueStack *stack = malloc(sizeof *stack);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(img);
    assert_non_null(net);
    assert_non_null(stack);
    assert_non_null(pos);
    qnet_serialise(&q, "export test", img);
    if (!nnue_parse(net, img, NNUE_FILE_SIZE, &err))
        fail_msg("engine rejects the trainer's file: %s", err.msg);
    int compared = 0, nonzero = 0;
    for (int g = 0; g < GAMES; g++) {
        test_setup(pos, START_FEN);
        nnue_reset(stack, net, pos, NULL);
        for (int ply = 0; ply < PLIES; ply++) {
            TrainPos tp;
            to_train_pos(pos, &tp);
            int want = qnet_eval(&q, &tp);
            assert_int_equal(nnue_evaluate_fresh(net, pos, nnue_kernels(NNUE_SCALAR)), want);
            assert_int_equal(nnue_evaluate(net, stack, pos), want);
            compared++;
            nonzero += want != 0;
            Move moves[MAX_MOVES];
            int n = gen_legal(pos, moves);
            if (n == 0)
                break;
            Move m = moves[rnd(&s) % (uint64_t)n];
            nnue_push(stack, pos, m);
            pos_make(pos, m);
        }
    }
    assert_true(compared > 1000);
    assert_true(nonzero > compared / 2); /* the evaluations are not all trivially zero */
    free(pos);
    free(stack);
    free(net);
    free(img);
    qnet_free(&q);
    net_free(&fnet);
}

/* A description fills the header's 80 bytes (a longer one is cut there); the engine reads the trainer's file
 * back to the same bytes and writes it out unchanged. */
static void test_description_round_trip(void **state)
{
    (void)state;
    static const char *const DESCS[] = { "", "short", /* 80 and 81 bytes: */
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678X",
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678XY" };
    QNet q;
    XqError err;
    assert_true(qnet_alloc(&q));
    uint8_t *img = malloc(NNUE_FILE_SIZE), *again = malloc(NNUE_FILE_SIZE);
    Network *net = malloc(sizeof *net);
    assert_non_null(img);
    assert_non_null(again);
    assert_non_null(net);
    for (size_t i = 0; i < sizeof DESCS / sizeof *DESCS; i++) {
        qnet_serialise(&q, DESCS[i], img);
        if (!nnue_parse(net, img, NNUE_FILE_SIZE, &err))
            fail_msg("engine rejects the trainer's file: %s", err.msg);
        size_t want = strlen(DESCS[i]) < NNUE_DESC_SIZE ? strlen(DESCS[i]) : NNUE_DESC_SIZE;
        assert_int_equal(strlen(net->desc), want);
        assert_memory_equal(net->desc, DESCS[i], want);
        assert_true(qnet_parse(img, NNUE_FILE_SIZE, &q, &err));
        assert_string_equal(q.desc, net->desc);
        nnue_serialise(net, again);
        assert_memory_equal(again, img, NNUE_FILE_SIZE);
    }
    free(net);
    free(again);
    free(img);
    qnet_free(&q);
}

/* Runs the trainer/engine agreement tests. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_engine_matches_trainer),
                                        cmocka_unit_test(test_description_round_trip) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
