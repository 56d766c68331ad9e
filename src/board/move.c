/* move.c - ICCS move text and legal-move matching. */
#include "move.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"

/* Writes "h2e2"-style text. */
char *move_to_text(Move m, char out[MOVE_TEXT])
{
    if (m == MOVE_NONE) {
        memcpy(out, "0000", MOVE_TEXT);
        return out;
    }
    sq_name(move_from(m), out);
    sq_name(move_to(m), out + 2);
    return out;
}

/* Parses four ICCS characters. */
bool move_from_text(const char *text, Move *m)
{
    if (!text[0] || !text[1] || !text[2] || !text[3])
        return false;
    int from = sq_parse(text), to = sq_parse(text + 2);
    if (from < 0 || to < 0)
        return false;
    *m = move_make(from, to);
    return true;
}

/* Parses move text and verifies it is a legal move here. */
bool move_parse_legal(Position *pos, const char *text, Move *m, XqError *err)
{
    Move parsed;
    char shown[16];
    snprintf(shown, sizeof shown, "%.12s", text);
    if (strlen(text) != 4 || !move_from_text(text, &parsed)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "malformed move '%s'", shown);
        return false;
    }
    if (!move_is_pseudo_legal(pos, parsed) || !move_is_legal(pos, parsed)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "illegal move '%s'", shown);
        return false;
    }
    *m = parsed;
    return true;
}
