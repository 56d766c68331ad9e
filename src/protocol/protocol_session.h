/*
 * protocol_session.h - what every dialect does about the game and the session: a
 * new game, quitting, resigning, accepting draws, and asking the loop to switch
 * dialects (a handshake word).
 */
#ifndef XQ_PROTOCOL_SESSION_H
#define XQ_PROTOCOL_SESSION_H

#include <stdbool.h>
#include "proto.h"

/* Asks the loop to switch to dialect d once the current line is done (a handshake word); the new
 * front-end then prints its handshake. */
void proto_switch(Proto *p, Dialect d);
/* Starts a new game (ucinewgame, UCCI's setoption newgame): engine_new_game and a fresh resign count. */
void proto_new_game(Proto *p);
/* Stops any search, waits for it and marks the session as ended (with the dialect's goodbye). */
void proto_quit(Proto *p);
/* Should the side to move resign after this result (a mate found against it, or a lost streak)? Updates
 * the streak; call once per finished search that played a move. */
bool proto_resign_due(Proto *p, const EngineResult *res);
/* Would the side to move accept an offered draw after this result (it stands no better than about even)? */
bool proto_draw_acceptable(const EngineResult *res);

#endif
