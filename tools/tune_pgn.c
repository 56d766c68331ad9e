/* tune_pgn.c - replays xqmatch PGN games with the core and writes "FEN;result" lines. */
#include "tune_pgn.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "move.h"
#include "movegen.h"
#include "position.h"

enum { LINE_MAX_LEN = 4096, TAG_VALUE_MAX = 160, GAME_PLIES_MAX = 1024 };

/* One game being read: its tags and its moves as ICCS text. */
typedef struct PgnGame {
    char fen[TAG_VALUE_MAX];
    char result[TAG_VALUE_MAX];
    char termination[TAG_VALUE_MAX];
    int book_plies;
    int n_moves;
    char moves[GAME_PLIES_MAX][8];
} PgnGame;

/* Resets a game record before its tags are read. */
static void game_reset(PgnGame *g)
{
    strcpy(g->fen, START_FEN);
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
        if (s - t == 5 && t[2] == '-' && isalpha((unsigned char)t[0]) && g->n_moves < GAME_PLIES_MAX) {
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

/* Red's score of a game, or a negative number when it has none or ended for a reason unrelated to play. */
static double result_value(const char *result, const char *termination)
{
    for (size_t i = 0; i < sizeof NOISE_ENDINGS / sizeof *NOISE_ENDINGS; i++)
        if (strcmp(termination, NOISE_ENDINGS[i]) == 0)
            return -1.0;
    if (strcmp(result, "1-0") == 0)
        return 1.0;
    if (strcmp(result, "0-1") == 0)
        return 0.0;
    if (strcmp(result, "1/2-1/2") == 0)
        return 0.5;
    return -1.0;
}

/* Replays one game and writes its positions; false when a move does not replay. */
static bool write_game(const PgnGame *g, FILE *out, int skip_plies, Position *pos, long *written)
{
    double r = result_value(g->result, g->termination);
    XqError err;
    if (r < 0 || !pos_from_fen(pos, g->fen, &err))
        return false;
    int first = skip_plies > g->book_plies ? skip_plies : g->book_plies;
    char fen[FEN_MAX];
    for (int ply = 0; ply < g->n_moves; ply++) {
        if (ply >= first) {
            fprintf(out, "%s;%.1f\n", pos_to_fen(pos, fen, sizeof fen), r);
            (*written)++;
        }
        Move m;
        if (!move_parse_legal(pos, g->moves[ply], &m, &err))
            return false;
        pos_make(pos, m);
        if (pos->ply >= MAX_HISTORY - 1)
            pos_clear_history(pos);
    }
    return true;
}

/* Reads every game of a PGN file and writes its labelled positions. */
bool pgn_extract_file(const char *path, const PgnExtractOutput *out, PgnExtractStats *stats)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    PgnGame *g = malloc(sizeof *g);
    Position *pos = malloc(sizeof *pos);
    if (!g || !pos) {
        free(g);
        free(pos);
        fclose(f);
        return false;
    }
    char line[LINE_MAX_LEN];
    bool in_game = false;
    game_reset(g);
    for (;;) {
        bool more = fgets(line, sizeof line, f) != NULL;
        bool tag = more && line[0] == '[';
        if (!more || (tag && in_game && g->n_moves > 0)) {
            if (in_game) {
                bool valid = out->valid && out->valid_every > 0 && stats->games % out->valid_every == 0;
                if (write_game(g, valid ? out->valid : out->train, out->skip_plies, pos, &stats->positions)) {
                    stats->games++;
                    stats->valid_games += valid;
                } else {
                    stats->skipped++;
                }
            }
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
    free(pos);
    fclose(f);
    return true;
}
