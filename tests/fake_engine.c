/*
 * fake_engine.c - a small test engine for xqmatch's tests. It answers both
 * `ucci` and `uci`, plays random legal moves (chosen with xqcore), and can be
 * told to misbehave: an illegal move, a hang, a crash, no move, slowness,
 * resignation, fixed scores, or failing the handshake; and it can offer a
 * draw or accept one (UCCI `bestmove m draw`, `go draw`).
 *
 * usage: fake_engine [--seed N] [--ranks10] [--greedy] [--score CP]
 *                    [--illegal-at N] [--hang-at N] [--crash-at N]
 *                    [--nomove-at N] [--resign-at N] [--slow MS] [--no-handshake]
 *                    [--offer-at N] [--accept-draw]
 * N counts this engine's `go` commands within one process, from 1.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board/move.h"
#include "board/movegen.h"
#include "common/engine_client.h"

enum { FAKE_LINE_MAX = 65536 };

/* Misbehaviour settings. */
typedef struct FakeConfig {
    unsigned seed;
    bool ranks10, greedy, no_handshake, has_score, accept_draw;
    int score;
    int illegal_at, hang_at, crash_at, nomove_at, resign_at, offer_at;
    int slow_ms;
} FakeConfig;

/* Engine state. */
typedef struct Fake {
    FakeConfig cfg;
    Position pos;
    bool uci;       /* the handshake was `uci` */
    int go_count;
    unsigned rng;
} Fake;

/* xorshift32 random number. */
static unsigned fake_random(Fake *f)
{
    unsigned x = f->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    f->rng = x;
    return x;
}

