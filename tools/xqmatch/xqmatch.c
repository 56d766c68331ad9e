/*
 * xqmatch.c - command line of the xiangqi match runner: parses engines,
 * time control, openings, adjudication and output options, then runs the
 * match (match.c) and prints the summary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "board/square.h"
#include "engine/version.h"

enum {
    EXIT_USAGE = 2,
    DEFAULT_ROUNDS = 1,
    DEFAULT_MARGIN_MS = 100,
    DEFAULT_HANG_MS = 60000,
    DEFAULT_INIT_TIMEOUT_MS = 10000,
    DEFAULT_MAX_PLIES = 600,
    DEFAULT_NAME_LEN = 60, /* an engine without name= is named by the start of its command */
};

static const char USAGE[] =
    "usage: xqmatch -engine name=N cmd=CMD [dir=DIR] [proto=ucci|uci|uci10] [option.NAME=VALUE ...]\n"
    "               -engine ... [more engines]\n"
    "               (-tc BASE[+INC] | -tc MOVES/BASE[+INC] | -depth D | -nodes N | -movetime MS)\n"
    "               [options]\n"
    "\n"
    "Plays xiangqi engines against each other; every move is checked and every game\n"
    "ruled by Jiangjun's core (mate, stalemate = loss, repetition rulings, 60-move rule).\n"
    "\n"
    "Engines (two or more):\n"
    "  -engine KEY=VALUE...  name=  display name (default: the command)\n"
    "                        cmd=   command line, run through /bin/sh (exec CMD)\n"
    "                        dir=   working directory\n"
    "                        proto= ucci (default), uci (ranks 0-9, Pikafish),\n"
    "                               uci10 (ranks 1-10 after UCI_Variant xiangqi, Fairy-Stockfish)\n"
    "                        option.NAME=VALUE  sent as setoption after the handshake\n"
    "  -each KEY=VALUE...    defaults for every -engine given after it\n"
    "\n"
    "Limits (one of):\n"
    "  -tc 60+0.5            60 s per game plus 0.5 s per move (seconds, decimals allowed)\n"
    "  -tc 40/120            40 moves in 120 s, repeating (optionally +INC)\n"
    "  -depth D | -nodes N | -movetime MS\n"
    "  -margin MS            overrun tolerated before a time loss (default 100)\n"
    "  -hang MS              with -depth/-nodes: a move taking longer loses (default 60000)\n"
    "  -init-timeout MS      handshake limit (default 10000)\n"
    "\n"
    "Games:\n"
    "  -openings FILE        one opening a line: FEN or `startpos`, optionally `moves m1 m2 ...`\n"
    "  -shuffle SEED         play the openings in a shuffled order (default: file order)\n"
    "  -rounds N             game pairs per pairing; each opening is played twice,\n"
    "                        colours swapped (default 1)\n"
    "  -games N              the same as -rounds N/2 (N rounded up to even)\n"
    "  -tournament gauntlet|round-robin   (default gauntlet: the first engine against the others)\n"
    "  -concurrency N        games at once (default 1)\n"
    "\n"
    "Adjudication:\n"
    "  -rules NAME           rule set: asian (default: perpetual check and chase of one piece lose),\n"
    "                        chinese (CXA: also perpetual mate threats and mixed attacks), check-only\n"
    "  -maxplies N           draw after N plies (default 600, at most 2000)\n"
    "  -resign MOVES:CP      loss when both engines agree for MOVES moves each that the score is beyond CP\n"
    "  -draw MOVENO:MOVES:CP draw from move MOVENO when both |scores| <= CP for MOVES moves each\n"
    "  -tb DIR               end a game that reaches an ending of the tablebases in DIR by the table's\n"
    "                        value (a draw; a win when its mate comes before the 60-move rule)\n"
    "  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]   stop when the test decides (two engines)\n"
    "\n"
    "Statistics only (no games; e.g. to pool the W, L and D of several matches):\n"
    "  -stats W L D [-sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]]   (as the first argument)\n"
    "                        prints the result's score, Elo +/- its 95% error, LOS (and the SPRT's LLR)\n"
    "\n"
    "Output:\n"
    "  -pgn FILE             all games as PGN (xqbase conventions, [Format \"ICCS\"])\n"
    "  -log FILE             transcript of everything sent to and read from the engines\n"
    "  -event NAME           PGN Event tag (default \"xqmatch\")\n"
    "  -quiet                no per-game lines, only the running score\n"
    "  -help                 this text (also --help, -h, help)\n"
    "  --version             the version (first argument only)\n"
    "\n"
    "POSIX only (fork/exec, pipes, poll). Exit status: 0 done, 1 runtime error, 2 bad arguments.\n";

