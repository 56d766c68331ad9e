/*
 * rules.c - repetition rulings, the 60-move limit and game-end adjudication
 * under the Asian (AXF/WXF) rules, or check-only.
 *
 * A repetition cycle is ruled by giving each side a level over its moves in
 * the cycle: LEVEL_CHECK if every one of its moves gave check, LEVEL_CHASE if
 * one enemy piece (tracked by identity) was chased anew by every one of its
 * moves, LEVEL_IDLE otherwise. The higher level loses; equal levels draw
 * (AXF general rules 5-7: mutual perpetual check or chase is a draw;
 * perpetual check against perpetual chase: the checker loses "under any
 * circumstance", rule 6).
 *
 * Decisions on the disputed points of rules.md section 4, as the AXF rulebook
 * has them:
 *  (a) A check elsewhere in the cycle does not void a chase (AXF D37, D50:
 *      the chaser loses even though the victim's side checks in reply). A
 *      checking move may itself chase; a side that alternates checks with a
 *      chase of a piece its checks do not also chase has no common victim and
 *      draws (AXF rule 12, "one check one chase", D13).
 *  (b) A rook pinned on a horse's leg may not be chased (AXF rule 19, D39-41);
 *      see rules_chase.c.
 *  (c) A new attacker on a victim already attacked by another piece is a new
 *      chase: novelty is judged per (attacker, victim) pair (AXF D61).
 *  (d) Removing a victim's protector, e.g. by moving a cannon's screen, is a
 *      chase by the attacker (AXF appendix): the (attacker, victim) pair only
 *      becomes a chase pair when the protection goes, so it is new.
 */
#include "rules.h"

#include <string.h>

#include "movegen.h"
#include "rules_chase.h"

/* Rule-set names, indexed by RuleSet. */
static const char *const RULE_SET_NAMES[RULE_SETS] = { "asian", "check-only" };

/* Looks up a rule set by name. */
bool rules_set_from_name(const char *name, RuleSet *out)
{
    for (int i = 0; i < RULE_SETS; i++) {
        if (strcmp(name, RULE_SET_NAMES[i]) == 0) {
            *out = (RuleSet)i;
            return true;
        }
    }
    return false;
}

/* Name of a rule set. */
const char *rules_set_name(RuleSet set) { return set >= 0 && set < RULE_SETS ? RULE_SET_NAMES[set] : "?"; }

/* Counts the current position's occurrences since the last capture or null move. */
int rules_count_occurrences(const Position *pos, int *first)
{
    const int ply = pos->ply;
    const int window = pos->rule60 < ply ? pos->rule60 : ply;
    const int end = ply - window;
    int count = 1;
    *first = ply;
    for (int i = ply - 1; i >= end; i--) {
        if (pos->hist[i].move == MOVE_NONE)
            break;
        if (((ply - i) & 1) == 0 && pos->hist[i].key == pos->key) {
            count++;
            *first = i;
        }
    }
    return count;
}

/* Verdict for the side with the higher level; a draw when the levels are equal. */
static RulesVerdict verdict_from_levels(const uint8_t level[2])
{
    if (level[RED] == level[BLACK])
        return RULES_DRAW;
    return level[RED] > level[BLACK] ? RULES_RED_LOSES : RULES_BLACK_LOSES;
}

/* Rules the cycle from history index `start` to now. */
RulesVerdict rules_judge_cycle(Position *pos, int start, RuleSet set, RulesCycle *cycle)
{
    const int ply = pos->ply;
    const int length = ply - start;
    const bool chases_count = set == RULES_ASIAN;
    Move moves[MAX_HISTORY];
    bool all_checks[2] = { true, true };
    uint16_t common[2] = { UINT16_MAX, UINT16_MAX }; /* victims chased by every move so far */
    ChasePairs pairs[2][2]; /* [before/after][side] */

    for (int k = length - 1; k >= 0; k--) {
        moves[k] = pos->hist[start + k].move;
        pos_unmake(pos);
    }
    if (chases_count) {
        rules_chase_pairs(pos, RED, &pairs[0][RED]);
        rules_chase_pairs(pos, BLACK, &pairs[0][BLACK]);
    }
    for (int k = 0; k < length; k++) {
        const int mover = pos->side;
        pos_make(pos, moves[k]);
        all_checks[mover] = all_checks[mover] && pos->in_check;
        if (!chases_count)
            continue;
        /* Once a side has no common victim left its pairs are no longer needed. */
        for (int s = RED; s <= BLACK; s++)
            if (common[s])
                rules_chase_pairs(pos, s, &pairs[1][s]);
        if (common[mover])
            common[mover] &= rules_new_victims(&pairs[0][mover], &pairs[1][mover]);
        memcpy(pairs[0], pairs[1], sizeof pairs[0]);
    }

    RulesCycle c;
    c.start = start;
    for (int s = RED; s <= BLACK; s++) {
        c.chased[s] = chases_count ? common[s] : 0;
        c.level[s] = all_checks[s] ? LEVEL_CHECK : c.chased[s] ? LEVEL_CHASE : LEVEL_IDLE;
    }
    if (cycle)
        *cycle = c;
    return verdict_from_levels(c.level);
}

