/*
 * xqtrain.c - command line of the network trainer: loads training records,
 * trains the float net (train_loop.h), exports quantised .nnue nets, and
 * inspects nets (info, eval). See tools/xqtrain/README.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "train_ckpt.h"
#include "train_export.h"
#include "train_lift.h"
#include "train_loop.h"
#include "engine/version.h"

enum {
    EXIT_USAGE = 2,
    MAX_FILES = 256,
    DEFAULT_EPOCHS = 20,
    DEFAULT_BATCH = 16384,
    DEFAULT_DROP_EVERY = 8,
    DEFAULT_THREADS = 2,
    DEFAULT_EVAL_LINES = 20,
    DESC_LEN = 128,
    DEFAULT_FEATURE_SET = NNUE_FEATURE_SET_KING, /* a fresh net: network v2 (king buckets) */
    DEFAULT_HIDDEN = 512,
    LIFT_CHECK_POSITIONS = 1000, /* positions on which a lifted start net is compared with the one it came from */
};
static const double DEFAULT_LR = 0.001, DEFAULT_GAMMA = 0.3, DEFAULT_MIN_FRAC = 0.01, DEFAULT_LAMBDA = 0.5;
/* the best of 0, 1, 5, 20 on 1.5 M positions (tools/xqtrain/README.md) */
static const double DEFAULT_WEIGHT_DECAY = 5.0;
static const double DEFAULT_POWER = 2.0, DEFAULT_VALID_FRAC = 0.02, DEFAULT_PROGRESS_S = 10.0;

static const char USAGE[] =
    "usage: xqtrain [train] -data FILE... -out DIR [options]   train a net on record files\n"
    "       xqtrain info NET.nnue                              print a net's header, check its checksum\n"
    "       xqtrain restamp IN.nnue OUT.nnue                   rewrite a loadable net in this version's format\n"
    "       xqtrain eval -net NET.nnue -data FILE [-n N]       integer eval vs score of records\n"
    "       xqtrain probe -net NET.nnue [-fen FEN]...          integer eval of positions [material probes]\n"
    "       xqtrain --help | --version\n"
    "train options (defaults in brackets):\n"
    "  -valid FILE...       validation files [none: -valid-frac of each data file]\n"
    "  -valid-frac F        hold out the last F of each data file, cut at a game start [0.02]\n"
    "  -epochs N [20]  -epoch-size N positions per epoch [the training set]  -batch N [16384]\n"
    "  -lr X [0.001]  -lr-drop-every E [8; 0 never]  -lr-gamma G [0.3]\n"
    "  -schedule step|cosine [step]  -lr-min-frac F   cosine floor, times -lr [0.01]\n"
    "  -lambda L  weight of the game result in the target [0.5]\n"
    "  -k auto|K  sigmoid scale in cp [auto: fitted to the training data]  -power P [2]\n"
    "  -threads N [2]  -seed S [1]\n"
    "  -features 1|2  inputs: 1 the 1260 piece-square ones, 2 those per king bucket (7560) [2; -init: its net's]\n"
    "  -hidden H  first-layer width, a multiple of 32 up to 1024 [512; -init: its net's]\n"
    "  -init FILE  start from a checkpoint (with its Adam state) or a .nnue net; given a wider -hidden, or\n"
    "      -features 2 for a feature-set-1 net, it is lifted to that shape, evaluating the same (fresh Adam state)\n"
    "  -stage2 L2xL3  a second stage 2 x hidden -> L2 -> L3 -> 1 beside the linear output (L2, L3 up to 32; e.g.\n"
    "      16x32), output weights 0 at the start [none; -init: its net's, or added to one without]\n"
    "  -lr-stage2 X  the second stage's learning rate, times the rate of the rest [1]\n"
    "  -desc TEXT  description written into the nets [settings]\n"
    "  -min-ply N [16; 0 for data without plies]  -max-score CP [3000]\n"
    "  -keep-check  -keep-capture  -keep-mate   keep records the filters would skip\n"
    "  -factorise on|off  train shared virtual rows (material, file, rank) folded into the net [on]\n"
    "  -mirror on|off  train on the left-right mirror of each position with probability 1/2 [on]\n"
    "  -init-material on|off  start a fresh net with 8 hidden units computing the material balance [off]\n"
    "  -patience N  stop after N epochs without a better validation loss [0: never]\n"
    "  -wd X  decoupled weight decay of the first-layer rows a batch touches: w *= 1 - lr X [5]\n"
    "  -wd-buckets X  more decay on feature set 2's king-bucket rows (not the shared psq rows) [0]\n"
    "  -qat-epochs N|all  the last N epochs (or all) train the weights on their quantisation grid [all]\n"
    "  -export-tolerance CP  mean |float - int eval| the final net must stay within [5]\n"
    "  -save-every N  epoch-N files every N epochs [1]  -progress S  seconds between progress lines [10; 0 none]\n";

