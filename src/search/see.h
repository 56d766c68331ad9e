/*
 * see.h - static exchange evaluation: the material balance of the capture
 * sequence on one square when both sides recapture with their least
 * valuable attacker (cannon screens and x-rays follow from replaying the
 * exchange on a scratch board). Pins are ignored, as usual.
 */
#ifndef XQ_SEE_H
#define XQ_SEE_H

#include "board/position.h"

/* Material won by move m for the side to move when either side may stop recapturing: 0 for a quiet move that
 * nothing can take, negative when the move loses material. */
int see(const Position *pos, Move m);
/* see(pos, m) >= threshold, answered with as few recaptures as decide it (the search's form). */
bool see_ge(const Position *pos, Move m, int threshold);

#endif
