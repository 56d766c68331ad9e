/*
 * xqgen.c - command line of the training-data generator: self-play games of
 * the engine to record files (play, whole or a shard), shards joined (merge),
 * text to records (convert), records to text (dump), record statistics
 * (stats), and the plain and compact formats into each other (pack, unpack).
 * See tools/xqgen/README.md.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_files.h"
#include "gen_game.h"
#include "gen_play.h"
#include "gen_shard.h"
#include "gen_text.h"
#include "base/platform.h"
#include "engine/version.h"

enum { EXIT_USAGE = 2, DEFAULT_GAMES = 100, DEFAULT_PROGRESS_S = 10, DEFAULT_THREADS = 2, MS_PER_S = 1000 };

static const char USAGE[] =
    "usage: xqgen play -out FILE [-games N] [-positions N] [-nodes 5000] [-threads 2] [-seed 1]\n"
    "                  [-random-plies 6-10] [-hash 16] [-max-plies 400] [-open-limit 200]\n"
    "                  [-resign 1500] [-resign-moves 3] [-draw-ply 80] [-draw-moves 10] [-draw-score 10]\n"
    "                  [-rules asian|chinese|check-only] [-net hce|nnue|FILE] [-progress 10] [-append]\n"
    "                  [-format plain|compact] [-shard I/N]\n"
    "         self-play games at a fixed node budget, every searched position a record;\n"
    "         the file is the same for the same options whatever -threads is;\n"
    "         -shard I/N plays the I-th of N contiguous shares of -games into a shard file\n"
    "       xqgen merge -out FILE SHARD...\n"
    "         joins the N shards of a run into the bytes of the same run without -shard\n"
    "       xqgen convert [-format plain|compact] IN.txt|- OUT.bin\n"
    "         'FEN;result;cp' lines (red's view, mates +-3000) or dump lines to records\n"
    "       xqgen dump FILE [-n N] [-skip K]\n"
    "         records as 'FEN;result;cp;ply;flags' (result 1/0.5/0 and cp from red's view)\n"
    "       xqgen stats FILE...\n"
    "         record count, flag fractions, results, score histogram, ply range\n"
    "       xqgen pack IN OUT | unpack IN OUT\n"
    "         a record file into the compact format (a few bytes a position) or the plain\n"
    "         40-byte one, without loss; every command reads either format\n"
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

/* -format plain|compact. */
static bool parse_format(const char *text, RecFormat *format)
{
    if (rec_format_parse(text, format))
        return true;
    fprintf(stderr, "xqgen: error: -format wants plain or compact, not '%s'\n", text);
    return false;
}

/* -shard I/N: this run plays shard I of N of its -games (gen_shard.h); false with a message if it cannot. */
static bool setup_shard(const char *text, const char *net_arg, const GenConfig *cfg, GenRunOptions *run,
                        GenShard *shard)
{
    uint32_t index, count;
    char net_id[64];
    XqError err;
    if (!gen_shard_parse(text, &index, &count)) {
        fprintf(stderr, "xqgen: error: -shard wants I/N with 1 <= I <= N <= %d, not '%s'\n", SHARD_MAX_COUNT, text);
        return false;
    }
    if (run->positions || run->append || !run->games) {
        fprintf(stderr, "xqgen: error: -shard needs -games and neither -positions nor -append (where a -positions "
                        "run stops depends on every earlier game)\n");
        return false;
    }
    if (!gen_net_identity(net_arg, cfg->net, net_id, sizeof net_id, &err)
        || !gen_shard_init(shard, index, count, run->games, cfg, run->format, net_id, &err)) {
        fprintf(stderr, "xqgen: error: %s\n", err.msg);
        return false;
    }
    run->games = shard->games;
    run->shard = shard;
    return true;
}

