/* openings.c - reading and checking opening files. */
#include "openings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPENING_LINE_MAX = 2048 };

/* Strips a comment and surrounding blanks in place; returns the start. */
static char *trim(char *s)
{
    char *hash = strchr(s, '#');
    if (hash)
        *hash = '\0';
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Parses one opening line. */
bool opening_parse(const char *line, Opening *out, char *msg, size_t msg_size)
{
    char buf[OPENING_LINE_MAX];
    snprintf(buf, sizeof buf, "%s", line);
    char *s = trim(buf);
    memset(out, 0, sizeof *out);
    char *moves_text = NULL;
    if (strncmp(s, "moves", 5) == 0 && (s[5] == '\0' || isspace((unsigned char)s[5]))) {
        moves_text = s + 5; /* "moves ..." alone: from the start position */
        s[0] = '\0';
    } else {
        char *mv = strstr(s, " moves");
        if (mv && (mv[6] == '\0' || isspace((unsigned char)mv[6]))) {
            moves_text = mv + 6;
            *mv = '\0';
        }
    }
    char *fen = trim(s);
    if (fen[0] == '\0' || strcmp(fen, "startpos") == 0)
        fen = (char *)START_FEN;
    else if (strncmp(fen, "fen ", 4) == 0)
        fen = trim(fen + 4);
    if (strlen(fen) >= sizeof out->fen) {
        snprintf(msg, msg_size, "FEN too long");
        return false;
    }
    snprintf(out->fen, sizeof out->fen, "%s", fen);
    if (moves_text) {
        char *save = NULL;
        for (char *t = strtok_r(moves_text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
            if (out->count == OPENING_PLIES_MAX) {
                snprintf(msg, msg_size, "more than %d opening moves", OPENING_PLIES_MAX);
                return false;
            }
            if (strlen(t) != 4) {
                snprintf(msg, msg_size, "malformed move '%.16s'", t);
                return false;
            }
            for (int i = 0; i < 4; i++)
                out->moves[out->count][i] = (char)tolower((unsigned char)t[i]);
            out->count++;
        }
    }
    return game_check_opening(out->fen, (const char (*)[MOVE_TEXT_MAX])out->moves, out->count, msg, msg_size);
}

/* Loads an opening file. */
bool openings_load(const char *path, OpeningBook *book, char *msg, size_t msg_size)
{
    memset(book, 0, sizeof *book);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, msg_size, "cannot open opening file '%s'", path);
        return false;
    }
    char line[OPENING_LINE_MAX];
    int lineno = 0, cap = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char copy[OPENING_LINE_MAX];
        snprintf(copy, sizeof copy, "%s", line);
        if (trim(copy)[0] == '\0')
            continue;
        if (book->count == cap) {
            cap = cap ? cap * 2 : 64;
            Opening *grown = realloc(book->items, (size_t)cap * sizeof *grown);
            if (!grown) {
                snprintf(msg, msg_size, "out of memory");
                ok = false;
                break;
            }
            book->items = grown;
        }
        char why[200];
        if (!opening_parse(line, &book->items[book->count], why, sizeof why)) {
            snprintf(msg, msg_size, "%s:%d: %s", path, lineno, why);
            ok = false;
            break;
        }
        book->count++;
    }
    fclose(f);
    if (ok && book->count == 0) {
        snprintf(msg, msg_size, "%s: no openings", path);
        ok = false;
    }
    if (!ok)
        openings_free(book);
    return ok;
}

/* The start position as the only opening. */
bool openings_default(OpeningBook *book)
{
    book->items = calloc(1, sizeof *book->items);
    if (!book->items)
        return false;
    book->count = 1;
    snprintf(book->items[0].fen, sizeof book->items[0].fen, "%s", START_FEN);
    return true;
}

/* Frees a book. */
void openings_free(OpeningBook *book)
{
    free(book->items);
    book->items = NULL;
    book->count = 0;
}
