/*
 * rules_speed.c - measures what a repetition ruling costs the search: the
 * time of one rules_judge_cycle call (through rules_search_repetition, the
 * search's hook: the cycle since the latest earlier occurrence, no report)
 * at the last position of every case of a rulings file, under each named
 * rule set. Each case is timed in PASSES passes of `reps` calls and keeps
 * its fastest pass (the least disturbed by other work on the machine); the
 * figure is the mean of those per-call times over all cases, and the
 * slowest case is named.
 *
 *   rules_speed [-reps N] FILE [SET...]
 * FILE is in the format of tests/data/rulings.txt; SETs default to asian and chinese.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board/move.h"
#include "rules/rules.h"

enum { DEFAULT_REPS = 20, PASSES = 5, LINE_MAX_CHARS = 8192, MAX_SETS = 8 };

/* Seconds on the monotonic clock. */
static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Sets pos to the FEN of a rulings line and plays its moves; false on a comment, a bad line or an illegal move. */
static bool replay_line(char *line, Position *pos)
{
    if (line[0] == '#' || !strchr(line, '|'))
        return false;
    char *bar = strchr(line, '|');
    *bar = '\0';
    char *moves = bar + 1, *end = strchr(moves, '|');
    if (end)
        *end = '\0';
    XqError e;
    if (!pos_from_fen(pos, line, &e))
        return false;
    for (char *tok = strtok(moves, " \n"); tok; tok = strtok(NULL, " \n")) {
        Move m;
        if (!move_parse_legal(pos, tok, &m, &e))
            return false;
        pos_make(pos, m);
    }
    return true;
}

/* Times one set over every case of the file: prints the mean microseconds per call and the slowest case. */
static void time_set(const char *file, const RuleSet *set, int reps, Position *pos)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "error: cannot read %s\n", file);
        exit(2);
    }
    static char line[LINE_MAX_CHARS];
    double total = 0, worst = 0;
    int cases = 0, worst_line = 0, number = 0;
    unsigned long sink = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        if (!replay_line(line, pos) || rules_find_repetition(pos) < 0)
            continue;
        double best = 0;
        for (int p = 0; p < PASSES; p++) {
            const double t0 = seconds();
            for (int r = 0; r < reps; r++)
                sink += (unsigned long)rules_search_repetition(pos, set);
            const double t = (seconds() - t0) / reps;
            if (p == 0 || t < best)
                best = t;
        }
        total += best;
        cases++;
        if (best > worst) {
            worst = best;
            worst_line = number;
        }
    }
    fclose(f);
    printf("%-10s %3d cases  %8.1f us per call (mean)  slowest %8.1f us (line %d)  [%lu]\n", set->name, cases,
           cases ? total / cases * 1e6 : 0.0, worst * 1e6, worst_line, sink % 10);
}

/* rules_speed [-reps N] FILE [SET...] */
int main(int argc, char **argv)
{
    int i = 1, reps = DEFAULT_REPS;
    if (i + 1 < argc && strcmp(argv[i], "-reps") == 0) {
        reps = atoi(argv[i + 1]);
        i += 2;
    }
    if (i >= argc || reps <= 0) {
        fprintf(stderr, "usage: rules_speed [-reps N] FILE [SET...]\n");
        return 2;
    }
    const char *file = argv[i++];
    const RuleSet *sets[MAX_SETS];
    int n = 0;
    for (; i < argc && n < MAX_SETS; i++) {
        sets[n] = rules_find(argv[i]);
        if (!sets[n]) {
            fprintf(stderr, "error: unknown rule set '%s' (%s)\n", argv[i], rules_names_text());
            return 2;
        }
        n++;
    }
    if (n == 0) {
        sets[n++] = rules_find("asian");
        sets[n++] = rules_find("chinese");
    }
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return 2;
    for (int s = 0; s < n; s++)
        time_set(file, sets[s], reps, pos);
    free(pos);
    return 0;
}