/* Search hook: the ruling of the cycle since the latest earlier occurrence, if any. */
RulesVerdict rules_search_repetition(Position *pos, RuleSet set)
{
    const int start = rules_find_repetition(pos);
    return start < 0 ? RULES_ONGOING : rules_judge_cycle(pos, start, set, NULL);
}

/* Plies counted toward the 60-move limit. */
int rules_quiet_plies(const Position *pos)
{
    const int ply = pos->ply;
    const int window = pos->rule60 < ply ? pos->rule60 : ply;
    int checks[2] = { 0, 0 };
    for (int k = ply - window; k < ply; k++) {
        const int mover = ((ply - k) & 1) ? pos->side ^ 1 : pos->side;
        checks[mover] += pos->hist[k].check;
    }
    /* AXF 2017 natural-limit clause: at most ten checks of a side are
     * counted; each further check and the reply to it are void plies. */
    int excess = 0;
    for (int s = RED; s <= BLACK; s++)
        if (checks[s] > RULES_COUNTED_CHECKS)
            excess += checks[s] - RULES_COUNTED_CHECKS;
    const int quiet = pos->rule60 - 2 * excess;
    return quiet > 0 ? quiet : 0;
}

/* Verdict that the side to move has lost. */
static RulesVerdict side_to_move_loses(const Position *pos)
{
    return pos->side == RED ? RULES_RED_LOSES : RULES_BLACK_LOSES;
}

/* Adjudicates the current position: no legal move, then the 3rd occurrence, then the 60-move limit. */
RulesVerdict rules_game_status(Position *pos, RuleSet set, RulesReport *report)
{
    int first;
    memset(report, 0, sizeof *report);
    report->quiet_plies = rules_quiet_plies(pos);
    report->occurrences = rules_count_occurrences(pos, &first);
    /* AXF rule 2: a side with no legal move loses, stalemated or mated; this
     * comes first, so a mate on the 120th quiet ply still wins. */
    if (count_legal(pos) == 0) {
        report->verdict = side_to_move_loses(pos);
        report->reason = REASON_NO_LEGAL_MOVE;
    } else if (report->occurrences >= RULES_REPEAT_LIMIT) {
        RulesCycle *c = &report->cycle;
        report->verdict = rules_judge_cycle(pos, first, set, c);
        if (report->verdict == RULES_DRAW)
            report->reason = c->level[RED] == LEVEL_CHECK ? REASON_MUTUAL_CHECK
                : c->level[RED] == LEVEL_CHASE             ? REASON_MUTUAL_CHASE
                                                           : REASON_REPETITION;
        else {
            const int loser = report->verdict == RULES_RED_LOSES ? RED : BLACK;
            report->reason = c->level[loser] == LEVEL_CHECK ? REASON_PERPETUAL_CHECK : REASON_PERPETUAL_CHASE;
        }
    } else if (report->quiet_plies >= RULES_QUIET_LIMIT) {
        report->verdict = RULES_DRAW;
        report->reason = REASON_QUIET_LIMIT;
    } else {
        report->verdict = RULES_ONGOING;
        report->reason = REASON_NONE;
    }
    return report->verdict;
}

/* +1 win, -1 loss, 0 otherwise, for `side`. */
int rules_verdict_for_side(RulesVerdict verdict, int side)
{
    if (verdict == RULES_RED_LOSES)
        return side == RED ? -1 : 1;
    if (verdict == RULES_BLACK_LOSES)
        return side == BLACK ? -1 : 1;
    return 0;
}