/* The default positions of probe: the start position and the start position less one piece. */
static const char *const PROBE_FENS[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",  /* black rook a9 missing */
    "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",  /* red rook a0 missing */
    "r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",  /* black horse b9 */
    "rnbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",    /* black cannon b7 */
    "rn1akabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",  /* black elephant c9 */
    "rnbak1bnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",  /* black advisor f9 */
    "rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",    /* black pawn e6 */
    "rnbakabnr/9/1c5c1/p3p3p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",      /* black pawns c6, g6 */
    "1nbakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",  /* black rook a9, horse h9 */
};

/* Parsed options of the train command. */
typedef struct Args {
    const char *data[MAX_FILES], *valid[MAX_FILES];
    int data_count, valid_count;
    double valid_frac, weight_decay, bucket_decay, stage2_lr_scale;
    const char *out_dir, *init, *desc;
    bool k_auto, factorise, init_material;
    int feature_set, hidden; /* 0: not given (the -init net's, else DEFAULT_FEATURE_SET and DEFAULT_HIDDEN) */
    int l2, l3;              /* -stage2; 0: not given (the -init net's, else none) */
    TrainFilter filter;
    TrainOptions opt;
} Args;

/* Parses a whole decimal number into *out within [lo, hi]; false if it is not one. */
static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Parses a finite number into *out within [lo, hi]. */
static bool parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Parses "on" or "off" into *out; false if it is neither. */
static bool parse_on_off(const char *s, bool *out)
{
    if (strcmp(s, "on") != 0 && strcmp(s, "off") != 0)
        return false;
    *out = strcmp(s, "on") == 0;
    return true;
}

/* Collects the file names after a list option; returns how many were taken. */
static int take_files(int argc, char **argv, int i, const char **out, int *count)
{
    int n = 0;
    while (i + n < argc && argv[i + n][0] != '-' && *count < MAX_FILES)
        out[(*count)++] = argv[i + n++];
    return n;
}

/* Fills the defaults of the train command. */
static void args_default(Args *a)
{
    memset(a, 0, sizeof *a);
    a->valid_frac = -1;
    a->k_auto = true;
    a->factorise = true;
    a->weight_decay = DEFAULT_WEIGHT_DECAY;
    a->stage2_lr_scale = 1.0;
    a->filter = train_filter_default();
    TrainOptions *o = &a->opt;
    o->epochs = DEFAULT_EPOCHS;
    o->batch = DEFAULT_BATCH;
    o->sched = (Schedule){ DEFAULT_LR, DEFAULT_DROP_EVERY, DEFAULT_GAMMA, false, DEFAULT_MIN_FRAC, DEFAULT_EPOCHS };
    o->loss = (LossSpec){ 0, DEFAULT_LAMBDA, DEFAULT_POWER };
    o->threads = DEFAULT_THREADS;
    o->qat_epochs = TRAIN_QAT_ALL; /* best.nnue may come from any epoch: all of them on the grid */
    o->mirror = true;
    o->seed = 1;
    o->save_every = 1;
    o->export_tolerance = EXPORT_MEAN_TOLERANCE_CP;
    o->progress_s = DEFAULT_PROGRESS_S;
    o->log = stdout;
}

/* An option with an int value and its range. */
typedef struct IntOption {
    const char *name;
    long lo, hi;
    int *dst;
} IntOption;

/* An option with a real value and its range. */
typedef struct RealOption {
    const char *name;
    double lo, hi;
    double *dst;
} RealOption;

