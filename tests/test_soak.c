/*
 * test_soak.c - soak run of the protocol (labels soak, slow): thousands of
 * position/go/stop cycles against the real binary through pipes, in both
 * dialects, with ponder hits and ponder misses, playing the engine's moves as
 * games. Every move printed is checked for legality. The engine's VmRSS is
 * sampled from /proc/PID/status; after a warm-up it must not grow by more
 * than the given bound (growth 0: no check, for sanitizer builds, where
 * LeakSanitizer checks at exit instead and the exit status must be 0).
 *
 * Usage: test_soak [CYCLES [MAX_GROWTH_KB]]; prints the figures for bench/STRESS.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enginepipe.h"
#include "board/move.h"
#include "board/movegen.h"
#include "rules/rules.h"
#include "testutil.h"

enum {
    SOAK_CYCLES_DEFAULT = 10000,
    SOAK_GROWTH_DEFAULT_KB = 2048,
    SOAK_LIFETIME_S = 3600,
    SOAK_WAIT_MS = 20000,
    SOAK_SAMPLE_EVERY = 50,
    SOAK_WARMUP_DIVISOR = 10,   /* the warm-up is the first tenth of the cycles */
    SOAK_GAME_PLIES = 160,
    SOAK_DIALECT_EVERY = 500,
    SOAK_NODES = 3000,
    SOAK_PONDER_CLOCK_MS = 400,
    SOAK_PATTERNS = 4,
};

/* The soak state: the engine, the game it plays, the counters and memory samples. */
typedef struct Soak {
    EnginePipe ep;
    Position pos;                /* the game so far, tracked alongside the engine */
    char moves[SOAK_GAME_PLIES * MOVE_TEXT + 1];
    bool ucci;
    long cycles, gos, stops, ponderhits, pondermisses, games, positions, dialect_switches;
    long rss_warm_kb, rss_min_kb, rss_max_kb, rss_last_kb, hwm_kb;
} Soak;

/* Reads a "Name:   N kB" field of /proc/PID/status; -1 if absent. */
static long proc_status_kb(pid_t pid, const char *name)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    size_t n = strlen(name);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, name, n) == 0 && line[n] == ':')
            kb = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

/* Sends the handshake of the current dialect and a new game. */
static void handshake(Soak *s)
{
    ep_send(&s->ep, s->ucci ? "ucci" : "uci");
    ep_must(&s->ep, s->ucci ? "ucciok" : "uciok", SOAK_WAIT_MS);
    ep_send(&s->ep, s->ucci ? "setoption ponder true" : "setoption name Ponder value true");
    ep_send(&s->ep, "isready");
    ep_must(&s->ep, "readyok", SOAK_WAIT_MS);
}

/* Starts a new game from the start position (the engine clears its hash). */
static void new_game(Soak *s)
{
    test_setup(&s->pos, START_FEN);
    s->moves[0] = '\0';
    s->games++;
    ep_send(&s->ep, s->ucci ? "setoption newgame" : "ucinewgame");
}

/* Has the tracked game ended (or grown long enough)? */
static bool game_over(Soak *s)
{
    RulesReport report;
    return s->pos.ply >= SOAK_GAME_PLIES || rules_game_status(&s->pos, &rules_asian, &report) != RULES_ONGOING;
}

/* Sends the position of the tracked game. */
static void send_position(Soak *s)
{
    ep_send(&s->ep, "position startpos%s%s", s->moves[0] ? " moves" : "", s->moves);
    s->positions++;
}

/* Waits for a bestmove (legality checked) and returns its move text in best. */
static void wait_best(Soak *s, char best[MOVE_TEXT])
{
    if (!ep_wait_bestmove(&s->ep, &s->pos, SOAK_WAIT_MS))
        fail_msg("no bestmove within %d ms after %ld cycles", SOAK_WAIT_MS, s->cycles);
    assert_int_equal(sscanf(s->ep.last, "bestmove %4s", best), 1);
}

/* Plays the engine's move in the tracked game. */
static void play(Soak *s, const char *best)
{
    Move m;
    XqError err;
    if (!move_parse_legal(&s->pos, best, &m, &err))
        fail_msg("engine move: %s", err.msg);
    pos_make(&s->pos, m);
    size_t n = strlen(s->moves);
    snprintf(s->moves + n, sizeof s->moves - n, " %s", best);
}

/* Sends a `go ponder` with a short clock in the current dialect. */
static void go_ponder(Soak *s)
{
    if (s->ucci)
        ep_send(&s->ep, "go ponder time %d increment 0", SOAK_PONDER_CLOCK_MS);
    else
        ep_send(&s->ep, "go ponder wtime %d btime %d", SOAK_PONDER_CLOCK_MS, SOAK_PONDER_CLOCK_MS);
    s->gos++;
}