/* Prints an argument error and the usage hint; returns the usage exit status. */
static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "xqmatch: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n\n%s", USAGE);
    return EXIT_USAGE;
}

/* Parses a whole non-negative integer; false if malformed. */
static bool parse_int64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 0)
        return false;
    *out = v;
    return true;
}

/* Parses an int in [lo, hi]. */
static bool parse_int(const char *s, int lo, int hi, int *out)
{
    int64_t v;
    if (!parse_int64(s, &v) || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* Parses seconds with decimals into milliseconds. */
static bool parse_seconds(const char *s, int64_t *ms)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < 0 || v > 1e7)
        return false;
    *ms = (int64_t)(v * 1000.0 + 0.5);
    return true;
}

/* Parses a -tc value. */
static bool parse_tc(const char *text, TimeControl *tc)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    char *base = buf;
    tc->kind = TC_CLOCK;
    tc->moves_per_period = 0;
    tc->inc_ms = 0;
    char *slash = strchr(buf, '/');
    if (slash) {
        *slash = '\0';
        if (!parse_int(buf, 1, 1000, &tc->moves_per_period))
            return false;
        base = slash + 1;
    }
    char *plus = strchr(base, '+');
    if (plus) {
        *plus = '\0';
        if (!parse_seconds(plus + 1, &tc->inc_ms))
            return false;
    }
    return parse_seconds(base, &tc->base_ms) && (tc->base_ms > 0 || tc->inc_ms > 0);
}

/* Applies one KEY=VALUE of an engine spec; false with a message on error. */
static bool engine_key(EngineConfig *e, const char *kv, char *msg, size_t msg_size)
{
    const char *eq = strchr(kv, '=');
    if (!eq) {
        snprintf(msg, msg_size, "engine setting '%s' is not KEY=VALUE", kv);
        return false;
    }
    size_t klen = (size_t)(eq - kv);
    const char *v = eq + 1;
    if (klen == 4 && strncmp(kv, "name", 4) == 0) {
        snprintf(e->name, sizeof e->name, "%s", v);
    } else if (klen == 3 && strncmp(kv, "cmd", 3) == 0) {
        snprintf(e->cmd, sizeof e->cmd, "%s", v);
    } else if (klen == 3 && strncmp(kv, "dir", 3) == 0) {
        snprintf(e->dir, sizeof e->dir, "%s", v);
    } else if (klen == 5 && strncmp(kv, "proto", 5) == 0) {
        if (!protocol_parse(v, &e->proto)) {
            snprintf(msg, msg_size, "unknown protocol '%s' (ucci, uci or uci10)", v);
            return false;
        }
    } else if (klen > 7 && strncmp(kv, "option.", 7) == 0) {
        if (e->option_count == ENGINE_OPTIONS_MAX) {
            snprintf(msg, msg_size, "too many options (max %d)", ENGINE_OPTIONS_MAX);
            return false;
        }
        EngineOption *o = &e->options[e->option_count++];
        snprintf(o->name, sizeof o->name, "%.*s", (int)(klen - 7), kv + 7);
        snprintf(o->value, sizeof o->value, "%s", v);
    } else {
        snprintf(msg, msg_size, "unknown engine setting '%.*s'", (int)klen, kv);
        return false;
    }
    return true;
}

/* Parses "-sprt elo0=.. elo1=.. alpha=.. beta=..". */
static bool parse_sprt_key(SprtParams *p, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq)
        return false;
    char *end;
    double v = strtod(eq + 1, &end);
    if (end == eq + 1 || *end)
        return false;
    size_t k = (size_t)(eq - kv);
    if (k == 4 && strncmp(kv, "elo0", 4) == 0)
        p->elo0 = v;
    else if (k == 4 && strncmp(kv, "elo1", 4) == 0)
        p->elo1 = v;
    else if (k == 5 && strncmp(kv, "alpha", 5) == 0 && v > 0 && v < 0.5)
        p->alpha = v;
    else if (k == 4 && strncmp(kv, "beta", 4) == 0 && v > 0 && v < 0.5)
        p->beta = v;
    else
        return false;
    return true;
}