/* Parses one option name with its value v; returns 2 (arguments used), 0 if unknown, -1 if the value is bad. */
static int parse_valued(Args *a, const char *name, const char *v)
{
    TrainOptions *o = &a->opt;
    const IntOption ints[] = {
        { "-epochs", 1, 1000000, &o->epochs }, { "-batch", 1, 1 << 24, &o->batch },
        { "-lr-drop-every", 0, 1000000, &o->sched.drop_every }, { "-threads", 1, TRAIN_MAX_THREADS, &o->threads },
        { "-hidden", NNUE_HIDDEN_STEP, NNUE_HIDDEN_MAX, &a->hidden }, { "-features", 1, 2, &a->feature_set },
        { "-min-ply", 0, 65535, &a->filter.min_ply },
        { "-max-score", 0, INT16_MAX, &a->filter.max_score }, { "-save-every", 0, 1000000, &o->save_every },
        { "-patience", 0, 1000000, &o->patience },
    };
    const RealOption reals[] = {
        { "-valid-frac", 0, 0.5, &a->valid_frac }, { "-lr", 0, 10, &o->sched.lr },
        { "-lr-gamma", 0, 1, &o->sched.gamma },
        { "-lr-min-frac", 0, 1, &o->sched.min_frac }, { "-lambda", 0, 1, &o->loss.lambda },
        { "-power", 1, 10, &o->loss.power }, { "-progress", 0, 1e6, &o->progress_s },
        { "-export-tolerance", 0, 1e6, &o->export_tolerance }, { "-wd", 0, 1e4, &a->weight_decay },
        { "-wd-buckets", 0, 1e4, &a->bucket_decay }, { "-lr-stage2", 0, 1e4, &a->stage2_lr_scale },
    };
    long l = 0;
    bool ok = true;
    if (strcmp(name, "-out") == 0) {
        a->out_dir = v;
    } else if (strcmp(name, "-init") == 0) {
        a->init = v;
    } else if (strcmp(name, "-stage2") == 0) {
        char tail;
        ok = sscanf(v, "%dx%d%c", &a->l2, &a->l3, &tail) == 2 && a->l2 >= 1 && nnue_stage2_ok(a->l2, a->l3);
    } else if (strcmp(name, "-desc") == 0) {
        a->desc = v;
        if (strlen(v) > NNUE_DESC_SIZE)
            fprintf(stderr, "xqtrain: warning: -desc has %zu bytes; a net's header keeps the first %d\n", strlen(v),
                    NNUE_DESC_SIZE);
    } else if (strcmp(name, "-epoch-size") == 0) {
        ok = parse_long(v, 1, (long)UINT32_MAX, &l);
        o->epoch_size = (size_t)l;
    } else if (strcmp(name, "-seed") == 0) {
        ok = parse_long(v, 0, INT32_MAX, &l);
        o->seed = (uint64_t)l;
    } else if (strcmp(name, "-schedule") == 0) {
        o->sched.cosine = strcmp(v, "cosine") == 0;
        ok = o->sched.cosine || strcmp(v, "step") == 0;
    } else if (strcmp(name, "-factorise") == 0) {
        ok = parse_on_off(v, &a->factorise);
    } else if (strcmp(name, "-qat-epochs") == 0) {
        ok = strcmp(v, "all") == 0 || parse_long(v, 0, 1000000, &l);
        o->qat_epochs = strcmp(v, "all") == 0 ? TRAIN_QAT_ALL : (int)l;
    } else if (strcmp(name, "-init-material") == 0) {
        ok = parse_on_off(v, &a->init_material);
    } else if (strcmp(name, "-mirror") == 0) {
        ok = parse_on_off(v, &o->mirror);
    } else if (strcmp(name, "-k") == 0) {
        a->k_auto = strcmp(v, "auto") == 0;
        ok = a->k_auto || parse_double(v, 1, 1e6, &o->loss.k);
    } else {
        size_t i, j;
        for (i = 0; i < sizeof ints / sizeof ints[0] && strcmp(name, ints[i].name) != 0; i++)
            ;
        for (j = 0; j < sizeof reals / sizeof reals[0] && strcmp(name, reals[j].name) != 0; j++)
            ;
        if (i < sizeof ints / sizeof ints[0]) {
            ok = parse_long(v, ints[i].lo, ints[i].hi, &l);
            *ints[i].dst = ok ? (int)l : *ints[i].dst;
        } else if (j < sizeof reals / sizeof reals[0]) {
            ok = parse_double(v, reals[j].lo, reals[j].hi, reals[j].dst);
        } else {
            return 0;
        }
        ok = ok && (strcmp(name, "-hidden") != 0 || a->hidden % NNUE_HIDDEN_STEP == 0);
    }
    if (!ok) {
        fprintf(stderr, "xqtrain: bad value '%s' for %s\n", v, name);
        return -1;
    }
    return 2;
}

