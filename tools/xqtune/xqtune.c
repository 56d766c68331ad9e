/*
 * xqtune.c - command line of the evaluation tuner (Texel method): extracts
 * labelled positions from xqmatch PGN, fits the EvalParams weights to game
 * results, and prints tuned weights as a params file or as the C initialiser
 * of EVAL_DEFAULTS. See tools/xqtune/README.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/eval_params.h"
#include "board/square.h"
#include "tune_data.h"
#include "tune_opt.h"
#include "tune_pgn.h"
#include "tune_print.h"
#include "engine/version.h"

enum { EXIT_USAGE = 2, DEFAULT_EPOCHS = 1000, DEFAULT_REPORT_EVERY = 100, DEFAULT_SKIP_PLIES = 0 };
static const double DEFAULT_LR = 0.5;

static const char USAGE[] =
    "usage: xqtune extract [-skip PLIES] [-valid VALID.txt N] OUT.txt GAME.pgn...\n"
    "         writes one 'FEN;result' line (red's score 1.0/0.5/0.0) per position of every game,\n"
    "         after the opening-book plies (and at least PLIES into the game); with -valid,\n"
    "         every N-th game goes to VALID.txt instead\n"
    "       xqtune tune DATA.txt [-valid DATA.txt] [-params FILE] [-max N] [-epochs N] [-lr X]\n"
    "                 [-reg X] [-k K] [-freeze F,F..|-only F,F..] [-out PARAMS] [-c FILE.c]\n"
    "                 [-patch src/eval/eval_params.c]\n"
    "         fits the weights (start: EVAL_DEFAULTS, or FILE over them) to the results;\n"
    "         -freeze keeps the named fields (e.g. pst,tempo), -only tunes just them;\n"
    "         -out writes a params file, -c the EVAL_DEFAULTS initialiser, -patch replaces it in place\n"
    "       xqtune cinit PARAMS [-patch src/eval/eval_params.c]\n"
    "         prints (or patches in) the EVAL_DEFAULTS initialiser for a params file\n"
    "       xqtune --help | --version\n";

/* Options of the tune command. */
typedef struct TuneArgs {
    const char *data, *valid, *params, *out, *c_out, *patch;
    long max;
    double k;
    TuneOptions opt;
} TuneArgs;

/* The extract command: PGN files to labelled positions. */
static int cmd_extract(int argc, char **argv)
{
    PgnExtractOutput out = { NULL, NULL, 0, DEFAULT_SKIP_PLIES };
    const char *valid_path = NULL;
    int i = 0;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-skip") == 0) {
            out.skip_plies = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "-valid") == 0 && i + 2 < argc) {
            valid_path = argv[i + 1];
            out.valid_every = atoi(argv[i + 2]);
            i++;
        } else {
            break;
        }
    }
    if (argc - i < 2 || (valid_path && out.valid_every < 1)) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    out.train = fopen(argv[i], "w");
    out.valid = valid_path ? fopen(valid_path, "w") : NULL;
    if (!out.train || (valid_path && !out.valid)) {
        fprintf(stderr, "cannot write %s\n", out.train ? valid_path : argv[i]);
        return EXIT_FAILURE;
    }
    PgnExtractStats st;
    memset(&st, 0, sizeof st);
    for (int a = i + 1; a < argc; a++)
        if (!pgn_extract_file(argv[a], &out, &st))
            fprintf(stderr, "cannot read %s\n", argv[a]);
    fclose(out.train);
    if (out.valid)
        fclose(out.valid);
    printf("games %ld (%ld for validation), skipped %ld, positions %ld\n", st.games, st.valid_games, st.skipped,
           st.positions);
    return EXIT_SUCCESS;
}

/* Loads a data set and prints what loading did. */
static bool load_set(TuneSet *set, const char *path, const EvalParams *p, long max)
{
    TuneLoadStats st;
    memset(&st, 0, sizeof st);
    if (!tune_set_load(set, path, p, max, &st)) {
        fprintf(stderr, "cannot load %s\n", path);
        return false;
    }
    printf("%s: %ld lines, %ld bad, %ld in check, %ld with a checked qsearch leaf; kept %ld (%ld moved to "
           "their qsearch leaf)\n  model vs evaluate(): max gap %d, %ld positions beyond rounding\n",
           path, st.lines, st.bad, st.in_check, st.leaf_in_check, st.kept, st.resolved, st.max_model_error,
           st.model_errors);
    return true;
}

/* Freezes the comma-separated fields in names (or, with only, every other field); false on an unknown name. */
static bool mark_fields(const char *names, bool *frozen, bool only)
{
    bool listed[EVAL_PARAM_FIELDS] = { false };
    for (const char *t = names; *t;) {
        size_t n = strcspn(t, ",");
        int f = 0;
        while (f < EVAL_PARAM_FIELDS
               && !(strlen(EVAL_PARAM_FIELD[f].name) == n && strncmp(EVAL_PARAM_FIELD[f].name, t, n) == 0))
            f++;
        if (f == EVAL_PARAM_FIELDS) {
            fprintf(stderr, "unknown weight '%.*s'\n", (int)n, t);
            return false;
        }
        listed[f] = true;
        t += n + (t[n] == ',');
    }
    for (int f = 0; f < EVAL_PARAM_FIELDS; f++)
        if (listed[f] != only)
            for (size_t j = 0; j < EVAL_PARAM_FIELD[f].len; j++)
                frozen[EVAL_PARAM_FIELD[f].offset + j] = true;
    return true;
}

