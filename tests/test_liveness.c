/*
 * test_liveness.c - the protocol stays answerable whatever a GUI sends (issue 27): lines drawn at random
 * from the protocol fuzzer's dictionary (fuzz/protocol.dict: the protocols' words, numbers, moves, line
 * starts such as `go perft 9` and `setoption evalfile`, and files that are not regular: /dev/stdin, /dev/zero,
 * a directory), plus a FIFO of the test's own, are sent to the real binary one at a time, each followed by
 * isready (first every dictionary line start with every such file, then random lines): a readyok must come
 * within LIVE_MS, whatever the line started (a search, a perft, a file load).
 * A line that blocks the protocol thread is a finding: the test fails naming it. The fuzzers cannot find
 * these (their searches and perfts are capped and their input is a memory buffer).
 *
 * Lines with the words that leave the UCI family (xboard) or end the session (quit, exit, bye) are not drawn, nor
 * UCCI's batch (with batch on, lines wait for a search by design). Usage: test_liveness [LINES [SEED]];
 * prints the slowest isready.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enginepipe.h"
#include "testutil.h"

enum {
    LINES_DEFAULT = 600,
    SEED_DEFAULT = 27,
    LIVE_MS = 2000,      /* the protocol asks 100 ms; a loaded machine may take longer, a blocked one never */
    ENTRIES_MAX = 512,
    ENTRY_MAX = 128,
    WORDS_PER_LINE = 4,  /* at most this many entries after the first */
    STOP_EVERY = 16,     /* a stop now and then, so that searches and perfts also end and start again */
    RECENT = 8,          /* lines shown before one that blocked */
};

static char ENTRY[ENTRIES_MAX][ENTRY_MAX];
static int N_ENTRIES;
static int LINES = LINES_DEFAULT;
static uint64_t SEED = SEED_DEFAULT;

/* Decodes a dictionary value ("..." with \xHH and \\ escapes) into out; false if malformed. */
static bool decode(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && *s != '"'; s++) {
        char c = *s;
        if (c == '\\' && s[1] == 'x' && s[2] && s[3]) {
            char hex[3] = { s[2], s[3], 0 };
            c = (char)strtol(hex, NULL, 16);
            s += 3;
        } else if (c == '\\' && s[1]) {
            c = *++s;
        }
        if (n + 1 >= size)
            return false;
        out[n++] = c;
    }
    out[n] = '\0';
    return *s == '"';
}

/* Is an entry one that is not drawn (it leaves the UCI family, ends the session, or turns batch on)? */
static bool excluded(const char *e)
{
    static const char *const WORDS[] = { "xboard", "quit", "exit", "bye", "batch" };
    for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++)
        if (strstr(e, WORDS[i]))
            return true;
    return false;
}

/* Reads the fuzzer's dictionary into ENTRY, and adds a FIFO (no writer: a plain open of it blocks). */
static int read_dict(void **state)
{
    (void)state;
    FILE *f = fopen(XQ_FUZZ_DICT, "r");
    if (!f)
        return -1;
    char line[512];
    while (fgets(line, sizeof line, f) && N_ENTRIES < ENTRIES_MAX - 1) {
        char *q = strchr(line, '"');
        if (line[0] == '#' || !q)
            continue;
        if (decode(q + 1, ENTRY[N_ENTRIES], ENTRY_MAX) && !excluded(ENTRY[N_ENTRIES]))
            N_ENTRIES++;
    }
    fclose(f);
    snprintf(ENTRY[N_ENTRIES], ENTRY_MAX, " test_liveness_%d.fifo", (int)getpid());
    remove(ENTRY[N_ENTRIES] + 1);
    if (mkfifo(ENTRY[N_ENTRIES] + 1, 0600) != 0)
        return -1;
    N_ENTRIES++;
    return 0;
}

/* Removes the FIFO. */
static int remove_fifo(void **state)
{
    (void)state;
    remove(ENTRY[N_ENTRIES - 1] + 1);
    return 0;
}

/* Draws one input (possibly several lines, as the dictionary's line starts hold newlines) into out. */
static void draw_line(uint64_t *rng, char *out, size_t size)
{
    size_t n = 0;
    int words = 1 + (int)(test_random(rng) % (WORDS_PER_LINE + 1));
    out[0] = '\0';
    for (int w = 0; w < words; w++) {
        const char *e = ENTRY[test_random(rng) % (uint64_t)N_ENTRIES];
        const char *sep = n && e[0] != ' ' && e[0] != '\n' ? " " : "";
        int k = snprintf(out + n, size - n, "%s%s", sep, e[0] == '\n' && n == 0 ? e + 1 : e);
        if (k < 0 || (size_t)k >= size - n)
            break;
        n += (size_t)k;
    }
}

