/*
 * xqgen.c - command line of the training-data generator: self-play games of
 * the engine to record files (play). See tools/README.md.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_game.h"
#include "gen_play.h"

enum { EXIT_USAGE = 2, DEFAULT_GAMES = 100, DEFAULT_PROGRESS_S = 10, DEFAULT_THREADS = 2 };

static const char USAGE[] =
    "usage: xqgen play -out FILE [-games N] [-positions N] [-nodes 5000] [-threads 2] [-seed 1]\n"
    "                  [-random-plies 6-10] [-hash 16] [-max-plies 400] [-open-limit 200]\n"
    "                  [-resign 1500] [-resign-moves 3] [-draw-ply 80] [-draw-moves 10] [-draw-score 10]\n"
    "                  [-rules asian|check-only] [-progress 10] [-append]\n"
    "         self-play games at a fixed node budget, every searched position a record;\n"
    "         the file is the same for the same options whatever -threads is\n";

/* Set by SIGINT/SIGTERM: play finishes writing its complete games and stops (not search state). */
static volatile sig_atomic_t g_interrupted;

/* Signal handler: asks the run to stop. */
static void on_signal(int sig)
{
    (void)sig;
    g_interrupted = 1;
}

/* Parses a whole decimal number in [lo, hi]; false (with a message) if it is not one. */
static bool parse_num(const char *opt, const char *text, unsigned long long lo, unsigned long long hi,
                      unsigned long long *out)
{
    char *end;
    unsigned long long v = text[0] == '-' ? 0 : strtoull(text, &end, 10);
    if (text[0] == '-' || end == text || *end || v < lo || v > hi) {
        fprintf(stderr, "xqgen: %s wants a number from %llu to %llu, not '%s'\n", opt, lo, hi, text);
        return false;
    }
    *out = v;
    return true;
}

/* Parses an int option value in [lo, hi] into *dst. */
static bool parse_int(const char *opt, const char *text, int lo, int hi, int *dst)
{
    unsigned long long v;
    if (!parse_num(opt, text, (unsigned long long)lo, (unsigned long long)hi, &v))
        return false;
    *dst = (int)v;
    return true;
}

/* Parses "-random-plies MIN-MAX" (or a single number). */
static bool parse_range(const char *text, GenConfig *cfg)
{
    int lo, hi, used = 0;
    if (sscanf(text, "%d-%d%n", &lo, &hi, &used) == 2 && !text[used]) {
        cfg->random_min = lo;
        cfg->random_max = hi;
        return true;
    }
    if (sscanf(text, "%d%n", &lo, &used) == 1 && !text[used]) {
        cfg->random_min = cfg->random_max = lo;
        return true;
    }
    fprintf(stderr, "xqgen: -random-plies wants MIN-MAX, not '%s'\n", text);
    return false;
}

/* Parses one valued option of play; false if it is unknown or its value is bad. */
static bool play_option(const char *opt, const char *val, GenConfig *cfg, GenRunOptions *run)
{
    const unsigned long long big = UINT64_MAX;
    unsigned long long v;
    if (strcmp(opt, "-out") == 0) {
        run->out_path = val;
        return true;
    }
    if (strcmp(opt, "-games") == 0)
        return parse_num(opt, val, 1, big, &v) && (run->games = v, true);
    if (strcmp(opt, "-positions") == 0)
        return parse_num(opt, val, 1, big, &v) && (run->positions = v, true);
    if (strcmp(opt, "-nodes") == 0)
        return parse_num(opt, val, 1, big, &v) && (cfg->nodes = v, true);
    if (strcmp(opt, "-seed") == 0)
        return parse_num(opt, val, 0, big, &v) && (cfg->seed = v, true);
    if (strcmp(opt, "-hash") == 0)
        return parse_num(opt, val, 1, TT_MAX_MB, &v) && (cfg->hash_mb = (size_t)v, true);
    if (strcmp(opt, "-random-plies") == 0)
        return parse_range(val, cfg);
    if (strcmp(opt, "-rules") == 0) {
        if (rules_set_from_name(val, &cfg->rules))
            return true;
        fprintf(stderr, "xqgen: -rules wants asian or check-only, not '%s'\n", val);
        return false;
    }
    static const struct {
        const char *name;
        size_t cfg_offset; /* offset in GenConfig, or SIZE_MAX: a GenRunOptions field */
        size_t run_offset;
        int hi;
    } INTS[] = {
        { "-threads", SIZE_MAX, offsetof(GenRunOptions, threads), GEN_MAX_THREADS },
        { "-progress", SIZE_MAX, offsetof(GenRunOptions, progress_s), 1000000 },
        { "-max-plies", offsetof(GenConfig, max_plies), 0, GEN_MAX_PLIES },
        { "-open-limit", offsetof(GenConfig, open_limit), 0, SCORE_INF },
        { "-resign", offsetof(GenConfig, resign_cp), 0, SCORE_INF },
        { "-resign-moves", offsetof(GenConfig, resign_moves), 0, GEN_MAX_PLIES },
        { "-draw-ply", offsetof(GenConfig, draw_ply), 0, GEN_MAX_PLIES },
        { "-draw-moves", offsetof(GenConfig, draw_moves), 0, GEN_MAX_PLIES },
        { "-draw-score", offsetof(GenConfig, draw_cp), 0, SCORE_INF },
    };
    for (size_t i = 0; i < sizeof INTS / sizeof *INTS; i++) {
        if (strcmp(opt, INTS[i].name) != 0)
            continue;
        int *dst = INTS[i].cfg_offset == SIZE_MAX ? (int *)((char *)run + INTS[i].run_offset)
                                                  : (int *)((char *)cfg + INTS[i].cfg_offset);
        return parse_int(opt, val, 0, INTS[i].hi, dst);
    }
    fprintf(stderr, "xqgen: unknown option %s\n", opt);
    return false;
}

/* The play command. */
static int cmd_play(int argc, char **argv)
{
    GenConfig cfg;
    gen_config_default(&cfg);
    GenRunOptions run = { NULL, false, 0, 0, DEFAULT_THREADS, DEFAULT_PROGRESS_S, stderr, &g_interrupted };
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-append") == 0) {
            run.append = true;
        } else if (i + 1 >= argc || !play_option(argv[i], argv[i + 1], &cfg, &run)) {
            fputs(USAGE, stderr);
            return EXIT_USAGE;
        } else {
            i++;
        }
    }
    if (!run.out_path) {
        fprintf(stderr, "xqgen: play needs -out FILE\n%s", USAGE);
        return EXIT_USAGE;
    }
    if (!run.games && !run.positions)
        run.games = DEFAULT_GAMES;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND; /* a second signal kills at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    GenSummary sum;
    XqError err;
    bool ok = gen_run(&cfg, &run, &sum, &err);
    if (ok || sum.games)
        gen_summary_print(stderr, &sum);
    if (!ok) {
        fprintf(stderr, "xqgen: %s\n", err.msg);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

/* Dispatches to a subcommand. */
int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "play") == 0)
        return cmd_play(argc - 2, argv + 2);
    fputs(USAGE, stderr);
    return strcmp(cmd, "-help") == 0 || strcmp(cmd, "help") == 0 ? EXIT_SUCCESS : EXIT_USAGE;
}
