/*
 * test_xqtrain_aug.c - the trainer's augmentation and regularisation
 * options (tools/xqtrain): left-right mirroring of positions, weight decay,
 * the best-validation net and the early stop, the material start.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "xqtrain/train_loop.h"
#include "train_testutil.h"

enum {
    RUN_RECORDS = 1500, /* records of the tiny training runs */
    RUN_EPOCHS = 3,
    RUN_BATCH = 64,
    RUN_HIDDEN = 16,    /* checkpoints only: the runs compare checkpoints */
    STOP_EPOCHS = 10,   /* the early-stop run's epoch limit */
    STOP_PATIENCE = 2,
};

static const double MATERIAL_TOL_CP = 0.01; /* float rounding of the material units */

/* Kings on e0 (red: a genuinely new view when mirrored) and d9 (black: its view is mirrored already). */
static const char ASYM_FEN[] = "3k5/4a4/4b1n2/p1p1p3p/6p2/2P6/P3P1P1P/2N1B1N2/4A4/2BAK2R1 w - - 0 1";

/* The FEN of the left-right mirror of a FEN's board (each rank's text reversed), same side to move. */
static void mirror_fen(const char *fen, char *out, size_t n)
{
    const char *end = strchr(fen, ' ');
    size_t len = (size_t)(end - fen), at = 0;
    assert_true(len + strlen(end) < n);
    for (size_t i = 0; i <= len; i++) {
        if (i < len && fen[i] != '/')
            continue;
        for (size_t k = at; k < i; k++) /* the rank's text is fen[at..i) */
            out[k] = fen[at + i - 1 - k];
        if (i < len)
            out[i] = '/';
        at = i + 1;
    }
    strcpy(out + len, end);
}

/* The trainer's view of a FEN (train_pos_from_fen, as xqtrain probe reads FENs). */
static void train_pos_of(const char *fen, TrainPos *p)
{
    XqError err;
    if (!train_pos_from_fen(fen, p, &err))
        fail_msg("%s: %s", fen, err.msg);
}

/* Orders feature indices ascending (qsort). */
static int cmp_u16(const void *a, const void *b) { return *(const uint16_t *)a - *(const uint16_t *)b; }

/* The features of a feature set of perspective k, sorted. */
static void sorted_features(const TrainPos *p, int set, int k, uint16_t out[NNUE_MAX_ACTIVE], int *count)
{
    TrainFeatures f;
    train_features(p, set, &f);
    *count = f.count[k];
    memcpy(out, f.index[k], (size_t)f.count[k] * sizeof *out);
    qsort(out, (size_t)*count, sizeof *out, cmp_u16);
}

/* A mirrored position has the features of the mirrored board (in both feature sets); only a king on file e sees new
 * ones. */
static void test_mirror_features(void **state)
{
    (void)state;
    char fen[FEN_MAX];
    mirror_fen(ASYM_FEN, fen, sizeof fen);
    assert_string_equal(fen, "5k3/4a4/2n1b4/p3p1p1p/2p6/6P2/P1P1P3P/2N1B1N2/4A4/1R2KAB2 w - - 0 1");
    for (int n = 0; n < 4; n++) {
        int side = n % 2, set = n < 2 ? NNUE_FEATURE_SET_PSQ : NNUE_FEATURE_SET_KING;
        TrainPos orig, mirrored, board;
        train_pos_of(ASYM_FEN, &orig);
        train_pos_of(fen, &board);
        orig.stm = board.stm = (uint8_t)side; /* both perspectives as the side to move */
        train_mirror(&orig, &mirrored);
        TrainFeatures fm, fb;
        train_features(&mirrored, set, &fm);
        train_features(&board, set, &fb);
        assert_int_equal(fm.bucket, fb.bucket);
        for (int k = 0; k < 2; k++) {
            uint16_t a[NNUE_MAX_ACTIVE], b[NNUE_MAX_ACTIVE], o[NNUE_MAX_ACTIVE];
            int na, nb, no;
            sorted_features(&mirrored, set, k, a, &na);
            sorted_features(&board, set, k, b, &nb);
            sorted_features(&orig, set, k, o, &no);
            assert_int_equal(na, nb);
            assert_memory_equal(a, b, (size_t)na * sizeof *a);
            /* perspective k is red when k == side (side to move first) */
            bool red = (k == 0) == (side == RED);
            bool same = memcmp(a, o, (size_t)na * sizeof *a) == 0;
            assert_true(red ? !same : same);
        }
        TrainPos twice;
        train_mirror(&mirrored, &twice);
        assert_memory_equal(twice.sq, orig.sq, sizeof orig.sq);
    }
    /* the FEN reader: the side to move and the pieces; a bad FEN is refused */
    TrainPos p;
    XqError err;
    assert_true(train_pos_from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", &p, &err));
    assert_int_equal(p.stm, BLACK);
    int present = 0;
    for (int i = 0; i < 2 * SIDE_PIECES; i++)
        present += p.sq[i] != NNUE_REC_ABSENT;
    assert_int_equal(present, 2 * SIDE_PIECES - 1);
    assert_false(train_pos_from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &p, &err)); /* the kings face each other */
}

