/*
 * rules_sets.c - the rule sets as descriptions: what counts in a cycle and
 * how the classes of a side's moves give it a level (rules.h). Everything
 * that differs between rule sets is here; rules.c only walks the cycle.
 *
 * asian (AXF/WXF, rules.md section 2.2):
 *   LEVEL_CHECK  every move gave check (AXF general rule 6: perpetual check
 *                loses "under any circumstance"; mutual perpetual check
 *                draws, rule 7);
 *   LEVEL_CHASE  one enemy piece was chased anew by every move (general
 *                rule 3). Mate threats are allowed (rules 9-10: perpetual
 *                mate threat draws, and so do "one check one kill" and "one
 *                check one chase" of different pieces, rules 12-13), so
 *                they are not counted at all;
 *   otherwise idle.
 *   Decisions on the disputed points of rules.md section 4, as the AXF
 *   rulebook has them:
 *    (a) A check elsewhere in the cycle does not void a chase (AXF D37, D50:
 *        the chaser loses even though the victim's side checks in reply). A
 *        checking move may itself chase; a side that alternates checks with
 *        a chase of a piece its checks do not also chase has no common
 *        victim and draws (AXF rule 12, "one check one chase", D13).
 *    (b) A rook pinned on a horse's leg may not be chased (AXF rule 19,
 *        D39-41); see rules_chase.c.
 *    (c) A new attacker on a victim already attacked by another piece is a
 *        new chase: novelty is judged per (attacker, victim) pair (AXF D61).
 *    (d) Removing a victim's protector, e.g. by moving a cannon's screen, is
 *        a chase by the attacker (AXF appendix); an x-ray protector through
 *        the attacker is no root (AXF D39-41, D61); see rules_chase.c.
 *
 * chinese (CXA 2011/2020, rules.md section 2.3):
 *   LEVEL_CHECK  every move gave check (长将: never allowed; when one side
 *                checks perpetually and the other commits another forbidden
 *                kind, the checker loses, Art. 26);
 *   LEVEL_CHASE  every move was a check, a mate threat or a chase (长打:
 *                长杀, 长捉 and the mixed cycles 一将一杀, 一将一捉, 一杀一捉);
 *                both sides at this level draw (Art. 26);
 *   LEVEL_JOINT  the same, but at least one move was only a joint chase
 *                (联合捉子, 捉少根子: a protected piece won by a complete
 *                exchange, rules_cxa.c). It is still forbidden against
 *                allowed moves (图23), but in a mutual perpetual attack the
 *                side that chases with single pieces must change: the book
 *                rules so in 图10, 11, 25, 26, 27, 28 and 参考图14, 34, 36,
 *                38 to 41 (图26: 一捉无根子一捉少根子 against 长捉车, the
 *                长捉车 side loses), and both sides at this level draw
 *                (参考图42);
 *   otherwise idle (一将一闲, 一捉一闲, 一杀一闲, exchanges, offers).
 *   A pawn's attacks alone are idle (Art. 27), also on a rook; but a side
 *   whose attacks are unbroken only with its pawns' chases counted is at
 *   fault when the other side attacks perpetually too (相互长打: the pawn's
 *   attack is a chase), at the other side's level (below check), so both
 *   at fault draw. A move that makes a combination (a quiet check after
 *   which the side's captures win material, or a sacrificial check whose
 *   taker falls to such a check, rules_cxa.c) chases, jointly.
 *   A chase under CXA is defined by material value and may be of different
 *   pieces on different moves; see rules_cxa.c. The cycle walk's CXA
 *   options (rules.h): a move out of check chases only with what it moves
 *   or uncovers (参考图6, 22, 47), and threatens mate or a combination only
 *   with what it makes (参考图42); a piece escaping its chaser may attack it
 *   back (参考图21); an attack handed over by the opponent's move becomes a
 *   chase once the attacker plays on (图10, 参考图34); a move chases with
 *   the attacks that stand only by the piece it moved (it holds the victim:
 *   参考图49, 50, 不能离线), jointly when the victim has a root (图11,
 *   参考图14, 38: 联合捉子).
 *
 * check-only: only perpetual check loses; every other repetition draws.
 *
 * All three count the 60-move limit the same way: 120 plies without a
 * capture, at most ten checks of each side counted (AXF 2017 and CXA).
 */