/* Parses the train command's arguments; false (after a message) on a usage error. */
static bool parse_args(int argc, char **argv, Args *a)
{
    args_default(a);
    for (int i = 0; i < argc;) {
        const char *s = argv[i];
        if (strcmp(s, "-data") == 0 || strcmp(s, "-valid") == 0) {
            bool data = s[1] == 'd';
            int n = take_files(argc, argv, i + 1, data ? a->data : a->valid, data ? &a->data_count : &a->valid_count);
            if (n == 0) {
                fprintf(stderr, "xqtrain: %s needs at least one file\n", s);
                return false;
            }
            i += 1 + n;
        } else if (strcmp(s, "-keep-check") == 0 || strcmp(s, "-keep-capture") == 0 || strcmp(s, "-keep-mate") == 0) {
            bool *flag = s[6] == 'h'   ? &a->filter.keep_check
                         : s[6] == 'a' ? &a->filter.keep_capture
                                       : &a->filter.keep_mate;
            *flag = true;
            i++;
        } else {
            int used = i + 1 < argc ? parse_valued(a, s, argv[i + 1]) : 0;
            if (used < 0)
                return false;
            if (used == 0) {
                fprintf(stderr, "xqtrain: unknown option or missing value: %s\n%s", s, USAGE);
                return false;
            }
            i += used;
        }
    }
    if (a->data_count == 0 || !a->out_dir) {
        fprintf(stderr, "xqtrain: -data and -out are required\n%s", USAGE);
        return false;
    }
    if (a->valid_count && a->valid_frac > 0) {
        fprintf(stderr, "xqtrain: give -valid or -valid-frac, not both\n");
        return false;
    }
    if (a->valid_frac < 0)
        a->valid_frac = a->valid_count ? 0 : DEFAULT_VALID_FRAC;
    a->opt.sched.epochs = a->opt.epochs;
    return true;
}

/* Prints one line of filter counts. */
static void print_counts(const char *what, const TrainCounts *c)
{
    uint64_t total = 0;
    for (int r = 0; r < REASON_COUNT; r++)
        total += c->n[r];
    printf("%s: %llu records, kept %llu", what, (unsigned long long)total, (unsigned long long)c->n[REASON_KEPT]);
    for (int r = REASON_KEPT + 1; r < REASON_COUNT; r++)
        printf(", %s %llu", TRAIN_REASON_NAME[r], (unsigned long long)c->n[r]);
    printf("\n");
}

/* Loads the data and validation files; false after a message. */
static bool load_all(const Args *a, TrainSet *train, TrainSet *valid)
{
    TrainCounts tc = { { 0 } }, vc = { { 0 } };
    for (int i = 0; i < a->data_count + a->valid_count; i++) {
        bool is_valid = i >= a->data_count;
        const char *path = is_valid ? a->valid[i - a->data_count] : a->data[i];
        TrainCounts scratch = { { 0 } };
        bool unknown;
        XqError err;
        bool ok = is_valid ? train_load_file(path, &a->filter, 1.0, train, valid, &scratch, &vc, &unknown, &err)
                           : train_load_file(path, &a->filter, a->valid_frac, train, valid, &tc, &vc, &unknown, &err);
        if (!ok) {
            fprintf(stderr, "xqtrain: %s\n", err.msg);
            return false;
        }
        if (unknown && a->filter.min_ply > 0)
            printf("%s: no ply information (every ply 0 or 0xFFFF): not filtered by ply\n", path);
    }
    print_counts("training", &tc);
    print_counts("validation", &vc);
    return true;
}

/* Makes the output directory (one level); false after a message. */
static bool make_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return true;
    fprintf(stderr, "xqtrain: cannot create %s\n", dir);
    return false;
}

/* Prints how far a lifted start net's float evaluation is from its source's on up to LIFT_CHECK_POSITIONS positions
 * of a set (0 by construction, train_lift.h). */