/* Options of a tiny run without output files. */
static TrainOptions run_options(bool mirror)
{
    TrainOptions o;
    memset(&o, 0, sizeof o);
    o.epochs = RUN_EPOCHS;
    o.batch = RUN_BATCH;
    o.sched = (Schedule){ 0.003, 0, 1, false, 0, RUN_EPOCHS };
    o.loss = (LossSpec){ 200, 0.3, 2.0 };
    o.threads = 2;
    o.seed = 3;
    o.mirror = mirror;
    o.export_tolerance = 1e9;
    return o;
}

/* Trains a fresh factorised net of feature set 1 and width RUN_HIDDEN with these options; the caller frees it. */
static void run(const TrainSet *train, const TrainSet *valid, const TrainOptions *o, Net *net, EpochResult *res)
{
    Adam adam;
    NnueShape shape = train_shape(NNUE_FEATURE_SET_PSQ, RUN_HIDDEN);
    assert_true(net_alloc(net, &shape) && adam_alloc(&adam, net));
    net_init_random(net, 5);
    net->factorised = true;
    assert_int_equal(train_run(net, &adam, train, valid, o, res), 0);
    adam_free(&adam);
}

/* Mirroring is deterministic for a seed, and changes the training. */
static void test_mirror_training(void **state)
{
    (void)state;
    char path[PATH_MAX_TEST];
    write_random_games(tmp_path("mirror.bin", path), RUN_RECORDS, 4);
    TrainSet train = { 0 }, valid = { 0 };
    TrainCounts tc, vc;
    bool unknown;
    TrainFilter filter = train_filter_default();
    filter.min_ply = 0;
    load(path, &filter, 0.1, &train, &valid, &tc, &vc, &unknown);
    Net a, b, c;
    EpochResult ra[RUN_EPOCHS], rb[RUN_EPOCHS], rc[RUN_EPOCHS];
    TrainOptions on = run_options(true), off = run_options(false);
    run(&train, &valid, &on, &a, ra);
    run(&train, &valid, &on, &b, rb);
    run(&train, &valid, &off, &c, rc);
    assert_memory_equal(a.params, b.params, a.size * sizeof *a.params);
    assert_true(ra[RUN_EPOCHS - 1].train_loss == rb[RUN_EPOCHS - 1].train_loss);
    assert_true(memcmp(a.params, c.params, a.size * sizeof *a.params) != 0);
    assert_true(ra[RUN_EPOCHS - 1].train_loss < ra[0].train_loss); /* it still learns */
    net_free(&a);
    net_free(&b);
    net_free(&c);
    train_set_free(&train);
    train_set_free(&valid);
}