/* One cycle: position, then one of four go patterns; the move found is played. */
static void cycle(Soak *s, int pattern)
{
    char best[MOVE_TEXT];
    send_position(s);
    switch (pattern) {
    case 0: /* a short fixed search */
        ep_send(&s->ep, "go nodes %d", SOAK_NODES);
        s->gos++;
        break;
    case 1: /* infinite, then stop */
        ep_send(&s->ep, "go infinite");
        ep_send(&s->ep, "stop");
        s->gos++;
        s->stops++;
        break;
    case 2: /* ponder hit */
        go_ponder(s);
        ep_send(&s->ep, "ponderhit");
        s->ponderhits++;
        break;
    default: /* ponder miss: stop, then search the real position */
        go_ponder(s);
        ep_send(&s->ep, "stop");
        wait_best(s, best);
        s->pondermisses++;
        s->stops++;
        send_position(s);
        ep_send(&s->ep, "go depth 2");
        s->gos++;
        break;
    }
    wait_best(s, best);
    play(s, best);
}

/* Samples the engine's memory (the engine is idle between cycles). */
static void sample(Soak *s, long total)
{
    long rss = proc_status_kb(s->ep.pid, "VmRSS");
    assert_true(rss > 0);
    s->rss_last_kb = rss;
    if (s->cycles < total / SOAK_WARMUP_DIVISOR)
        return;
    if (s->rss_warm_kb < 0) {
        s->rss_warm_kb = s->rss_min_kb = s->rss_max_kb = rss;
        return;
    }
    s->rss_min_kb = rss < s->rss_min_kb ? rss : s->rss_min_kb;
    s->rss_max_kb = rss > s->rss_max_kb ? rss : s->rss_max_kb;
}

/* The command-line arguments, passed to the test as its state. */
typedef struct SoakArgs {
    long cycles, max_growth_kb;
} SoakArgs;

/* The soak run. */
static void test_soak(void **state)
{
    const SoakArgs *args = *state;
    Soak *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->rss_warm_kb = -1;
    ep_start_for(&s->ep, SOAK_LIFETIME_S);
    s->ucci = true;
    handshake(s);
    new_game(s);
    int64_t t0 = ep_now_ms();
    for (s->cycles = 0; s->cycles < args->cycles; s->cycles++) {
        if (s->cycles > 0 && s->cycles % SOAK_DIALECT_EVERY == 0) {
            s->ucci = !s->ucci;
            s->dialect_switches++;
            handshake(s);
            new_game(s);
        }
        if (game_over(s))
            new_game(s);
        cycle(s, (int)(s->cycles % SOAK_PATTERNS));
        if (s->cycles % SOAK_SAMPLE_EVERY == 0)
            sample(s, args->cycles);
    }
    sample(s, args->cycles);
    s->hwm_kb = proc_status_kb(s->ep.pid, "VmHWM");
    int64_t elapsed = ep_now_ms() - t0;
    ep_send(&s->ep, "quit");
    int status = ep_finish(&s->ep, SOAK_WAIT_MS);
    long growth = s->rss_last_kb - s->rss_warm_kb;
    printf("soak: %ld cycles in %.1f s: %ld positions, %ld go, %ld stop, %ld ponderhit, %ld ponder miss, "
           "%ld games, %ld dialect switches\n",
           s->cycles, (double)elapsed / 1000.0, s->positions, s->gos, s->stops, s->ponderhits, s->pondermisses,
           s->games, s->dialect_switches);
    printf("soak: VmRSS after warm-up %ld kB, min %ld kB, max %ld kB, last %ld kB (growth %ld kB); VmHWM %ld kB; "
           "exit status %d\n",
           s->rss_warm_kb, s->rss_min_kb, s->rss_max_kb, s->rss_last_kb, growth, s->hwm_kb, status);
    assert_int_equal(status, 0);
    if (args->max_growth_kb > 0)
        assert_true(s->rss_max_kb - s->rss_warm_kb <= args->max_growth_kb);
    free(s);
}

/* Runs the soak with the cycles and growth bound given on the command line. */
int main(int argc, char **argv)
{
    tables_init();
    SoakArgs args = { SOAK_CYCLES_DEFAULT, SOAK_GROWTH_DEFAULT_KB };
    if (argc > 1)
        args.cycles = strtol(argv[1], NULL, 10);
    if (argc > 2)
        args.max_growth_kb = strtol(argv[2], NULL, 10);
    const struct CMUnitTest tests[] = { cmocka_unit_test_prestate(test_soak, &args) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
