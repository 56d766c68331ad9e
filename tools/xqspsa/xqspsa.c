/*
 * xqspsa.c - command line of the SPSA tuner: a new session from a parameter file, or one resumed from its
 * state file; the engine checked, then one iteration after another (spsa.c), its games played by xqmatch
 * (spsa_match.c), the state saved (spsa_state.c) and a progress line printed after each; at the end the
 * values as lines of src/search/search_params.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/version.h"
#include "search/search_params.h"
#include "spsa.h"
#include "spsa_config.h"
#include "spsa_engine.h"
#include "spsa_match.h"
#include "spsa_state.h"

enum {
    EXIT_RUNTIME = 1, /* the games or the state file failed mid-session */
    EXIT_USAGE = 2,   /* bad arguments, parameter file or state; an engine that does not start */
    CONCURRENCY_MAX = 256,
    PATH_TEXT_MAX = 4096,
};

static const char DEFAULT_STATE[] = "xqspsa.state";

static const char USAGE[] =
    "usage: xqspsa -config FILE -engine cmd=CMD [proto=uci|ucci] [dir=DIR] [option.NAME=VALUE ...]\n"
    "              (-nodes N | -depth D | -movetime MS | -tc BASE[+INC]) -games N [options] [-- XQMATCH ARGS]\n"
    "       xqspsa -resume STATE [-stop-after N] [-concurrency N]\n"
    "\n"
    "Tunes an engine's spin options by SPSA as fishtest runs it: each iteration plays game pairs of\n"
    "engine(theta + c_k * flip) against engine(theta - c_k * flip) with xqmatch and moves theta by the\n"
    "result. Jiangjun's search constants are options of a tuning build only (cmake -DXQ_TUNE_SEARCH=ON).\n"
    "\n"
    "  -config FILE       the parameters, one a line: name, start, min, max, c_end, r_end\n"
    "  -engine KEY=VALUE  the engine as xqmatch takes it (cmd=, proto=, dir=, option.NAME=VALUE)\n"
    "  -nodes N | -depth D | -movetime MS | -tc 10+0.1   how long the engines think\n"
    "  -games N           the session's length in games (N / 2 pairs: fishtest's num_games)\n"
    "  -openings FILE     openings as xqmatch reads them, one a game pair (default: the start position)\n"
    "  -concurrency N     games at once (default 1)\n"
    "  -batch N           game pairs an iteration, played with one perturbation (default: concurrency / 2,\n"
    "                     at least 1)\n"
    "  -seed N            the flips, the roundings and the openings' order (default 1)\n"
    "  -state FILE        the state file, written after every iteration (default xqspsa.state)\n"
    "  -alpha X -gamma X -A X   the schedule (default 0.602, 0.101 and a tenth of the pairs)\n"
    "  -xqmatch PATH      the match runner (default: the one beside xqspsa, else PATH's)\n"
    "  -stop-after N      stop after N iterations of this run (resume later with -resume)\n"
    "  -resume STATE      continue the session of a state file exactly where it stopped\n"
    "  -- ARGS            more xqmatch options (-maxplies, -resign, -draw, -rules, -tb, ...)\n"
    "  -help              this text (also --help, -h, help)\n"
    "  --version          the version (first argument only)\n"
    "\n"
    "Prints a line per iteration and, at the end, the values as lines of src/search/search_params.h.\n"
    "POSIX only. Exit status: 0 done, 1 the games or the state failed mid-session, 2 bad arguments,\n"
    "parameter file or state, or an engine that does not start or lacks an option.\n";

/* What the command line asked for besides the session itself. */
typedef struct Args {
    const char *config;
    const char *state;
    const char *resume;
    int64_t games;
    int64_t stop_after; /* 0: until the session ends */
    int concurrency;    /* 0: not given */
    int batch;          /* 0: not given */
    bool seed_given;
    double alpha, gamma, big_a; /* < 0: the defaults */
} Args;

/* Prints an argument error and the usage on stderr; returns the usage exit status. */
static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n\n%s", USAGE);
    return EXIT_USAGE;
}