/* Weight decay scales the stepped first-layer rows (real and virtual) by 1 - lr wd, and nothing else. */
static void test_weight_decay(void **state)
{
    (void)state;
    enum { H = 4, REAL_ROW = 100, VIRT_ROW = NNUE_FEATURES + 3, IDLE_ROW = 200 };
    const double lr = 0.01, wd = 2.0;
    Net net, before;
    Adam adam;
    Grad g;
    NnueShape shape = train_shape(NNUE_FEATURE_SET_PSQ, H);
    assert_true(net_alloc(&net, &shape) && net_alloc(&before, &shape) && adam_alloc(&adam, &net));
    assert_true(grad_alloc(&g, &net));
    net_init_random(&net, 8);
    for (size_t i = 0; i < (size_t)net.virt_rows * H; i++)
        net.virt[i] = 0.25f;
    memcpy(before.params, net.params, net.size * sizeof *net.params);
    grad_touch(&g, REAL_ROW); /* touched with a zero gradient: Adam's own step is 0, only the decay acts */
    grad_touch(&g, VIRT_ROW);
    adam.weight_decay = wd;
    adam_step(&adam, &net, &g, lr);
    float keep = (float)(1.0 - lr * wd);
    for (size_t i = 0; i < net.size; i++) {
        size_t row = i / H;
        bool decayed = i < (size_t)net.rows * H && (row == REAL_ROW || row == VIRT_ROW);
        assert_true(net.params[i] == (decayed ? before.params[i] * keep : before.params[i]));
    }
    assert_true(net.ft_w[IDLE_ROW * H] == before.ft_w[IDLE_ROW * H] && net.ft_w[REAL_ROW * H] != 0.0f);
    /* without decay a zero gradient leaves the touched rows as they are */
    memcpy(net.params, before.params, net.size * sizeof *net.params);
    adam.weight_decay = 0;
    adam_step(&adam, &net, &g, lr);
    assert_memory_equal(net.params, before.params, net.size * sizeof *net.params);
    net_free(&net);
    net_free(&before);
    adam_free(&adam);
    grad_free(&g);
}

/* Bucket decay: in a feature-set-2 net the king buckets' own rows (real rows) decay by 1 - lr (wd + bd), the
 * shared virtual rows (psq, material, file, rank) by 1 - lr wd; in a feature-set-1 net it does nothing. */
static void test_bucket_decay(void **state)
{
    (void)state;
    enum { H = 4 };
    const double lr = 0.01, wd = 1.0, bd = 3.0;
    for (int set = NNUE_FEATURE_SET_PSQ; set <= NNUE_FEATURE_SET_KING; set++) {
        Net net, before;
        Adam adam;
        Grad g;
        NnueShape shape = train_shape(set, H);
        assert_true(net_alloc(&net, &shape) && net_alloc(&before, &shape) && adam_alloc(&adam, &net));
        assert_true(grad_alloc(&g, &net));
        net_init_random(&net, 9);
        for (size_t i = 0; i < (size_t)net.virt_rows * H; i++)
            net.virt[i] = 0.25f;
        memcpy(before.params, net.params, net.size * sizeof *net.params);
        const int real = shape.inputs - 7, virt = shape.inputs + 2; /* a real row (the last bucket) and a virtual one */
        grad_touch(&g, real);
        grad_touch(&g, virt);
        adam.weight_decay = wd;
        adam.bucket_decay = bd;
        adam_step(&adam, &net, &g, lr);
        const float keep = (float)(1.0 - lr * wd),
                    keep_real = set == NNUE_FEATURE_SET_KING ? (float)(1.0 - lr * (wd + bd)) : keep;
        for (int j = 0; j < H; j++) {
            assert_true(net.params[(size_t)real * H + j] == before.params[(size_t)real * H + j] * keep_real);
            assert_true(net.params[(size_t)virt * H + j] == before.params[(size_t)virt * H + j] * keep);
        }
        assert_true(net.params[(size_t)real * H] != before.params[(size_t)real * H] * keep
                    || set == NNUE_FEATURE_SET_PSQ);
        net_free(&net);
        net_free(&before);
        adam_free(&adam);
        grad_free(&g);
    }
}