/* Is an entry a file that is not regular (the dictionary's " /dev/...", " .", " /", the FIFO)? */
static bool is_special(const char *e) { return strncmp(e, " /", 2) == 0 || strcmp(e, " .") == 0 || strstr(e, ".fifo"); }

/* Starts the engine in UCI. */
static EnginePipe *start_uci(void)
{
    EnginePipe *ep = malloc(sizeof *ep);
    assert_non_null(ep);
    ep_start_for(ep, 600);
    ep_send(ep, "uci");
    ep_must(ep, "uciok", LIVE_MS);
    return ep;
}

/* Sends isready; fails the test, naming the line sent before it (number i), when no readyok comes within
 * LIVE_MS; returns how long it took. */
static int64_t isready_within(EnginePipe *ep, int i, const char *line, char recent[][1024])
{
    int64_t t0 = ep_now_ms();
    ep_send(ep, "isready");
    bool answered = false;
    while (!answered && ep_read_line(ep, (int)(LIVE_MS - (ep_now_ms() - t0) > 0 ? LIVE_MS - (ep_now_ms() - t0) : 0)))
        answered = strcmp(ep->last, "readyok") == 0;
    if (!answered) {
        fprintf(stderr, "the lines before it:\n");
        for (int k = i - RECENT + 1 > 0 ? i - RECENT + 1 : 0; recent && k < i; k++)
            fprintf(stderr, "  %d: '%s'\n", k, recent[k % RECENT]);
        fprintf(stderr, "the engine %s\n", ep->eof ? "exited" : "still runs");
        fail_msg("line %d blocked the protocol: no readyok within %d ms after '%s'", i, LIVE_MS, line);
    }
    return ep_now_ms() - t0;
}

/* Every line start of the dictionary with every file that is not regular, each on a fresh engine (so that no
 * earlier line keeps it busy): isready, then quit, each answered within LIVE_MS. */
static void test_special_files_and_long_commands(void **state)
{
    (void)state;
    char line[1024];
    int64_t worst = 0;
    int pairs = 0;
    for (int a = 0; a < N_ENTRIES; a++)
        for (int b = 0; b < N_ENTRIES; b++) {
            if (ENTRY[a][0] != '\n' || !is_special(ENTRY[b]))
                continue;
            snprintf(line, sizeof line, "%.127s%.127s", ENTRY[a] + 1, ENTRY[b]);
            EnginePipe *ep = start_uci();
            ep_send(ep, "%s", line);
            int64_t ms = isready_within(ep, pairs++, line, NULL);
            worst = ms > worst ? ms : worst;
            ep_send(ep, "quit");
            if (ep_finish(ep, LIVE_MS) != 0)
                fail_msg("quit did not end the engine within %d ms after '%s'", LIVE_MS, line);
            free(ep);
        }
    fprintf(stderr, "%d line starts with special files: slowest isready %lld ms\n", pairs, (long long)worst);
}

/* LINES drawn lines on one engine, each followed by isready (and now and then a stop); then quit. */
static void test_isready_after_every_line(void **state)
{
    (void)state;
    uint64_t rng = SEED * 0x9E3779B97F4A7C15ULL + 1;
    char line[1024], recent[RECENT][1024];
    int64_t worst = 0;
    EnginePipe *ep = start_uci();
    for (int i = 0; i < LINES; i++) {
        draw_line(&rng, line, sizeof line);
        snprintf(recent[i % RECENT], sizeof recent[0], "%s", line);
        ep_send(ep, "%s", line);
        if (i % STOP_EVERY == STOP_EVERY - 1)
            ep_send(ep, "stop");
        int64_t ms = isready_within(ep, i, line, recent);
        worst = ms > worst ? ms : worst;
    }
    fprintf(stderr, "%d random lines (seed %llu): slowest isready %lld ms\n", LINES, (unsigned long long)SEED,
            (long long)worst);
    ep_send(ep, "quit");
    assert_int_equal(ep_finish(ep, LIVE_MS), 0); /* at once, even behind a search that never ends */
    free(ep);
}

/* Runs the liveness check; LINES and SEED from the command line. */
int main(int argc, char **argv)
{
    if (argc > 1)
        LINES = atoi(argv[1]);
    if (argc > 2)
        SEED = strtoull(argv[2], NULL, 10);
    tables_init();
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_special_files_and_long_commands),
                                        cmocka_unit_test(test_isready_after_every_line) };
    return cmocka_run_group_tests(tests, read_dict, remove_fifo);
}
