/*
 * tb_rule.h - the perpetual-check rule in the generator (tb_table.h states it).
 *
 * After the generator's passes resolve all they can, what is left unresolved
 * (U) is where play may go on forever. For a side W (the winner) and its
 * opponent L (the checker), the entries of U where W wins by the rule are the
 * winning region of an infinite game on U: W wins a play that stays in U
 * forever if L checks on every move from some point on while W does not.
 * The region is found as the greatest set Z of U entries such that
 *   - an entry with W to move is in check (L's move checked) and has a move
 *     into Z (a non-capture: a capture or a move out of U to a win would have
 *     resolved it);
 *   - every move of an entry with L to move goes into Z or to a position
 *     already known won for W;
 *   - from every entry of Z, W can force play (inside Z) to reach an entry
 *     with L to move that is not in check (W did not check): the Büchi
 *     condition that keeps a cycle of checks by both sides a draw.
 * Z is computed as a safety fixpoint (entries removed until the first two
 * conditions hold) inside a Büchi loop (keep only the entries W attracts to
 * the entries with L to move not in check, then restore safety), each step a
 * few parallel passes that revisit only the predecessors (un-moves) of what
 * changed. The entries of Z with L to move and not in check are the rule
 * seeds: lost for L with the rule flag. The generator then
 * resumes its passes, which resolve the rest of Z and everything that leads
 * into it, and looks for seeds again until a round finds none (the outer
 * fixpoint of the game: a win by the rule can make new wins by mate-or-rule
 * possible, never the other way round). The seeds of a round are lost at
 * the round's base distance, beyond every distance resolved before them, so
 * that a win always heads for the nearest mate, or the rule seeds of the
 * earliest round: a cycle the winner's table moves allow then passes only
 * through seeds of one round, where the loser checks.
 */
#ifndef XQ_TB_RULE_H
#define XQ_TB_RULE_H

#include "tb_probe.h"
#include "tb_work.h"

/* What the rule's passes work on. */
typedef struct TbRuleCtx {
    TbTable *t;
    TbSet *set; /* the sub-tables a capture leads to */
    int threads;
    FILE *progress;        /* NULL for none */
    _Atomic uint8_t *reg;  /* one byte per entry: the region's state (any value on entry) */
    _Atomic uint8_t *cand; /* one bit per entry (tb_bit_set): all zero on entry, and left so */
    int base;              /* the seeds' distance: even, beyond every distance resolved before them */
} TbRuleCtx;

/* The encoded value (tb_value.h) of the position after a move, pos: a capture's from the set's tables, else
 * t's entry; TB_V_BROKEN if no table answers. */
unsigned tb_child_value(const TbTable *t, TbSet *set, Position *pos);
/* Marks the rule seeds where `winner` wins (lost at distance c->base with the rule flag for the other side);
 * returns how many, or -1 on failure (a capture into a table the set lacks, or memory short). */
int64_t tb_rule_seeds(TbRuleCtx *c, int winner);

#endif