/* Compares two files of the test's directory byte for byte. */
static bool same_files(const char *a, const char *b)
{
    char pa[PATH_MAX_TEST], pb[PATH_MAX_TEST];
    size_t na, nb;
    uint8_t *x = slurp(tmp_path(a, pa), &na), *y = slurp(tmp_path(b, pb), &nb);
    bool same = na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

/* best.nnue is the net of the best validation epoch, final.nnue the last, and -patience stops the run. */
static void test_best_and_patience(void **state)
{
    (void)state;
    char path[PATH_MAX_TEST], dir[PATH_MAX_TEST];
    write_random_games(tmp_path("best.bin", path), RUN_RECORDS, 6);
    TrainSet train = { 0 }, valid = { 0 };
    load_all_records(path, &train);
    /* validation positions that say the opposite of the training ones: learning makes their loss worse */
    for (size_t i = 0; i < train.count; i += 4) {
        TrainPos p = train.pos[i];
        p.score = (int16_t)-p.score;
        p.result = (int8_t)-p.result;
        assert_true(train_set_push(&valid, &p));
    }
    TrainOptions o = run_options(false);
    o.epochs = STOP_EPOCHS;
    o.patience = STOP_PATIENCE;
    o.out_dir = tmp_path("best", dir);
    o.save_every = 1;
    o.desc = "best";
    assert_true(mkdir_for_test(dir));
    Net net;
    Adam adam;
    EpochResult r[STOP_EPOCHS];
    memset(r, 0, sizeof r);
    assert_true(net_alloc(&net, &NNUE_SHAPE_V1) && adam_alloc(&adam, &net));
    net_init_random(&net, 5);
    net.factorised = true;
    assert_int_equal(train_run(&net, &adam, &train, &valid, &o, r), 0);
    int run = 0, best = 0;
    for (int e = 0; e < STOP_EPOCHS && r[e].epoch; e++, run++)
        if (r[e].best) {
            assert_true(best == 0 || r[e].valid_loss < r[best - 1].valid_loss);
            best = e + 1;
        }
    for (int e = 0; e < run; e++)
        assert_true(r[e].valid_loss >= r[best - 1].valid_loss);
    if (run != best + STOP_PATIENCE || run >= STOP_EPOCHS)
        fail_msg("ran %d epochs, best %d, patience %d", run, best, STOP_PATIENCE);
    char a[PATH_MAX_TEST], b[PATH_MAX_TEST];
    snprintf(a, sizeof a, "best/epoch-%d.nnue", best);
    assert_true(same_files("best/best.nnue", a));
    snprintf(b, sizeof b, "best/epoch-%d.nnue", run);
    assert_true(same_files("best/final.nnue", b));
    assert_false(same_files("best/best.nnue", "best/final.nnue"));
    net_free(&net);
    adam_free(&adam);
    train_set_free(&train);
    train_set_free(&valid);
}

/* The material start makes the net's eval the material balance (the other units silenced here), in both feature
 * sets. */
static void test_material_init(void **state)
{
    (void)state;
    static const struct { const char *fen; int cp; } cases[] = {
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 0 },
        { "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 300 },
        { "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", -300 },
        { "1nbakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 430 },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P3P/1C5C1/9/RNBAKAB1R w - - 0 1", -160 }, /* red: horse, pawn */
    };
    for (int set = NNUE_FEATURE_SET_PSQ; set <= NNUE_FEATURE_SET_KING; set++) {
        Net net;
        Scratch sc;
        NnueShape shape = train_shape(set, NNUE_HIDDEN_V1);
        assert_true(net_alloc(&net, &shape) && scratch_alloc(&sc, NNUE_HIDDEN_V1));
        net_init_random(&net, 4);
        memset(net.out_w, 0, NNUE_OUTPUT_BUCKETS * 2 * NNUE_HIDDEN_V1 * sizeof *net.out_w);
        net_init_material(&net);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            TrainPos p;
            train_pos_of(cases[i].fen, &p);
            double e = net_eval_cp(&net, &p, &sc);
            if (fabs(e - cases[i].cp) > MATERIAL_TOL_CP)
                fail_msg("feature set %d, %s: eval %.3f, material %d", set, cases[i].fen, e, cases[i].cp);
        }
        net_free(&net);
        scratch_free(&sc);
    }
}

/* Runs the augmentation and regularisation tests in a temporary directory. */
int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mirror_features),
        cmocka_unit_test(test_mirror_training),
        cmocka_unit_test(test_weight_decay),
        cmocka_unit_test(test_bucket_decay),
        cmocka_unit_test(test_best_and_patience),
        cmocka_unit_test(test_material_init),
    };
    return cmocka_run_group_tests(tests, train_test_setup, train_test_teardown);
}
