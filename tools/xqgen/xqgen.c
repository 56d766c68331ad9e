/*
 * xqgen.c - command line of the training-data generator: self-play games of
 * the engine to record files (play), text to records (convert), records to
 * text (dump) and record statistics (stats). See tools/xqgen/README.md.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_game.h"
#include "gen_play.h"
#include "gen_text.h"
#include "base/platform.h"
#include "engine/version.h"

enum { EXIT_USAGE = 2, DEFAULT_GAMES = 100, DEFAULT_PROGRESS_S = 10, DEFAULT_THREADS = 2, MS_PER_S = 1000 };

static const char USAGE[] =
    "usage: xqgen play -out FILE [-games N] [-positions N] [-nodes 5000] [-threads 2] [-seed 1]\n"
    "                  [-random-plies 6-10] [-hash 16] [-max-plies 400] [-open-limit 200]\n"
    "                  [-resign 1500] [-resign-moves 3] [-draw-ply 80] [-draw-moves 10] [-draw-score 10]\n"
    "                  [-rules asian|chinese|check-only] [-net hce|nnue|FILE] [-progress 10] [-append]\n"
    "         self-play games at a fixed node budget, every searched position a record;\n"
    "         the file is the same for the same options whatever -threads is\n"
    "       xqgen convert IN.txt|- OUT.bin\n"
    "         'FEN;result;cp' lines (red's view, mates +-3000) or dump lines to records\n"
    "       xqgen dump FILE [-n N] [-skip K]\n"
    "         records as 'FEN;result;cp;ply;flags' (result 1/0.5/0 and cp from red's view)\n"
    "       xqgen stats FILE...\n"
    "         record count, flag fractions, results, score histogram, ply range\n"
    "       xqgen --help | --version\n";

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
        if ((cfg->rules = rules_find(val)) != NULL)
            return true;
        fprintf(stderr, "xqgen: -rules wants asian, chinese or check-only, not '%s'\n", val);
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

/* -net hce|nnue|FILE: the evaluation of the self-play searches (a loaded file is owned by *file_net). */
static bool choose_net(const char *arg, GenConfig *cfg, Network **file_net)
{
    XqError err;
    if (strcmp(arg, "hce") == 0) {
        cfg->net = NULL;
        return true;
    }
    if (strcmp(arg, "nnue") == 0) {
        cfg->net = nnue_default();
        if (!cfg->net)
            fprintf(stderr, "xqgen: this build has no built-in net (-net FILE)\n");
        return cfg->net != NULL;
    }
    *file_net = nnue_load_file(arg, NULL, &err);
    if (!*file_net) {
        fprintf(stderr, "xqgen: -net: %s\n", err.msg);
        return false;
    }
    cfg->net = *file_net;
    return true;
}