#include "rules.h"

#include <ctype.h>

#include "rules_chase.h"
#include "rules_cxa.h"

/* The names, each written once. */
#define NAME_ASIAN "asian"
#define NAME_CHINESE "chinese"
#define NAME_CHECK_ONLY "check-only"

/* AXF level: perpetual check over perpetual chase of one piece over idle. */
static int level_asian(const RulesSide *self, const RulesSide *other)
{
    (void)other;
    if (self->checks == self->moves)
        return LEVEL_CHECK;
    return self->common ? LEVEL_CHASE : LEVEL_IDLE;
}

/* CXA level of a side's own attacks, its pawns' aside: perpetual check over any unbroken run of attacks (长打),
 * one with a joint chase below it, over idle. */
static int level_cxa_own(const RulesSide *self)
{
    if (self->checks == self->moves)
        return LEVEL_CHECK;
    if (self->attacks != self->moves)
        return LEVEL_IDLE;
    return self->joints ? LEVEL_JOINT : LEVEL_CHASE;
}

/*
 * CXA level: level_cxa_own, but a side whose run of attacks is unbroken
 * only with its pawns' chases counted is at fault too when the other side
 * attacks perpetually (Art. 27: in a mutual perpetual attack a pawn's
 * attack is a chase), at the other side's level below check, so that both
 * at fault draw (Art. 26).
 */
static int level_chinese(const RulesSide *self, const RulesSide *other)
{
    const int own = level_cxa_own(self), theirs = level_cxa_own(other);
    if (own != LEVEL_IDLE || !self->pawns || self->attacks + self->pawns != self->moves || theirs == LEVEL_IDLE)
        return own;
    return theirs < LEVEL_CHASE ? theirs : LEVEL_CHASE;
}

/* Check-only level: perpetual check, or idle. */
static int level_check_only(const RulesSide *self, const RulesSide *other)
{
    (void)other;
    return self->checks == self->moves ? LEVEL_CHECK : LEVEL_IDLE;
}

const RuleSet rules_asian = {
    NAME_ASIAN, "AXF/WXF: perpetual check and perpetual chase of one piece lose",
    rules_chase_pairs, level_asian, false, false, false, false, RULES_QUIET_LIMIT, RULES_COUNTED_CHECKS, false,
};

const RuleSet rules_chinese = {
    NAME_CHINESE, "CXA: perpetual check, mate threat, chase and their mixtures lose",
    rules_cxa_threats, level_chinese, true, true, true, true, RULES_QUIET_LIMIT, RULES_COUNTED_CHECKS, true,
};

const RuleSet rules_check_only = {
    NAME_CHECK_ONLY, "only perpetual check loses",
    NULL, level_check_only, false, false, false, false, RULES_QUIET_LIMIT, RULES_COUNTED_CHECKS, false,
};

/* The rule sets in option order; the first is the default. */
static const RuleSet *const SETS[] = { &rules_asian, &rules_chinese, &rules_check_only };
enum { SET_COUNT = sizeof SETS / sizeof SETS[0] };

const char *const RULES_NAMES[] = { NAME_ASIAN, NAME_CHINESE, NAME_CHECK_ONLY, NULL };

/* Case-insensitive string equality. */
static bool name_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* Looks up a rule set by name. */
const RuleSet *rules_find(const char *name)
{
    for (int i = 0; name && i < SET_COUNT; i++)
        if (name_equal(name, SETS[i]->name))
            return SETS[i];
    return NULL;
}

/* The default rule set. */
const RuleSet *rules_default(void) { return SETS[0]; }

/* Number of rule sets. */
int rules_count(void) { return SET_COUNT; }

/* The i-th rule set, or NULL. */
const RuleSet *rules_at(int index) { return index >= 0 && index < SET_COUNT ? SETS[index] : NULL; }

/* Index of a rule set, or -1. */
int rules_index(const RuleSet *set)
{
    for (int i = 0; i < SET_COUNT; i++)
        if (SETS[i] == set)
            return i;
    return -1;
}

/* The names as one text. */
const char *rules_names_text(void) { return NAME_ASIAN ", " NAME_CHINESE ", " NAME_CHECK_ONLY; }