static void report_lift(const Net *from, const Net *lifted, const TrainSet *set)
{
    Scratch a, b;
    if (!scratch_alloc(&a, from->shape.hidden) || !scratch_alloc(&b, lifted->shape.hidden)) {
        scratch_free(&a);
        return;
    }
    size_t n = set->count < LIFT_CHECK_POSITIONS ? set->count : LIFT_CHECK_POSITIONS;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        const TrainPos *p = &set->pos[i * set->count / n];
        double d = fabs(net_eval_cp(lifted, p, &b) - net_eval_cp(from, p, &a));
        worst = d > worst ? d : worst;
    }
    printf("lifted to feature set %d, hidden %d, second stage %dx%d: max |float eval - start net's| %.6f cp on %zu "
           "positions\n", lifted->shape.feature_set, lifted->shape.hidden, lifted->shape.l2, lifted->shape.l3, worst, n);
    scratch_free(&a);
    scratch_free(&b);
}

/* Loads the -init net into net and adam, lifted to the shape the options ask for; false after a message. */
static bool start_from_file(const Args *a, const TrainSet *check, Net *net, Adam *adam)
{
    XqError err;
    if (!init_from_file(a->init, net, adam, &err)) {
        fprintf(stderr, "xqtrain: %s\n", err.msg);
        return false;
    }
    printf("start net: %s (feature set %d, hidden %d, Adam step %llu)\n", a->init, net->shape.feature_set,
           net->shape.hidden, (unsigned long long)adam->step);
    NnueShape want = train_shape(a->feature_set ? a->feature_set : net->shape.feature_set,
                                 a->hidden ? a->hidden : net->shape.hidden);
    want.l2 = a->l2 ? a->l2 : net->shape.l2;
    want.l3 = a->l3 ? a->l3 : net->shape.l3;
    if (want.feature_set == net->shape.feature_set && want.hidden == net->shape.hidden && want.l2 == net->shape.l2
        && want.l3 == net->shape.l3)
        return true;
    Net lifted;
    if (!net_lift(net, &want, a->opt.seed, &lifted, &err)) {
        fprintf(stderr, "xqtrain: %s: %s\n", a->init, err.msg);
        return false;
    }
    report_lift(net, &lifted, check);
    net_free(net);
    adam_free(adam);
    *net = lifted;
    if (!adam_alloc(adam, net)) {
        fprintf(stderr, "xqtrain: out of memory\n");
        return false;
    }
    return true;
}

/* The train command. */
static int cmd_train(int argc, char **argv)
{
    Args a;
    if (!parse_args(argc, argv, &a))
        return EXIT_USAGE;
    TrainSet train = { 0 }, valid = { 0 };
    Net net = { 0 };
    Adam adam = { 0 };
    int status = 1;
    if (!make_dir(a.out_dir) || !load_all(&a, &train, &valid))
        goto done;
    if (a.k_auto) {
        a.opt.loss.k = train_fit_k(&train);
        printf("K = %.1f (fitted on the training set)\n", a.opt.loss.k);
    }
    if (a.init) {
        if (!start_from_file(&a, valid.count ? &valid : &train, &net, &adam))
            goto done;
        if (a.init_material)
            printf("-init-material is for a fresh net: ignored with -init\n");
    } else {
        NnueShape shape = train_shape(a.feature_set ? a.feature_set : DEFAULT_FEATURE_SET,
                                      a.hidden ? a.hidden : DEFAULT_HIDDEN);
        shape.l2 = a.l2;
        shape.l3 = a.l3;
        if (!net_alloc(&net, &shape) || !adam_alloc(&adam, &net)) {
            fprintf(stderr, "xqtrain: out of memory\n");
            goto done;
        }
        net_init_random(&net, a.opt.seed);
        if (a.init_material)
            net_init_material(&net);
    }
    net.qat = false;
    net.factorised = a.factorise;
    adam.weight_decay = a.weight_decay;
    adam.bucket_decay = a.bucket_decay;
    adam.stage2_lr_scale = a.stage2_lr_scale;
    if (!a.factorise)
        net_unfactorise(&net, adam.m, adam.v); /* a factorised start net's virtual rows go into its real rows */
    net_sync(&net);
    char desc[DESC_LEN];
    snprintf(desc, sizeof desc, "xqtrain: %d epochs, lambda %.2f, K %.1f, seed %llu", a.opt.epochs,
             a.opt.loss.lambda, a.opt.loss.k, (unsigned long long)a.opt.seed);
    a.opt.desc = a.desc ? a.desc : desc;
    a.opt.out_dir = a.out_dir;
    if (net.shape.l2)
        printf("second stage: 2 x %d -> %d -> %d -> 1 per output bucket, learning rate x %g\n", net.shape.hidden,
               net.shape.l2, net.shape.l3, a.stage2_lr_scale);
    printf("feature set %d (%d inputs), hidden %d%s%s, weight decay %g (buckets %g more), %d epochs of %zu positions, "
           "batch %d, lr %g (%s), lambda %.2f, K %.1f, power %.2f, %d threads, seed %llu\n", net.shape.feature_set,
           net.shape.inputs, net.shape.hidden, net.factorised ? ", factorised" : "",
           a.opt.mirror ? ", mirror augmentation" : "", a.weight_decay, a.bucket_decay, a.opt.epochs,
           a.opt.epoch_size ? a.opt.epoch_size : train.count,
           a.opt.batch, a.opt.sched.lr, a.opt.sched.cosine ? "cosine" : "step", a.opt.loss.lambda, a.opt.loss.k,
           a.opt.loss.power, a.opt.threads, (unsigned long long)a.opt.seed);
    if (!nnue_shape_ok(&net.shape))
        printf("hidden %d is not a width the engine runs: only checkpoints are written\n", net.shape.hidden);
    printf("initial valid loss %.6f\n", train_eval_loss(&net, &valid, &a.opt.loss, a.opt.threads));
    fflush(stdout);
    status = train_run(&net, &adam, &train, &valid, &a.opt, NULL);
done:
    train_set_free(&train);
    train_set_free(&valid);
    net_free(&net);
    adam_free(&adam);
    return status;
}