/* Parses a number >= 0 with decimals. */
static bool parse_real(const char *text, double *out) { return spsa_parse_real(text, out) && *out >= 0; }

/* Copies text into a setting; false (with the usage error printed) when it does not fit. */
static bool copy_setting(char *dst, size_t size, const char *text)
{
    if (snprintf(dst, size, "%s", text) < (int)size && !strpbrk(text, "\r\n"))
        return true;
    fprintf(stderr, "error: '%.60s...' is too long (or holds a line break)\n", text);
    return false;
}

/* Is a limit's value one xqmatch takes? nodes, depth and movetime are whole numbers, tc BASE[+INC] or
 * MOVES/BASE[+INC]. */
static bool limit_ok(const char *kind, const char *value)
{
    int64_t n;
    if (strcmp(kind, "tc") == 0)
        return *value && strspn(value, "0123456789./+") == strlen(value);
    return spsa_parse_int(value, 1, strcmp(kind, "depth") == 0 ? 100 : INT64_MAX, &n);
}

/* xqmatch options that xqspsa sets itself (refused after --). */
static bool reserved_for_xqspsa(const char *arg)
{
    static const char *const OWN[] = { "-engine",   "-each",       "-rounds",  "-games",    "-concurrency",
                                       "-openings", "-nodes",      "-depth",   "-movetime", "-tc",
                                       "-sprt",     "-tournament", "-shuffle", "-quiet" };
    while (arg[0] == '-' && arg[1] == '-')
        arg++;
    for (size_t i = 0; i < sizeof OWN / sizeof OWN[0]; i++)
        if (strcmp(arg, OWN[i]) == 0)
            return true;
    return false;
}

/* Reads one -engine KEY=VALUE; false (error printed) on a bad one. */
static bool engine_setting(SpsaSettings *set, const char *kv)
{
    if (!strchr(kv, '=') || kv[0] == '=') {
        usage_error("engine setting '%s' is not KEY=VALUE", kv);
        return false;
    }
    if (strncmp(kv, "name=", 5) == 0) {
        usage_error("%s", "xqspsa names the engines itself (plus and minus): leave out name=");
        return false;
    }
    if (set->engine_count == SETTING_LIST_MAX) {
        usage_error("%s", "too many engine settings");
        return false;
    }
    return copy_setting(set->engine[set->engine_count++], SETTING_TEXT_MAX, kv);
}