/* Fills defaults. */
static void config_defaults(MatchConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->rounds = DEFAULT_ROUNDS;
    cfg->concurrency = 1;
    cfg->tc.kind = TC_CLOCK;
    cfg->tc.margin_ms = DEFAULT_MARGIN_MS;
    cfg->tc.hang_ms = DEFAULT_HANG_MS;
    cfg->adj.max_plies = DEFAULT_MAX_PLIES;
    cfg->adj.rules = rules_default();
    cfg->init_timeout_ms = DEFAULT_INIT_TIMEOUT_MS;
    cfg->event = "xqmatch";
    cfg->sprt_params.alpha = cfg->sprt_params.beta = 0.05;
}

/* True if argv[i] is an option word (starts with '-' and is not a negative number). */
static bool is_flag(const char *s)
{
    return s[0] == '-' && !(s[1] >= '0' && s[1] <= '9');
}

/* Parses the KEY=VALUE settings after -sprt, from argv[*i + 1] on, leaving *i on the last one; 0, or the usage
 * exit status after the error message. */
static int parse_sprt_args(int argc, char **argv, int *i, SprtParams *p)
{
    bool e0 = false, e1 = false;
    while (*i + 1 < argc && !is_flag(argv[*i + 1])) {
        const char *kv = argv[++*i];
        if (!parse_sprt_key(p, kv))
            return usage_error("bad -sprt setting '%s'", kv);
        e0 |= strncmp(kv, "elo0=", 5) == 0;
        e1 |= strncmp(kv, "elo1=", 5) == 0;
    }
    if (!e0 || !e1 || p->elo1 <= p->elo0)
        return usage_error("%s", "-sprt needs elo0=E0 elo1=E1 with E1 > E0");
    return 0;
}

