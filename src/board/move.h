/*
 * move.h - ICCS move text ("h2e2") in and out, and matching text against
 * the legal moves of a position.
 */
#ifndef XQ_MOVE_H
#define XQ_MOVE_H

#include "position.h"

enum { MOVE_TEXT = 5 }; /* "h2e2" plus terminator */

/* Writes the ICCS text of a move ("h2e2"; "0000" for MOVE_NONE); returns out. */
char *move_to_text(Move m, char out[MOVE_TEXT]);
/* Parses exactly four ICCS characters (case-insensitive) into a move; no legality check. */
bool move_from_text(const char *text, Move *m);
/* Parses move text and checks it is legal in pos; fills err and returns false if not. */
bool move_parse_legal(Position *pos, const char *text, Move *m, XqError *err);

#endif