/* The play command. */
static int cmd_play(int argc, char **argv)
{
    GenConfig cfg;
    gen_config_default(&cfg);
    GenRunOptions run = { .threads = DEFAULT_THREADS, .progress_s = DEFAULT_PROGRESS_S, .log = stderr,
                          .interrupted = &g_interrupted, .format = REC_PLAIN };
    const char *net_arg = NULL, *shard_arg = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-append") == 0) {
            run.append = true;
        } else if (strcmp(argv[i], "-net") == 0 && i + 1 < argc) {
            net_arg = argv[++i];
        } else if (strcmp(argv[i], "-shard") == 0 && i + 1 < argc) {
            shard_arg = argv[++i];
        } else if (strcmp(argv[i], "-format") == 0 && i + 1 < argc) {
            if (!parse_format(argv[++i], &run.format))
                return EXIT_USAGE;
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
    GenShard shard;
    if (shard_arg && !setup_shard(shard_arg, net_arg, &cfg, &run, &shard)) {
        free(file_net);
        return EXIT_USAGE;
    }
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
        fprintf(stderr, "xqgen: error: %s\n", err.msg);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

/* The convert command. */
static int cmd_convert(int argc, char **argv)
{
    RecFormat format = REC_PLAIN;
    if (argc == 4 && strcmp(argv[0], "-format") == 0) {
        if (!parse_format(argv[1], &format))
            return EXIT_USAGE;
        argc -= 2;
        argv += 2;
    }
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
    bool ok = gen_convert(in, out, format, &st, &err);
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

/* Opens a record file of either format, warning about a cut-off record or block at its end; false (with a
 * message) if it is none. */
static bool open_records(const char *path, RecReader *r, RecScan *scan)
{
    XqError err;
    if (!rec_reader_open(r, path, &err)) {
        fprintf(stderr, "xqgen: %s: %s\n", path, err.msg);
        return false;
    }
    if (!rec_reader_scan(r, scan, &err)) {
        fprintf(stderr, "xqgen: %s: %s\n", path, err.msg);
        rec_reader_close(r);
        return false;
    }
    if (scan->tail)
        fprintf(stderr, "xqgen: %s: %ld bytes after the last whole %s are ignored\n", path, scan->tail,
                r->format == REC_PLAIN ? "record" : "block");
    return true;
}

/* Reports a reader's error, if it stopped on one; returns whether it did. */
static bool read_failed(const char *path, const RecReader *r)
{
    if (r->failed)
        fprintf(stderr, "xqgen: %s: %s\n", path, r->err.msg);
    return r->failed;
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
    if (!path) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    RecReader r;
    RecScan scan;
    if (!open_records(path, &r, &scan))
        return EXIT_FAILURE;
    uint64_t i = rec_reader_skip(&r, skip), bad = 0;
    uint8_t raw[NNUE_REC_SIZE];
    for (uint64_t shown = 0; shown < n && rec_reader_next(&r, raw); i++, shown++) {
        PackedPos rec;
        char line[GEN_TEXT_MAX];
        XqError err;
        packed_decode(raw, &rec);
        if (gen_format_record(&rec, line, sizeof line, &err)) {
            puts(line);
        } else {
            fprintf(stderr, "xqgen: record %llu: %s\n", (unsigned long long)i, err.msg);
            bad++;
        }
    }
    bad += read_failed(path, &r);
    rec_reader_close(&r);
    return bad || fflush(stdout) != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Bytes per record of `bytes` bytes of records (or blocks) holding `records`. */
static double per_record(uint64_t bytes, uint64_t records) { return records ? (double)bytes / (double)records : 0.0; }

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
        RecReader r;
        RecScan scan;
        if (!open_records(argv[i], &r, &scan)) {
            status = EXIT_FAILURE;
            continue;
        }
        printf("file %s: %s, %llu records", argv[i], rec_format_name(r.format), (unsigned long long)scan.records);
        if (r.format == REC_COMPACT)
            printf(" in %llu blocks", (unsigned long long)scan.blocks);
        printf(", %llu bytes (%.2f bytes/record)\n", (unsigned long long)scan.bytes,
               per_record(scan.bytes - (uint64_t)r.start, scan.records));
        uint8_t raw[NNUE_REC_SIZE];
        while (rec_reader_next(&r, raw)) {
            PackedPos rec;
            packed_decode(raw, &rec);
            gen_stats_add(&st, &rec);
        }
        if (read_failed(argv[i], &r))
            status = EXIT_FAILURE;
        rec_reader_close(&r);
    }
    gen_stats_print(stdout, &st);
    return status;
}

/* The merge command. */
static int cmd_merge(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[0], "-out") != 0) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    MergeStats st;
    XqError err;
    if (!gen_merge(argv[1], argv + 2, argc - 2, stderr, &st, &err)) {
        fprintf(stderr, "xqgen: error: %s\n", err.msg);
        return EXIT_FAILURE;
    }
    fprintf(stderr, "merged %u shards: %llu games, %llu records, %llu bytes (%s)\n", st.shards,
            (unsigned long long)st.games, (unsigned long long)st.records, (unsigned long long)st.bytes,
            rec_format_name(st.format));
    return EXIT_SUCCESS;
}

/* The pack and unpack commands: a record file of either format into the compact or the plain one. */
static int cmd_transcode(int argc, char **argv, RecFormat format)
{
    if (argc != 2) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    TranscodeStats st;
    XqError err;
    if (!gen_transcode(argv[0], argv[1], format, &st, &err)) {
        fprintf(stderr, "xqgen: error: %s\n", err.msg);
        return EXIT_FAILURE;
    }
    double secs = (double)st.ms / MS_PER_S;
    fprintf(stderr, "records %llu: %s %llu bytes (%.2f bytes/record) -> %s %llu bytes (%.2f bytes/record)",
            (unsigned long long)st.records, rec_format_name(st.in_format), (unsigned long long)st.in_bytes,
            per_record(st.in_bytes - REC_FILE_HEADER, st.records), rec_format_name(format),
            (unsigned long long)st.out_bytes, per_record(st.out_bytes - REC_FILE_HEADER, st.records));
    fprintf(stderr, " in %.2f s (%.0f records/s)\n", secs, secs > 0 ? (double)st.records / secs : 0.0);
    return EXIT_SUCCESS;
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
    if (strcmp(cmd, "merge") == 0)
        return cmd_merge(argc - 2, argv + 2);
    if (strcmp(cmd, "pack") == 0)
        return cmd_transcode(argc - 2, argv + 2, REC_COMPACT);
    if (strcmp(cmd, "unpack") == 0)
        return cmd_transcode(argc - 2, argv + 2, REC_PLAIN);
    fprintf(stderr, "xqgen: unknown command '%.60s'\n\n%s", cmd, USAGE);
    return EXIT_USAGE;
}
