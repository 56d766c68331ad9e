/*
 * eval.h - static evaluation from the side to move's point of view:
 * material and piece-square tables blended by game phase, mobility, horse
 * blocking, cannon threats on the king's file (empty cannon, two screens,
 * a pinned central horse) and along the back rank, king safety (palace
 * defenders against attackers across the river, attackers massed on one
 * wing, crossed pawns against missing advisors), rooks on pawnless files,
 * linked crossed pawns, mating material and tempo. Weights come from an
 * EvalParams.
 */
#ifndef XQ_EVAL_H
#define XQ_EVAL_H

#include "eval_params.h"
#include "board/position.h"

/* Evaluates pos for the side to move. */
int evaluate(const Position *pos, const EvalParams *params);
/* Can `side` still give mate with its material (a rook, horse, cannon or pawn)? */
bool eval_has_mating_material(const Position *pos, int side);
/* Material value (middlegame weights) of a piece identity, for move ordering and SEE. */
int eval_piece_value(int id);

#endif
