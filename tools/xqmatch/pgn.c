/*
 * pgn.c - PGN output in the xqbase conventions. A set-up start position
 * goes in [FEN]; when black moves first the first move pair starts "1. ...".
 * The end reason is a comment before the result.
 */
#include "pgn.h"

#include <ctype.h>
#include <string.h>

#include "board/position.h"

enum { PGN_LINE_PLIES = 8 }; /* a line break after this many plies */

/* Formats an ICCS move the xqbase way. */
char *pgn_iccs(const char *move, char out[8])
{
    if (strlen(move) != 4) {
        snprintf(out, 8, "%.7s", move);
        return out;
    }
    out[0] = (char)toupper((unsigned char)move[0]);
    out[1] = move[1];
    out[2] = '-';
    out[3] = (char)toupper((unsigned char)move[2]);
    out[4] = move[3];
    out[5] = '\0';
    return out;
}

/* Writes a tag unless its value is empty; quotes and backslashes are escaped. */
static void pgn_tag(FILE *f, const char *name, const char *value)
{
    if (!value || !value[0])
        return;
    fprintf(f, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', f);
        fputc(*c, f);
    }
    fputs("\"]\n", f);
}

/* Side to move of a FEN (anything but 'b' is red, as the xqbase readers do). */
static int fen_side(const char *fen)
{
    const char *sp = strchr(fen, ' ');
    return sp && sp[1] == 'b' ? BLACK : RED;
}

/* Writes a comment with braces removed from its text. */
static void pgn_comment(FILE *f, const char *text)
{
    fputc('{', f);
    for (const char *c = text; *c; c++)
        fputc(*c == '{' || *c == '}' ? '|' : *c, f);
    fputc('}', f);
}

/* Writes one game. */
bool pgn_write_game(FILE *f, const GameRecord *rec, const PgnInfo *info)
{
    char round[16];
    snprintf(round, sizeof round, "%d", info->round);
    pgn_tag(f, "Game", "Chinese Chess");
    pgn_tag(f, "Event", info->event);
    pgn_tag(f, "Site", info->site);
    pgn_tag(f, "Date", info->date);
    pgn_tag(f, "Round", round);
    pgn_tag(f, "Red", rec->names[RED]);
    pgn_tag(f, "Black", rec->names[BLACK]);
    pgn_tag(f, "Result", result_pgn(rec->verdict.result));
    if (strncmp(rec->start_fen, START_FEN, strlen(START_FEN)) != 0)
        pgn_tag(f, "FEN", rec->start_fen);
    pgn_tag(f, "Format", "ICCS");
    pgn_tag(f, "Annotator", info->annotator);
    pgn_tag(f, "TimeControl", info->time_control);
    pgn_tag(f, "Termination", end_reason_name(rec->verdict.reason));
    char plies[16];
    snprintf(plies, sizeof plies, "%d", rec->count);
    pgn_tag(f, "PlyCount", plies);
    fputc('\n', f);
    int side = fen_side(rec->start_fen);
    int number = 1;
    int on_line = 0;
    if (rec->open_count > 0) {
        char note[64];
        snprintf(note, sizeof note, "opening: %d plies from the book", rec->open_count);
        pgn_comment(f, note);
        fputc('\n', f);
    }
    for (int i = 0; i < rec->count; i++) {
        char mv[8];
        if (side == RED)
            fprintf(f, "%s%d. %s", on_line ? " " : "", number, pgn_iccs(rec->moves[i], mv));
        else if (i == 0)
            fprintf(f, "%d. ... %s", number, pgn_iccs(rec->moves[i], mv));
        else
            fprintf(f, " %s", pgn_iccs(rec->moves[i], mv));
        if (side == BLACK)
            number++;
        side = !side;
        if (++on_line >= PGN_LINE_PLIES && side == RED) {
            fputc('\n', f);
            on_line = 0;
        }
    }
    if (on_line)
        fputc('\n', f);
    if (rec->verdict.text[0]) {
        pgn_comment(f, rec->verdict.text);
        fputc(' ', f);
    }
    fprintf(f, "%s\n\n", result_pgn(rec->verdict.result));
    return !ferror(f);
}