/* Prints a line and flushes. */
static void say(const char *line)
{
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

/* Sleeps for ms milliseconds. */
static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Applies `position ...` (moves that do not parse stop the list). */
static void fake_position(Fake *f, char *args)
{
    char *moves = strstr(args, " moves");
    if (moves)
        *moves = '\0';
    XqError err;
    if (strncmp(args, "startpos", 8) == 0)
        pos_from_fen(&f->pos, START_FEN, &err);
    else if (strncmp(args, "fen ", 4) == 0)
        pos_from_fen(&f->pos, args + 4, &err);
    if (!moves)
        return;
    char *save = NULL;
    for (char *t = strtok_r(moves + 6, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char text[MOVE_TEXT_MAX];
        Move m;
        if (f->cfg.ranks10) {
            if (!move_from_uci10(t, text))
                return;
        } else {
            snprintf(text, sizeof text, "%.4s", t);
        }
        if (!move_parse_legal(&f->pos, text, &m, &err))
            return;
        pos_make(&f->pos, m);
    }
}

/* Chooses a move: a mate if greedy and one exists, else a random legal move. */
static Move fake_choose(Fake *f)
{
    Move list[MAX_MOVES];
    int n = gen_legal(&f->pos, list);
    if (n == 0)
        return MOVE_NONE;
    if (f->cfg.greedy) {
        for (int i = 0; i < n; i++) {
            pos_make(&f->pos, list[i]);
            bool mate = f->pos.in_check && count_legal(&f->pos) == 0;
            pos_unmake(&f->pos);
            if (mate)
                return list[i];
        }
    }
    return list[fake_random(f) % (unsigned)n];
}

/* Answers `go` (`offered`: it was `go draw`), misbehaving as configured. */
static void fake_go(Fake *f, bool offered)
{
    int k = ++f->go_count;
    if (k == f->cfg.crash_at)
        abort();
    if (k == f->cfg.hang_at)
        for (;;)
            pause();
    if (f->cfg.slow_ms > 0)
        sleep_ms(f->cfg.slow_ms);
    if (k == f->cfg.nomove_at) {
        say(f->uci ? "bestmove (none)" : "nobestmove");
        return;
    }
    char line[128], text[MOVE_TEXT], out[MOVE_TEXT_MAX + 4];
    if (k == f->cfg.illegal_at) {
        /* Capture our own king with the enemy king's square: never legal. */
        int own = pos_king_sq(&f->pos, f->pos.side), theirs = pos_king_sq(&f->pos, !f->pos.side);
        snprintf(text, sizeof text, "%c%c%c%c", 'a' + sq_file(theirs), '0' + sq_rank(theirs),
                 'a' + sq_file(own), '0' + sq_rank(own));
    } else {
        Move m = fake_choose(f);
        if (m == MOVE_NONE) {
            say(f->uci ? "bestmove (none)" : "nobestmove");
            return;
        }
        move_to_text(m, text);
    }
    if (f->cfg.has_score) {
        snprintf(line, sizeof line, f->uci ? "info depth 1 score cp %d pv %s" : "info depth 1 score %d pv %s",
                 f->cfg.score, text);
        say(line);
    }
    if (f->cfg.ranks10)
        move_to_uci10(text, out, sizeof out);
    else
        snprintf(out, sizeof out, "%s", text);
    const bool draw = k == f->cfg.offer_at || (offered && f->cfg.accept_draw);
    snprintf(line, sizeof line, "bestmove %s%s", out, k == f->cfg.resign_at ? " resign" : draw ? " draw" : "");
    say(line);
}

/* Parses the command line. */
static void fake_args(int argc, char **argv, FakeConfig *c)
{
    memset(c, 0, sizeof *c);
    c->seed = 12345;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : "0";
        if (strcmp(a, "--ranks10") == 0) c->ranks10 = true;
        else if (strcmp(a, "--greedy") == 0) c->greedy = true;
        else if (strcmp(a, "--no-handshake") == 0) c->no_handshake = true;
        else if (strcmp(a, "--seed") == 0) { c->seed = (unsigned)atoi(v); i++; }
        else if (strcmp(a, "--score") == 0) { c->score = atoi(v); c->has_score = true; i++; }
        else if (strcmp(a, "--illegal-at") == 0) { c->illegal_at = atoi(v); i++; }
        else if (strcmp(a, "--hang-at") == 0) { c->hang_at = atoi(v); i++; }
        else if (strcmp(a, "--crash-at") == 0) { c->crash_at = atoi(v); i++; }
        else if (strcmp(a, "--nomove-at") == 0) { c->nomove_at = atoi(v); i++; }
        else if (strcmp(a, "--resign-at") == 0) { c->resign_at = atoi(v); i++; }
        else if (strcmp(a, "--offer-at") == 0) { c->offer_at = atoi(v); i++; }
        else if (strcmp(a, "--accept-draw") == 0) c->accept_draw = true;
        else if (strcmp(a, "--slow") == 0) { c->slow_ms = atoi(v); i++; }
        else { fprintf(stderr, "fake_engine: unknown argument %s\n", a); exit(2); }
    }
}

/* Reads commands until quit or end of input. */
int main(int argc, char **argv)
{
    tables_init();
    Fake *f = calloc(1, sizeof *f);
    if (!f)
        return 1;
    fake_args(argc, argv, &f->cfg);
    f->rng = f->cfg.seed ? f->cfg.seed : 1;
    XqError err;
    pos_from_fen(&f->pos, START_FEN, &err);
    char *line = malloc(FAKE_LINE_MAX);
    if (!line)
        return 1;
    while (fgets(line, FAKE_LINE_MAX, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "ucci") == 0 || strcmp(line, "uci") == 0) {
            if (f->cfg.no_handshake)
                return 3;
            f->uci = strcmp(line, "uci") == 0;
            say("id name FakeEngine");
            say(f->uci ? "uciok" : "option usemillisec type check default true");
            if (!f->uci)
                say("ucciok");
        } else if (strcmp(line, "isready") == 0) {
            say("readyok");
        } else if (strncmp(line, "position ", 9) == 0) {
            fake_position(f, line + 9);
        } else if (strncmp(line, "go", 2) == 0) {
            fake_go(f, strncmp(line, "go draw", 7) == 0);
        } else if (strcmp(line, "quit") == 0) {
            if (!f->uci)
                say("bye");
            break;
        }
    }
    free(line);
    free(f);
    return 0;
}