/* The info command: header fields and checksum of a net. */
static int cmd_info(int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "%s", USAGE);
        return EXIT_USAGE;
    }
    XqError err;
    size_t n;
    uint8_t *buf = read_whole_file(argv[0], &n, &err);
    NnueHeader h;
    if (!buf || !nnue_parse_header(buf, n, &h, &err)) {
        fprintf(stderr, "xqtrain: %s%s%s\n", buf ? argv[0] : "", buf ? ": " : "", err.msg);
        free(buf);
        return 1;
    }
    printf("version %u, feature set %u, inputs %u, hidden %u, buckets %u, QA %u, QB %u, SCALE %u", h.version,
           h.feature_set, h.inputs, h.hidden, h.buckets, h.qa, h.qb, h.scale);
    if (h.l2 || h.l3)
        printf(", second stage %u x %u", h.l2, h.l3);
    printf("\n");
    printf("payload %u bytes (file %zu bytes), checksum %08x: %s\n", h.payload_size, n, h.checksum,
           h.actual_checksum == h.checksum && n == NNUE_HEADER_SIZE + (size_t)h.payload_size ? "ok" : "MISMATCH");
    printf("description: %s\n", h.desc);
    Network *q = nnue_parse(buf, n, &err);
    bool ok = q != NULL;
    if (!ok)
        printf("not loadable by this build: %s\n", err.msg);
    nnue_net_free(q);
    free(buf);
    return ok ? 0 : 1;
}

/* The restamp command: a net any loadable version of the format, written again in the current one (the same
 * weights and description; the current version's header and checksum). */
static int cmd_restamp(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "%s", USAGE);
        return EXIT_USAGE;
    }
    XqError err;
    Network *q = qnet_read_file(argv[0], &err);
    size_t size = 0;
    uint8_t *file = q ? qnet_image(q, &size) : NULL;
    if (q && !file)
        snprintf(err.msg, sizeof err.msg, "out of memory");
    bool ok = file && write_net_file(argv[1], file, size, &err);
    if (!ok)
        fprintf(stderr, "xqtrain: %s\n", err.msg);
    nnue_net_free(q);
    free(file);
    return ok ? 0 : 1;
}

