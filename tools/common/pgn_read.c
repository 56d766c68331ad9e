/* pgn_read.c - games from xqbase-convention PGN files (see pgn_read.h). */
#include "pgn_read.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/position.h"

enum { LINE_MAX_LEN = 4096 };

/* Resets a game record before its tags are read. */
static void game_reset(PgnGame *g)
{
    snprintf(g->fen, sizeof g->fen, "%s", START_FEN);
    g->result[0] = '\0';
    g->termination[0] = '\0';
    g->book_plies = 0;
    g->n_moves = 0;
}

/* Copies the quoted value of a tag line `[Name "value"]` if the name matches. */
static bool tag_value(const char *line, const char *name, char *out, size_t size)
{
    size_t n = strlen(name);
    if (line[0] != '[' || strncmp(line + 1, name, n) != 0 || line[1 + n] != ' ')
        return false;
    const char *q = strchr(line, '"');
    const char *e = q ? strchr(q + 1, '"') : NULL;
    if (!e || (size_t)(e - q - 1) >= size)
        return false;
    memcpy(out, q + 1, (size_t)(e - q - 1));
    out[e - q - 1] = '\0';
    return true;
}

/* Reads the tokens of a movetext line: moves "H2-E2" and the "{opening: N plies" note. */
static void read_movetext(PgnGame *g, const char *line)
{
    const char *book = strstr(line, "{opening:");
    if (book)
        g->book_plies = atoi(book + strlen("{opening:"));
    bool in_comment = false;
    for (const char *s = line; *s;) {
        if (*s == '{')
            in_comment = true;
        if (*s == '}') {
            in_comment = false;
            s++;
            continue;
        }
        if (in_comment || isspace((unsigned char)*s)) {
            s++;
            continue;
        }
        const char *t = s;
        while (*s && !isspace((unsigned char)*s) && *s != '{')
            s++;
        if (s - t == 5 && t[2] == '-' && isalpha((unsigned char)t[0]) && g->n_moves < PGN_PLIES_MAX) {
            char *m = g->moves[g->n_moves++];
            m[0] = (char)tolower((unsigned char)t[0]);
            m[1] = t[1];
            m[2] = (char)tolower((unsigned char)t[3]);
            m[3] = t[4];
            m[4] = '\0';
        }
    }
}

/* Game ends that say nothing about the position: the result is dropped with the game. */
static const char *const NOISE_ENDINGS[] = { "time forfeit", "crash", "hang", "illegal move", "no move",
                                             "start failure" };

/* Red's score of a game, or a negative number. */
double pgn_result_value(const PgnGame *g)
{
    for (size_t i = 0; i < sizeof NOISE_ENDINGS / sizeof *NOISE_ENDINGS; i++)
        if (strcmp(g->termination, NOISE_ENDINGS[i]) == 0)
            return -1.0;
    if (strcmp(g->result, "1-0") == 0)
        return 1.0;
    if (strcmp(g->result, "0-1") == 0)
        return 0.0;
    if (strcmp(g->result, "1/2-1/2") == 0)
        return 0.5;
    return -1.0;
}

/* Reads every game of a PGN file. */
bool pgn_read_file(const char *path, PgnGameFn fn, void *ctx)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    PgnGame *g = malloc(sizeof *g);
    if (!g) {
        fclose(f);
        return false;
    }
    char line[LINE_MAX_LEN];
    bool in_game = false, go_on = true;
    game_reset(g);
    while (go_on) {
        bool more = fgets(line, sizeof line, f) != NULL;
        bool tag = more && line[0] == '[';
        if (!more || (tag && in_game && g->n_moves > 0)) {
            if (in_game)
                go_on = fn(ctx, g);
            game_reset(g);
            in_game = false;
            if (!more)
                break;
        }
        if (tag) {
            in_game = true;
            tag_value(line, "FEN", g->fen, sizeof g->fen);
            tag_value(line, "Result", g->result, sizeof g->result);
            tag_value(line, "Termination", g->termination, sizeof g->termination);
        } else if (in_game) {
            read_movetext(g, line);
        }
    }
    free(g);
    fclose(f);
    return true;
}
