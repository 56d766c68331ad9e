/*
 * see.h - static exchange evaluation: the material balance of the capture
 * sequence on one square when both sides recapture with their least
 * valuable attacker (cannon screens and x-rays follow from replaying the
 * exchange on a scratch board). Pins are ignored, as usual.
 */
#ifndef XQ_SEE_H
#define XQ_SEE_H

#include "board/position.h"

/* Material gain of move m for the side to move (0 for a quiet move that is not attacked back... and losses
 * negative). */
int see(const Position *pos, Move m);

#endif