/* The play command. */
static int cmd_play(int argc, char **argv)
{
    GenConfig cfg;
    gen_config_default(&cfg);
    GenRunOptions run = { NULL, false, 0, 0, DEFAULT_THREADS, DEFAULT_PROGRESS_S, stderr, &g_interrupted };
    const char *net_arg = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-append") == 0) {
            run.append = true;
        } else if (strcmp(argv[i], "-net") == 0 && i + 1 < argc) {
            net_arg = argv[++i];
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
    Network *file_net = NULL;
    if (net_arg && !choose_net(net_arg, &cfg, &file_net))
        return EXIT_USAGE;
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
    nnue_net_free(file_net);
    if (ok || sum.games)
        gen_summary_print(stderr, &sum);
    if (!ok) {
        fprintf(stderr, "xqgen: %s\n", err.msg);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

/* The convert command. */
static int cmd_convert(int argc, char **argv)
{
    if (argc != 2) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    FILE *in = strcmp(argv[0], "-") == 0 ? stdin : fopen(argv[0], "r");
    FILE *out = in ? fopen(argv[1], "wb") : NULL;
    if (!in || !out) {
        fprintf(stderr, "xqgen: cannot %s %s\n", in ? "write" : "read", in ? argv[1] : argv[0]);
        if (in && in != stdin)
            fclose(in);
        return EXIT_FAILURE;
    }
    int64_t t0 = now_ms();
    ConvertStats st;
    XqError err;
    bool ok = gen_convert(in, out, &st, &err);
    ok = (fclose(out) == 0) && ok;
    if (in != stdin)
        fclose(in);
    double secs = (double)(now_ms() - t0) / MS_PER_S;
    fprintf(stderr, "lines %ld, records %ld, bad lines %ld in %.2f s (%.0f lines/s)\n", st.lines, st.records, st.bad,
            secs, secs > 0 ? (double)st.lines / secs : 0.0);
    for (long i = 0; i < st.bad && i < GEN_BAD_SHOWN; i++)
        fprintf(stderr, "  line %ld: %s\n", st.bad_line[i], st.bad_why[i].msg);
    if (!ok) {
        fprintf(stderr, "xqgen: %s\n", err.msg);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

/* Opens a record file, warning about a partial record at its end; NULL (with a message) if it is not one. */
static FILE *open_records(const char *path, uint64_t *count)
{
    long tail;
    XqError err;
    FILE *f = gen_open_records(path, count, &tail, &err);
    if (!f)
        fprintf(stderr, "xqgen: %s: %s\n", path, err.msg);
    else if (tail)
        fprintf(stderr, "xqgen: %s: %ld bytes after the last whole record are ignored\n", path, tail);
    return f;
}

/* The dump command. */
static int cmd_dump(int argc, char **argv)
{
    const char *path = NULL;
    unsigned long long n = UINT64_MAX, skip = 0;
    for (int i = 0; i < argc; i++) {
        bool ok = true;
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            ok = parse_num("-n", argv[++i], 0, UINT64_MAX, &n);
        else if (strcmp(argv[i], "-skip") == 0 && i + 1 < argc)
            ok = parse_num("-skip", argv[++i], 0, UINT64_MAX, &skip);
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            ok = false;
        if (!ok) {
            fputs(USAGE, stderr);
            return EXIT_USAGE;
        }
    }
    uint64_t count;
    FILE *f = path ? open_records(path, &count) : NULL;
    if (!f)
        return path ? EXIT_FAILURE : (fputs(USAGE, stderr), EXIT_USAGE);
    if (skip > count)
        skip = count;
    if (fseek(f, (long)(NNUE_REC_HEADER + skip * NNUE_REC_SIZE), SEEK_SET) != 0) {
        fprintf(stderr, "xqgen: cannot seek in %s\n", path);
        fclose(f);
        return EXIT_FAILURE;
    }
    PackedPos rec;
    uint64_t bad = 0;
    for (uint64_t i = skip; i - skip < n && gen_read_record(f, &rec); i++) {
        char line[GEN_TEXT_MAX];
        XqError err;
        if (gen_format_record(&rec, line, sizeof line, &err)) {
            puts(line);
        } else {
            fprintf(stderr, "xqgen: record %llu: %s\n", (unsigned long long)i, err.msg);
            bad++;
        }
    }
    fclose(f);
    return bad || fflush(stdout) != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The stats command. */
static int cmd_stats(int argc, char **argv)
{
    if (argc < 1) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    RecordStats st;
    memset(&st, 0, sizeof st);
    int status = EXIT_SUCCESS;
    for (int i = 0; i < argc; i++) {
        uint64_t count;
        FILE *f = open_records(argv[i], &count);
        if (!f) {
            status = EXIT_FAILURE;
            continue;
        }
        PackedPos rec;
        while (gen_read_record(f, &rec))
            gen_stats_add(&st, &rec);
        fclose(f);
    }
    gen_stats_print(stdout, &st);
    return status;
}

/* Dispatches to a subcommand. */
int main(int argc, char **argv)
{
    if (argc >= 2 && version_common_arg(argv[1], "xqgen", USAGE, stdout))
        return EXIT_SUCCESS;
    if (argc < 2) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "play") == 0)
        return cmd_play(argc - 2, argv + 2);
    if (strcmp(cmd, "convert") == 0)
        return cmd_convert(argc - 2, argv + 2);
    if (strcmp(cmd, "dump") == 0)
        return cmd_dump(argc - 2, argv + 2);
    if (strcmp(cmd, "stats") == 0)
        return cmd_stats(argc - 2, argv + 2);
    fprintf(stderr, "xqgen: unknown command '%.60s'\n\n%s", cmd, USAGE);
    return EXIT_USAGE;
}