/* Parses the command line; returns 0, or an exit status to stop with. */
static int parse_args(int argc, char **argv, MatchConfig *cfg, const char **openings)
{
    EngineConfig each;
    memset(&each, 0, sizeof each);
    bool have_limit = false;
    char msg[256];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-')
            return usage_error("unexpected argument '%s'", a);
        while (*a == '-')
            a++;
        bool has_value = i + 1 < argc;
        const char *v = has_value ? argv[i + 1] : "";
        if (strcmp(a, "help") == 0 || strcmp(a, "h") == 0) {
            fputs(USAGE, stdout);
            return -1;
        } else if (strcmp(a, "engine") == 0 || strcmp(a, "each") == 0) {
            bool is_each = strcmp(a, "each") == 0;
            EngineConfig *e = &each;
            if (!is_each) {
                if (cfg->engine_count == MATCH_ENGINES_MAX)
                    return usage_error("too many engines (max %s)", "16");
                e = &cfg->engines[cfg->engine_count++];
                *e = each;
            }
            int n = 0;
            while (i + 1 < argc && !is_flag(argv[i + 1])) {
                if (!engine_key(e, argv[++i], msg, sizeof msg))
                    return usage_error("%s", msg);
                n++;
            }
            if (n == 0)
                return usage_error("-%s needs KEY=VALUE settings", a);
        } else if (strcmp(a, "quiet") == 0) {
            cfg->quiet = true;
        } else if (!has_value) {
            return usage_error("option '%s' needs a value", argv[i]);
        } else if (strcmp(a, "sprt") == 0) {
            cfg->sprt = true;
            int status = parse_sprt_args(argc, argv, &i, &cfg->sprt_params);
            if (status != 0)
                return status;
        } else {
            i++;
            if (strcmp(a, "tc") == 0) {
                if (!parse_tc(v, &cfg->tc))
                    return usage_error("bad time control '%s' (e.g. 60+0.5 or 40/120)", v);
                have_limit = true;
            } else if (strcmp(a, "depth") == 0) {
                if (!parse_int(v, 1, 100, &cfg->tc.depth))
                    return usage_error("bad depth '%s'", v);
                cfg->tc.kind = TC_DEPTH;
                have_limit = true;
            } else if (strcmp(a, "nodes") == 0) {
                if (!parse_int64(v, &cfg->tc.nodes) || cfg->tc.nodes == 0)
                    return usage_error("bad node count '%s'", v);
                cfg->tc.kind = TC_NODES;
                have_limit = true;
            } else if (strcmp(a, "movetime") == 0) {
                if (!parse_int64(v, &cfg->tc.movetime_ms) || cfg->tc.movetime_ms == 0)
                    return usage_error("bad movetime '%s' (milliseconds)", v);
                cfg->tc.kind = TC_MOVETIME;
                have_limit = true;
            } else if (strcmp(a, "margin") == 0) {
                if (!parse_int64(v, &cfg->tc.margin_ms))
                    return usage_error("bad margin '%s' (milliseconds)", v);
            } else if (strcmp(a, "hang") == 0) {
                if (!parse_int64(v, &cfg->tc.hang_ms) || cfg->tc.hang_ms == 0)
                    return usage_error("bad hang timeout '%s' (milliseconds)", v);
            } else if (strcmp(a, "init-timeout") == 0) {
                if (!parse_int64(v, &cfg->init_timeout_ms) || cfg->init_timeout_ms == 0)
                    return usage_error("bad init timeout '%s' (milliseconds)", v);
            } else if (strcmp(a, "openings") == 0) {
                *openings = v;
            } else if (strcmp(a, "shuffle") == 0) {
                int seed;
                if (!parse_int(v, 1, 2000000000, &seed))
                    return usage_error("bad seed '%s' (a positive number)", v);
                cfg->opening_seed = (unsigned)seed;
            } else if (strcmp(a, "rounds") == 0) {
                if (!parse_int(v, 1, 1000000, &cfg->rounds))
                    return usage_error("bad number of rounds '%s'", v);
            } else if (strcmp(a, "games") == 0) {
                int g;
                if (!parse_int(v, 1, 2000000, &g))
                    return usage_error("bad number of games '%s'", v);
                cfg->rounds = (g + 1) / 2;
            } else if (strcmp(a, "concurrency") == 0) {
                if (!parse_int(v, 1, 256, &cfg->concurrency))
                    return usage_error("bad concurrency '%s'", v);
            } else if (strcmp(a, "tournament") == 0) {
                if (strcmp(v, "gauntlet") == 0)
                    cfg->tournament = TOURNAMENT_GAUNTLET;
                else if (strcmp(v, "round-robin") == 0 || strcmp(v, "roundrobin") == 0)
                    cfg->tournament = TOURNAMENT_ROUND_ROBIN;
                else
                    return usage_error("unknown tournament '%s' (gauntlet or round-robin)", v);
            } else if (strcmp(a, "rules") == 0) {
                cfg->adj.rules = rules_find(v);
                if (!cfg->adj.rules)
                    return usage_error("unknown rules '%s' (asian, chinese or check-only)", v);
            } else if (strcmp(a, "maxplies") == 0) {
                if (!parse_int(v, 1, GAME_PLIES_MAX, &cfg->adj.max_plies))
                    return usage_error("bad -maxplies '%s' (1..2000)", v);
            } else if (strcmp(a, "resign") == 0) {
                if (sscanf(v, "%d:%d", &cfg->adj.resign_moves, &cfg->adj.resign_score) != 2 ||
                    cfg->adj.resign_moves < 1 || cfg->adj.resign_score < 1)
                    return usage_error("bad -resign '%s' (MOVES:CP)", v);
            } else if (strcmp(a, "draw") == 0) {
                if (sscanf(v, "%d:%d:%d", &cfg->adj.draw_movenumber, &cfg->adj.draw_moves, &cfg->adj.draw_score) != 3 ||
                    cfg->adj.draw_moves < 1 || cfg->adj.draw_score < 0)
                    return usage_error("bad -draw '%s' (MOVENUMBER:MOVES:CP)", v);
            } else if (strcmp(a, "tb") == 0) {
                cfg->tb_dir = v;
            } else if (strcmp(a, "pgn") == 0) {
                cfg->pgn_path = v;
            } else if (strcmp(a, "log") == 0) {
                cfg->log_path = v;
            } else if (strcmp(a, "event") == 0) {
                cfg->event = v;
            } else {
                return usage_error("unknown option '%s'", argv[i - 1]);
            }
        }
    }
    if (cfg->engine_count < 2)
        return usage_error("%s", "at least two engines are needed (-engine cmd=...)");
    for (int e = 0; e < cfg->engine_count; e++) {
        EngineConfig *ec = &cfg->engines[e];
        if (!ec->cmd[0])
            return usage_error("engine %s has no cmd=", ec->name[0] ? ec->name : "(unnamed)");
        if (!ec->name[0]) { /* the command's first 60 bytes (a copy GCC's -Wrestrict accepts at -O0) */
            size_t n = 0;
            while (n < DEFAULT_NAME_LEN && ec->cmd[n])
                n++;
            memcpy(ec->name, ec->cmd, n);
            ec->name[n] = '\0';
        }
        for (int o = 0; o < e; o++) {
            if (strcmp(cfg->engines[o].name, ec->name) == 0) {
                char unique[ENGINE_NAME_MAX];
                snprintf(unique, sizeof unique, "%.48s-%d", ec->name, e + 1);
                snprintf(ec->name, sizeof ec->name, "%s", unique);
            }
        }
    }
    if (!have_limit)
        return usage_error("%s", "no time control: give -tc, -depth, -nodes or -movetime");
    if (cfg->sprt && cfg->engine_count != 2)
        return usage_error("%s", "-sprt needs exactly two engines");
    return 0;
}