/* Parses the command line into run's settings and args; returns 0, -1 after -help, or an exit status. */
static int parse_args(int argc, char **argv, SpsaRun *run, Args *args)
{
    SpsaSettings *set = &run->set;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) {
                if (reserved_for_xqspsa(argv[i]))
                    return usage_error("xqspsa sets %s itself; leave it out after --", argv[i]);
                if (set->extra_count == SETTING_LIST_MAX)
                    return usage_error("%s", "too many xqmatch arguments after --");
                if (!copy_setting(set->extra[set->extra_count++], SETTING_TEXT_MAX, argv[i]))
                    return EXIT_USAGE;
            }
            break;
        }
        if (a[0] != '-')
            return usage_error("unexpected argument '%s'", a);
        while (*a == '-')
            a++;
        if (version_is_help(argv[i])) {
            fputs(USAGE, stdout);
            return -1;
        }
        if (strcmp(a, "engine") == 0) {
            int n = 0;
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                if (!engine_setting(set, argv[++i]))
                    return EXIT_USAGE;
                n++;
            }
            if (n == 0)
                return usage_error("%s", "-engine needs KEY=VALUE settings (cmd=... proto=...)");
            continue;
        }
        if (i + 1 >= argc)
            return usage_error("option '%s' needs a value", argv[i]);
        const char *v = argv[++i];
        int64_t n = 0;
        if (strcmp(a, "config") == 0) {
            args->config = v;
        } else if (strcmp(a, "state") == 0) {
            args->state = v;
        } else if (strcmp(a, "resume") == 0) {
            args->resume = v;
        } else if (strcmp(a, "nodes") == 0 || strcmp(a, "depth") == 0 || strcmp(a, "movetime") == 0
                   || strcmp(a, "tc") == 0) {
            if (!limit_ok(a, v))
                return usage_error("bad limit value '%s'", v);
            snprintf(set->limit, sizeof set->limit, "%s", a);
            if (!copy_setting(set->limit_value, sizeof set->limit_value, v))
                return EXIT_USAGE;
        } else if (strcmp(a, "games") == 0) {
            if (!spsa_parse_int(v, 2, INT64_MAX / 2, &args->games) || args->games % 2)
                return usage_error("bad number of games '%s' (even, at least 2)", v);
        } else if (strcmp(a, "openings") == 0) {
            if (!copy_setting(set->openings, sizeof set->openings, v))
                return EXIT_USAGE;
        } else if (strcmp(a, "concurrency") == 0) {
            if (!spsa_parse_int(v, 1, CONCURRENCY_MAX, &n))
                return usage_error("bad concurrency '%s' (1..256)", v);
            args->concurrency = (int)n;
        } else if (strcmp(a, "batch") == 0) {
            if (!spsa_parse_int(v, 1, 100000, &n))
                return usage_error("bad batch '%s' (game pairs an iteration, 1..100000)", v);
            args->batch = (int)n;
        } else if (strcmp(a, "seed") == 0) {
            if (!spsa_parse_int(v, 0, INT64_MAX, &n))
                return usage_error("bad seed '%s'", v);
            set->seed = (uint64_t)n;
            args->seed_given = true;
        } else if (strcmp(a, "stop-after") == 0) {
            if (!spsa_parse_int(v, 1, INT64_MAX, &args->stop_after))
                return usage_error("bad -stop-after '%s' (iterations, at least 1)", v);
        } else if (strcmp(a, "alpha") == 0 || strcmp(a, "gamma") == 0 || strcmp(a, "A") == 0) {
            double *d = a[0] == 'a' ? &args->alpha : a[0] == 'g' ? &args->gamma : &args->big_a;
            if (!parse_real(v, d))
                return usage_error("bad schedule value '%s'", v);
        } else if (strcmp(a, "xqmatch") == 0) {
            if (!copy_setting(set->xqmatch, sizeof set->xqmatch, v))
                return EXIT_USAGE;
        } else {
            return usage_error("unknown option '%s'", argv[i - 1]);
        }
    }
    return 0;
}

/* Checks what a resumed session may be given (the rest is the state's); returns 0 or an exit status. */
static int check_resume_args(const SpsaRun *given, const Args *args)
{
    const SpsaSettings *set = &given->set;
    if (args->config || args->state || args->games || args->batch || args->seed_given || set->engine_count
        || set->limit[0] || set->openings[0] || set->xqmatch[0] || set->extra_count || args->alpha >= 0
        || args->gamma >= 0 || args->big_a >= 0)
        return usage_error("%s",
                           "-resume takes the session from its state: only -stop-after and -concurrency go with it");
    return 0;
}

/* Starts a new session from the arguments: the parameter file, the schedule, the settings. */
static int new_session(SpsaRun *run, const Args *args)
{
    SpsaSettings *set = &run->set;
    char msg[512];
    if (!args->config)
        return usage_error("%s", "no parameter file: give -config FILE (or -resume STATE)");
    if (set->engine_count == 0)
        return usage_error("%s", "no engine: give -engine cmd=COMMAND proto=uci");
    if (!set->limit[0])
        return usage_error("%s", "no limit: give -nodes, -depth, -movetime or -tc");
    if (!args->games)
        return usage_error("%s", "no session length: give -games N");
    if (!spsa_config_load(args->config, &run->spsa, msg, sizeof msg)) {
        fprintf(stderr, "error: %s\n", msg);
        return EXIT_USAGE;
    }
    for (int i = 0; i < set->engine_count; i++)
        for (int k = 0; k < run->spsa.count; k++) {
            size_t len = strlen(run->spsa.param[k].name);
            if (strncmp(set->engine[i], "option.", 7) == 0
                && strncmp(set->engine[i] + 7, run->spsa.param[k].name, len) == 0 && set->engine[i][7 + len] == '=')
                return usage_error("%s is tuned: leave its option.NAME= out of -engine", run->spsa.param[k].name);
        }
    if (!copy_setting(set->config, sizeof set->config, args->config))
        return EXIT_USAGE;
    set->concurrency = args->concurrency ? args->concurrency : 1;
    set->batch = args->batch ? args->batch : (set->concurrency + 1) / 2;
    if (!args->seed_given)
        set->seed = 1;
    spsa_init(&run->spsa, args->games / 2, set->seed);
    if (args->alpha >= 0)
        run->spsa.alpha = args->alpha;
    if (args->gamma >= 0)
        run->spsa.gamma = args->gamma;
    if (args->big_a >= 0)
        run->spsa.big_a = args->big_a;
    spsa_schedule(&run->spsa);
    return 0;
}

