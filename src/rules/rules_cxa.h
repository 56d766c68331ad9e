/*
 * rules_cxa.h - what a side threatens under the Chinese (CXA) rules: the
 * pieces it could win by a capture now (chase pairs, by material value) and
 * whether it threatens mate (internal to the rules module; see rules_cxa.c).
 */
#ifndef XQ_RULES_CXA_H
#define XQ_RULES_CXA_H

#include "board/position.h"
#include "rules_types.h"

/* Fills what `side` threatens in pos as if it were to move (chase pairs and the mate threat); pos is restored. */
void rules_cxa_threats(Position *pos, int side, RulesThreats *out);

#endif
