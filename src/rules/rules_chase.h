/*
 * rules_chase.h - which enemy pieces a side "chases" in a static position
 * (internal to the rules module; see rules_chase.c for the AXF reasoning).
 *
 * A chase pair is (attacker, victim): the attacker can legally capture the
 * victim now and the capture would win it under the AXF definition. A move
 * chases a victim when, after the move, some pair on that victim exists that
 * did not exist before it (a new attacker, a discovered attack, or a
 * protector removed). Pieces keep their identity as they move, so pairs are
 * stored by identity index (id & 15) and stay comparable across moves.
 */
#ifndef XQ_RULES_CHASE_H
#define XQ_RULES_CHASE_H

#include "board/position.h"
#include "rules_types.h"

/* Fills the AXF chase pairs of `side` against the other side's pieces (out->by, out->real the same; out->mate
 * false); pos is restored. */
void rules_chase_pairs(Position *pos, int side, RulesThreats *out);

/* Identity bits (id & 15) of the pieces of `side`'s opponent that attack `side`'s king. */
uint16_t rules_checkers(Position *pos, int side);

/* Is pseudo-legal move r (by the side to move) legal, or would it be but for checks by the enemy pieces in
 * `allowed` (never for king moves)? */
bool rules_legal_despite(Position *pos, Move r, uint16_t allowed);

/* Can the piece on `from` (of the side not to move) legally capture on `to`? pos->side is restored. */
bool rules_other_side_can_capture(Position *pos, int from, int to);

/* Does a move of a piece of `type` from `from` to `to` pass over square `via` (a slider's path, a horse's leg,
 * an elephant's eye)? */
bool rules_passes_over(int type, int from, int to, int via);

#endif