/* The folder of this program's executable (for the xqmatch beside it), or NULL. */
static const char *self_dir(const char *argv0, char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n > 0)
        out[n] = '\0';
    else if (strchr(argv0, '/'))
        snprintf(out, size, "%s", argv0);
    else
        return NULL;
    char *slash = strrchr(out, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return out;
}

/* The session's opening lines: what is tuned, how, and each parameter's schedule from the first pair to the
 * last (c_k, and the step theta takes for one decisive pair, a_k / c_k). */
static void print_header(const SpsaRun *run, const char *state, bool resumed)
{
    const SpsaSettings *set = &run->set;
    const Spsa *s = &run->spsa;
    printf("xqspsa: %d parameter%s, %" PRId64
           " game pairs at %s %s, %d pair%s an iteration, concurrency %d, seed %" PRIu64 ", state %s\n",
           s->count, s->count == 1 ? "" : "s", s->pairs_total, set->limit, set->limit_value, set->batch,
           set->batch == 1 ? "" : "s", set->concurrency, set->seed, state);
    if (resumed)
        printf("xqspsa: resumed after iteration %" PRId64 " (%" PRId64 " pairs played)\n", s->iterations, s->iter);
    const double n = (double)s->pairs_total;
    for (int i = 0; i < s->count; i++) {
        const SpsaParam *p = &s->param[i];
        double c1 = p->c, cn = p->c / pow(n, s->gamma);
        double a1 = p->a / pow(s->big_a + 1, s->alpha), an = p->a / pow(s->big_a + n, s->alpha);
        printf("  %-24s start %g, range %g..%g; c %.3g -> %.3g, step a/c per decisive pair %.3g -> %.3g\n", p->name,
               p->start, p->min, p->max, c1, cn, a1 / c1, an / cn);
    }
    fflush(stdout);
}

/* The progress line of an iteration: its number, the pairs and games so far, its result, the values. */
static void print_progress(const Spsa *s, const SpsaGames *g)
{
    printf("iteration %" PRId64 ": pairs %" PRId64 "/%" PRId64 ", games %" PRId64 " (W %" PRId64 " L %" PRId64
           " D %" PRId64 "); this one W %d L %d D %d%s%s;",
           s->iterations, s->iter, s->pairs_total, 2 * s->iter, s->wins, s->losses, s->draws, g->wins, g->losses,
           g->draws, g->note[0] ? ", " : "", g->note);
    for (int i = 0; i < s->count; i++)
        printf(" %s %.2f", s->param[i].name, s->param[i].theta);
    printf("\n");
    fflush(stdout);
}

/* The values at the end of this run: as lines of SEARCH_PARAMS (the table's range and step kept) where the
 * name is one of Jiangjun's search constants, else as `name value`. */