/* Parses the options of the tune command; false on a usage error. */
static bool parse_tune_args(int argc, char **argv, TuneArgs *a)
{
    memset(a, 0, sizeof *a);
    a->opt.epochs = DEFAULT_EPOCHS;
    a->opt.lr = DEFAULT_LR;
    a->opt.report_every = DEFAULT_REPORT_EVERY;
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (o[0] != '-') {
            a->data = o;
            continue;
        }
        if (!v)
            return false;
        i++;
        if (!strcmp(o, "-valid"))
            a->valid = v;
        else if (!strcmp(o, "-params"))
            a->params = v;
        else if (!strcmp(o, "-max"))
            a->max = atol(v);
        else if (!strcmp(o, "-epochs"))
            a->opt.epochs = atoi(v);
        else if (!strcmp(o, "-lr"))
            a->opt.lr = atof(v);
        else if (!strcmp(o, "-reg"))
            a->opt.reg = atof(v);
        else if (!strcmp(o, "-k"))
            a->k = atof(v);
        else if (!strcmp(o, "-out"))
            a->out = v;
        else if (!strcmp(o, "-c"))
            a->c_out = v;
        else if (!strcmp(o, "-patch"))
            a->patch = v;
        else if (!strcmp(o, "-freeze") || !strcmp(o, "-only")) {
            if (!mark_fields(v, a->opt.frozen, !strcmp(o, "-only")))
                return false;
        }
        else
            return false;
    }
    return a->data != NULL;
}

/* Writes the tuned weights where the options ask. */
static bool write_results(const TuneArgs *a, const EvalParams *p)
{
    bool ok = true;
    FILE *f;
    if (a->out && (ok = (f = fopen(a->out, "w")) != NULL)) {
        tune_write_params(f, p);
        fclose(f);
    }
    if (ok && a->c_out && (ok = (f = fopen(a->c_out, "w")) != NULL)) {
        tune_print_c(f, p);
        fclose(f);
    }
    if (ok && a->patch)
        ok = tune_patch_c(a->patch, p);
    if (!ok)
        fputs("cannot write the results\n", stderr);
    return ok;
}

/* The tune command: fit K, then the weights, and write them. */
static int cmd_tune(int argc, char **argv)
{
    TuneArgs a;
    if (!parse_tune_args(argc, argv, &a)) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    EvalParams p = EVAL_DEFAULTS;
    XqError err;
    if (a.params && !eval_params_load(&p, a.params, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return EXIT_FAILURE;
    }
    a.opt.mating_div = p.no_mating_material_div;
    TuneSet train, valid;
    memset(&train, 0, sizeof train);
    memset(&valid, 0, sizeof valid);
    if (!load_set(&train, a.data, &p, a.max) || (a.valid && !load_set(&valid, a.valid, &p, 0)))
        return EXIT_FAILURE;
    double w[EVAL_PARAM_INTS];
    int *pi = (int *)&p;
    for (size_t j = 0; j < EVAL_PARAM_INTS; j++)
        w[j] = pi[j];
    double k = a.k > 0 ? a.k : tune_fit_k(&train, w, a.opt.mating_div);
    printf("K %.6f  start: train mse %.7f", k, tune_mse(&train, w, k, a.opt.mating_div));
    if (a.valid)
        printf("  valid mse %.7f", tune_mse(&valid, w, k, a.opt.mating_div));
    printf("\n");
    fflush(stdout);
    tune_optimise(&train, w, k, &a.opt, stdout);
    for (size_t j = 0; j < EVAL_PARAM_INTS; j++)
        pi[j] = (int)lround(w[j]);
    for (size_t j = 0; j < EVAL_PARAM_INTS; j++)
        w[j] = pi[j];
    printf("tuned (rounded): train mse %.7f", tune_mse(&train, w, k, a.opt.mating_div));
    if (a.valid)
        printf("  valid mse %.7f", tune_mse(&valid, w, k, a.opt.mating_div));
    printf("  (K refit %.6f)\n", tune_fit_k(&train, w, a.opt.mating_div));
    bool ok = write_results(&a, &p);
    tune_set_free(&train);
    tune_set_free(&valid);
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* The cinit command: a params file to the C initialiser. */
static int cmd_cinit(int argc, char **argv)
{
    if (argc != 1 && !(argc == 3 && strcmp(argv[1], "-patch") == 0)) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    EvalParams p = EVAL_DEFAULTS;
    XqError err;
    if (!eval_params_load(&p, argv[0], &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return EXIT_FAILURE;
    }
    if (argc == 3)
        return tune_patch_c(argv[2], &p) ? EXIT_SUCCESS : EXIT_FAILURE;
    tune_print_c(stdout, &p);
    return EXIT_SUCCESS;
}

/* Dispatches the subcommand. */
int main(int argc, char **argv)
{
    tables_init();
    if (argc >= 2 && version_common_arg(argv[1], "xqtune", USAGE, stdout))
        return EXIT_SUCCESS;
    if (argc >= 2 && strcmp(argv[1], "extract") == 0)
        return cmd_extract(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "tune") == 0)
        return cmd_tune(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "cinit") == 0)
        return cmd_cinit(argc - 2, argv + 2);
    fputs(USAGE, stderr);
    return EXIT_USAGE;
}