/* The eval command: integer reference eval against the records' scores. */
static int cmd_eval(int argc, char **argv)
{
    const char *net_path = NULL, *data = NULL;
    long lines = DEFAULT_EVAL_LINES;
    for (int i = 0; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-net") == 0)
            net_path = argv[i + 1];
        else if (strcmp(argv[i], "-data") == 0)
            data = argv[i + 1];
        else if (strcmp(argv[i], "-n") != 0 || !parse_long(argv[i + 1], 0, 1000000, &lines))
            net_path = NULL;
    }
    if (!net_path || !data || argc % 2) {
        fprintf(stderr, "%s", USAGE);
        return EXIT_USAGE;
    }
    XqError err;
    TrainSet set = { 0 }, none = { 0 };
    TrainCounts c = { { 0 } };
    TrainFilter all = { true, true, true, 0, INT16_MAX };
    Network *q = qnet_read_file(net_path, &err);
    bool unknown, ok = q && train_load_file(data, &all, 0, &set, &none, &c, &c, &unknown, &err);
    if (!ok) {
        fprintf(stderr, "xqtrain: %s\n", err.msg);
    } else {
        double diff = 0;
        printf("   #  stm  result  score  net\n");
        for (size_t i = 0; i < set.count; i++) {
            int e = qnet_eval(q, &set.pos[i]);
            diff += fabs((double)e - set.pos[i].score);
            if ((long)i < lines)
                printf("%4zu  %s  %6d  %5d  %4d\n", i, set.pos[i].stm ? "b" : "r", set.pos[i].result, set.pos[i].score,
                       e);
        }
        printf("%zu records (%llu bad skipped): mean |net - score| %.1f cp\n", set.count,
               (unsigned long long)c.n[REASON_BAD], set.count ? diff / (double)set.count : 0.0);
    }
    nnue_net_free(q);
    train_set_free(&set);
    return ok ? 0 : 1;
}

/* Prints one probe line: the integer eval of a FEN from the side to move's and red's view; false if it is bad. */
static bool probe_one(const Network *q, const char *fen)
{
    XqError err;
    TrainPos p;
    if (!train_pos_from_fen(fen, &p, &err)) {
        printf("    -      -  %s  (%s)\n", fen, err.msg);
        return false;
    }
    int e = qnet_eval(q, &p);
    printf("%5d  %5d  %s\n", e, p.stm == RED ? e : -e, fen);
    return true;
}

/* The probe command: the integer eval of FENs (any number of -fen, in order) or of PROBE_FENS. */
static int cmd_probe(int argc, char **argv)
{
    const char *net_path = NULL;
    bool any_fen = false;
    for (int i = 0; i < argc; i += 2) {
        bool is_net = strcmp(argv[i], "-net") == 0, is_fen = strcmp(argv[i], "-fen") == 0;
        if (i + 1 >= argc || !(is_net || is_fen)) {
            fprintf(stderr, "xqtrain: probe: %s '%s'\n%s", is_net || is_fen ? "no value after" : "unknown option",
                    argv[i], USAGE);
            return EXIT_USAGE;
        }
        if (is_net)
            net_path = argv[i + 1];
        any_fen |= is_fen;
    }
    if (!net_path) {
        fprintf(stderr, "xqtrain: probe: -net NET.nnue is required\n%s", USAGE);
        return EXIT_USAGE;
    }
    XqError err;
    Network *q = qnet_read_file(net_path, &err);
    if (!q) {
        fprintf(stderr, "xqtrain: %s\n", err.msg);
        return 1;
    }
    int status = 0;
    printf("  stm    red  FEN\n");
    if (any_fen) {
        for (int i = 0; i < argc; i += 2)
            if (strcmp(argv[i], "-fen") == 0 && !probe_one(q, argv[i + 1]))
                status = 1;
    } else {
        for (size_t i = 0; i < sizeof PROBE_FENS / sizeof PROBE_FENS[0]; i++)
            if (!probe_one(q, PROBE_FENS[i]))
                status = 1;
    }
    nnue_net_free(q);
    return status;
}

/* Dispatches the subcommands. */
int main(int argc, char **argv)
{
    tables_init();
    if (argc >= 2 && version_common_arg(argv[1], "xqtrain", USAGE, stdout))
        return EXIT_SUCCESS;
    if (argc >= 2 && strcmp(argv[1], "info") == 0)
        return cmd_info(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "restamp") == 0)
        return cmd_restamp(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "eval") == 0)
        return cmd_eval(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "probe") == 0)
        return cmd_probe(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "train") == 0)
        return cmd_train(argc - 2, argv + 2);
    if (argc < 2) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    return cmd_train(argc - 1, argv + 1);
}