static void print_values(const Spsa *s)
{
    printf("\n# xqspsa: after %" PRId64 " of %" PRId64 " pairs (%" PRId64 " games: W %" PRId64 " L %" PRId64
           " D %" PRId64 " for the plus side)%s\n",
           s->iter, s->pairs_total, 2 * s->iter, s->wins, s->losses, s->draws,
           spsa_done(s) ? "" : "; the session is not over (-resume STATE)");
    printf("# the values, rounded, as lines of SEARCH_PARAMS in src/search/search_params.h (X(name, default, min,\n"
           "# max, step): paste each over its line's X(...)):\n");
    for (int i = 0; i < s->count; i++) {
        const SpsaParam *p = &s->param[i];
        int k = search_param_find(p->name);
        if (k >= 0)
            printf("    X(%s, %d, %d, %d, %d)\n", p->name, spsa_rounded(p->theta), SEARCH_PARAM_INFO[k].min,
                   SEARCH_PARAM_INFO[k].max, SEARCH_PARAM_INFO[k].step);
        else
            printf("    %s %d  /* not a search constant of this build's search_params.h */\n", p->name,
                   spsa_rounded(p->theta));
    }
    fflush(stdout);
}

/* Plays iterations until the session ends or stop_after; returns the exit status. */
static int play(SpsaRun *run, const char *state, SpsaMatch *match, int64_t stop_after)
{
    char msg[1024];
    for (int64_t done = 0; !spsa_done(&run->spsa) && (stop_after == 0 || done < stop_after); done++) {
        SpsaGames games;
        if (spsa_step(&run->spsa, run->set.batch, spsa_match_play, match, &games, msg, sizeof msg) == 0) {
            fprintf(stderr, "error: iteration %" PRId64 ": %s\n(the state %s holds the last finished iteration)\n",
                    run->spsa.iterations + 1, msg, state);
            return strstr(msg, "did not start") ? EXIT_USAGE : EXIT_RUNTIME;
        }
        if (!spsa_state_save(state, run, msg, sizeof msg)) {
            fprintf(stderr, "error: the state: %s\n", msg);
            return EXIT_RUNTIME;
        }
        print_progress(&run->spsa, &games);
    }
    print_values(&run->spsa);
    return 0;
}

/* Entry point. */
int main(int argc, char **argv)
{
    if (argc >= 2 && version_common_arg(argv[1], "xqspsa", USAGE, stdout))
        return 0;
    SpsaRun *run = calloc(1, sizeof *run);
    if (!run) {
        fprintf(stderr, "error: out of memory\n");
        return EXIT_RUNTIME;
    }
    Args args = { .alpha = -1, .gamma = -1, .big_a = -1 };
    int status = parse_args(argc, argv, run, &args);
    if (status == 0 && args.resume)
        status = check_resume_args(run, &args);
    const char *state = args.resume ? args.resume : args.state ? args.state : DEFAULT_STATE;
    char msg[1024];
    if (status == 0 && args.resume) {
        if (!spsa_state_load(state, run, msg, sizeof msg)) {
            fprintf(stderr, "error: %s\n", msg);
            status = EXIT_USAGE;
        } else if (args.concurrency) {
            run->set.concurrency = args.concurrency;
        }
    } else if (status == 0) {
        status = new_session(run, &args);
        if (status == 0 && access(state, F_OK) == 0) {
            fprintf(stderr, "error: %s exists: continue its session with -resume %s, or give another -state\n", state,
                    state);
            status = EXIT_USAGE;
        }
    }
    if (status == 0 && !spsa_engine_check(&run->set, &run->spsa, msg, sizeof msg)) {
        fprintf(stderr, "error: %s\n", msg);
        status = EXIT_USAGE;
    }
    SpsaMatch match;
    char dir[PATH_TEXT_MAX];
    if (status == 0
        && !spsa_match_init(&match, &run->set, state, self_dir(argv[0], dir, sizeof dir), msg, sizeof msg)) {
        fprintf(stderr, "error: %s\n", msg);
        status = EXIT_USAGE;
    } else if (status == 0) {
        if (!args.resume && !spsa_state_save(state, run, msg, sizeof msg)) {
            fprintf(stderr, "error: the state: %s\n", msg);
            status = EXIT_RUNTIME;
        } else {
            print_header(run, state, args.resume != NULL);
            status = play(run, state, &match, args.stop_after);
        }
        spsa_match_free(&match);
    }
    free(run);
    return status < 0 ? 0 : status;
}