/* xqmatch -stats W L D [-sprt ...]: the statistics of a result, as a match's summary prints them. */
static int stats_main(int argc, char **argv)
{
    int wld[3];
    for (int k = 0; k < 3; k++)
        if (2 + k >= argc || !parse_int(argv[2 + k], 0, 2000000000, &wld[k]))
            return usage_error("%s", "-stats needs three counts: W L D (whole numbers)");
    Score s = { wld[0], wld[1], wld[2] };
    if (s.wins + (double)s.losses + s.draws > 2000000000.0)
        return usage_error("%s", "-stats: too many games");
    SprtParams sp = { 0, 0, 0.05, 0.05 };
    bool sprt = false;
    int i = 5;
    if (i < argc && (strcmp(argv[i], "-sprt") == 0 || strcmp(argv[i], "--sprt") == 0)) {
        int status = parse_sprt_args(argc, argv, &i, &sp);
        if (status != 0)
            return status;
        sprt = true;
        i++;
    }
    if (i < argc)
        return usage_error("unexpected argument '%s' after -stats W L D", argv[i]);
    int n = s.wins + s.losses + s.draws;
    if (n == 0)
        return usage_error("%s", "-stats: no games (W + L + D is 0)");
    printf("%d games, W %d L %d D %d, score %.1f%%\n", n, s.wins, s.losses, s.draws, 100.0 * stats_elo(s).score);
    match_print_elo(s, stdout);
    if (sprt)
        match_print_sprt(&sp, stats_sprt(s, &sp), stdout);
    return 0;
}

/* Prints a refused tablebase file (tb_set_load_dir's on_error). */
static void tb_load_error(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "xqmatch: tablebase: %s\n", msg);
}

/* Loads the tables of cfg->tb_dir into *set for adjudication; false (with a message) if none loads. */
static bool load_tablebases(MatchConfig *cfg, TbSet **set)
{
    *set = NULL;
    if (!cfg->tb_dir)
        return true;
    *set = malloc(sizeof **set);
    if (!*set) {
        fprintf(stderr, "xqmatch: out of memory\n");
        return false;
    }
    tb_set_init(*set, cfg->tb_dir);
    int n = tb_set_load_dir(*set, tb_load_error, NULL);
    if (n == 0) {
        fprintf(stderr, "xqmatch: no tablebase in %s\n", cfg->tb_dir);
        return false;
    }
    fprintf(stderr, "xqmatch: %d tablebases loaded from %s\n", n, cfg->tb_dir);
    cfg->adj.tb = *set;
    return true;
}

/* Frees the tables of load_tablebases (NULL is fine). */
static void free_tablebases(TbSet *set)
{
    if (set)
        tb_set_free(set);
    free(set);
}

/* Entry point. */
int main(int argc, char **argv)
{
    tables_init();
    if (argc >= 2 && version_common_arg(argv[1], "xqmatch", USAGE, stdout))
        return EXIT_SUCCESS;

    if (argc >= 2 && (strcmp(argv[1], "-stats") == 0 || strcmp(argv[1], "--stats") == 0))
        return stats_main(argc, argv);
    MatchConfig *cfg = malloc(sizeof *cfg);
    MatchResult *res = malloc(sizeof *res);
    if (!cfg || !res) {
        fprintf(stderr, "xqmatch: out of memory\n");
        return 1;
    }
    config_defaults(cfg);
    const char *openings = NULL;
    int status = parse_args(argc, argv, cfg, &openings);
    if (status != 0) {
        free(cfg);
        free(res);
        return status < 0 ? 0 : status;
    }
    char msg[512];
    TbSet *tb = NULL;
    if (!load_tablebases(cfg, &tb)) {
        free_tablebases(tb);
        free(cfg);
        free(res);
        return 1;
    }
    if (openings ? !openings_load(openings, &cfg->book, msg, sizeof msg) : !openings_default(&cfg->book)) {
        fprintf(stderr, "xqmatch: %s\n", openings ? msg : "out of memory");
        free_tablebases(tb);
        free(cfg);
        free(res);
        return 1;
    }
    bool ok = match_run(cfg, res, stdout);
    if (ok)
        match_print_summary(cfg, res, stdout);
    openings_free(&cfg->book);
    free_tablebases(tb);
    free(cfg);
    free(res);
    return ok ? 0 : 1;
}
