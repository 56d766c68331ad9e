/*
 * tb_value.h - what a tablebase entry says, and how an entry encodes it.
 *
 * Semantics (rule set TB_RULES_CHECK, the number in the file header): the side
 * to move with no legal move loses (checkmate and stalemate alike); a position
 * where neither side has a rook, horse, cannon or pawn is a draw; a side whose
 * only way to avoid a loss is to check forever loses (the perpetual-check rule
 * as Fang applied it: the play that never ends is judged on its cycle, and the
 * side that checks on every move of it loses unless the other side checks on
 * every move too, which is a draw); what never resolves otherwise is a draw;
 * the 60-move rule and the chase rulings are not applied (src/tb/README.md
 * says what this honours of the `asian` and `chinese` rule sets). Values are
 * from the side to move's view: win, draw or loss, a distance in plies, and
 * the rule flag (TbValue.rule) when the value rests on the perpetual-check
 * rule. A rule seed is a position where the loser, to move and not in check,
 * has only moves that lose or that check into positions the winner keeps in
 * the cycle: it is lost with the flag, as if mated, at its round's base
 * distance (tb_rule.h: an even distance beyond every distance resolved before
 * it in the table and its sub-tables). A win is 1 + the shortest loss its
 * moves reach (with the flag only if every such loss has it); a loss is 1 +
 * the longest win its moves reach (with the flag if any has it). So a value
 * without the flag is a forced mate in that many plies whatever the rule, and
 * exactly the plain retrograde analysis's value; a value with the flag is not
 * a number of plies to mate (it counts to a rule seed from that seed's base),
 * and a won position always heads for a mate before a rule seed, and for the
 * seeds of an earlier round before those of a later one. The flag marks what
 * the rule adds to the plain analysis (the draws it turns into wins and
 * losses), and what a capture into a table where the rule decided inherits.
 *
 * Entry encoding (a generated table's entries, and what tb_entry and
 * tb_pack_entry answer): 0 = draw (or not yet resolved), 0xFFFF = broken (no
 * legal position, see tb_index.h), otherwise (rule flag << 15) | (distance + 1). A win's distance is odd and a
 * loss's even (the winner makes the last move), so the parity tells the
 * result.
 */
#ifndef XQ_TB_VALUE_H
#define XQ_TB_VALUE_H

#include <stdbool.h>

enum {
    TB_V_DRAW = 0,
    TB_V_BROKEN = 0xFFFF,
    TB_V_RULE = 0x8000,  /* the rule flag of an entry */
    TB_V_DIST = 0x7FFF,  /* the distance + 1 of an entry */
    TB_DTM_MAX = 0x7FFD, /* longest distance an entry holds */
    TB_RULES_CHECK = 2,  /* the semantics above */
};

enum { TB_LOSS = -1, TB_DRAW = 0, TB_WIN = 1 };

/* A probe's answer: result for the side to move, distance in plies (0 for a draw), and whether the value
 * rests on the perpetual-check rule (its distance then counts to a rule seed, not to a mate). */
typedef struct TbValue {
    int wdl;
    int dtm;
    bool rule;
} TbValue;

/* The value an entry holds (an entry not broken). */
static inline TbValue tb_decode(unsigned v)
{
    if (v == TB_V_DRAW)
        return (TbValue){ TB_DRAW, 0, false };
    int dtm = (int)(v & TB_V_DIST) - 1;
    return (TbValue){ dtm & 1 ? TB_WIN : TB_LOSS, dtm, (v & TB_V_RULE) != 0 };
}
/* The entry holding a win or loss at dtm plies, with the rule flag. */
static inline unsigned tb_encode(int dtm, bool rule) { return (unsigned)dtm + 1 + (rule ? TB_V_RULE : 0); }
/* The entry of a value. */
static inline unsigned tb_encode_value(TbValue v) { return v.wdl == TB_DRAW ? TB_V_DRAW : tb_encode(v.dtm, v.rule); }
#endif
