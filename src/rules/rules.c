/*
 * rules.c - repetition rulings, the quiet-move limit and game-end
 * adjudication, for any rule set (the sets themselves: rules_sets.c).
 *
 * A repetition cycle is ruled by classifying every move in it: a check
 * (the side now to move is in check), a mate threat (the rule set's threats
 * say the mover threatens mate, and did not before the move), a chase of a
 * victim (an (attacker, victim) chase pair of the mover exists after the move
 * that did not before it: a new attacker, a discovered attack or a protector
 * removed; or a combination the rule set reports, RulesThreats.combo, that
 * the move made), or idle; a chase whose new pairs are all joint ones (the
 * rule set marks them, RulesThreats.joint; a combination is one) is also a
 * joint chase, and a move whose only new pairs are a pawn's (RulesThreats.
 * pawn) is a pawn chase, which the rule set's level counts or not. A rule set may
 * also count the pairs a move holds (holder_chases: pairs that stand only by
 * the moved piece, another piece attacking). The classes of
 * each side's moves are summed up in a RulesSide and the rule set gives each
 * side a level from them; the higher level loses, equal levels draw.
 */
#include "rules.h"

#include <string.h>

#include "board/movegen.h"
#include "rules_chase.h"

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

/*
 * Victims with an (attacker, victim) pair in `after` that `before` lacks,
 * that became real, or that was joint and is single now (the victim's last
 * root removed); *single gets those among them with such a pair that is not
 * a joint one.
 */
static uint16_t new_victims(const RulesThreats *before, const RulesThreats *after, uint16_t *single)
{
    uint16_t victims = 0;
    for (int v = 0; v < SIDE_PIECES; v++) {
        const uint16_t pairs = (uint16_t)((after->by[v] & ~before->by[v]) | (after->real[v] & ~before->real[v])
                                          | (after->by[v] & before->joint[v] & ~after->joint[v]));
        if (pairs)
            victims |= (uint16_t)(1u << v);
        if (pairs & ~after->joint[v])
            *single |= (uint16_t)(1u << v);
    }
    return victims;
}

/* Victims with a pawn's chase pair in `after` that `before` lacks. */
static uint16_t new_pawn_victims(const RulesThreats *before, const RulesThreats *after)
{
    uint16_t victims = 0;
    for (int v = 0; v < SIDE_PIECES; v++)
        if (after->pawn[v] & ~before->pawn[v])
            victims |= (uint16_t)(1u << v);
    return victims;
}

/*
 * Drops from `after` (the mover's threats after move m, which took it out of
 * check) the pairs that m neither made nor uncovered: pairs whose attacker
 * is not the moved piece and whose line or leg does not pass over the
 * squares m left or reached. The check only suspended those attacks.
 */
static void keep_evasion_pairs(const Position *pos, Move m, int mover, RulesThreats *after)
{
    const int us = side_tag(mover), them = side_tag(mover ^ 1);
    const int moved = pos->board[move_to(m)] & 15;
    for (int v = 0; v < SIDE_PIECES; v++)
        for (int a = 0; a < SIDE_PIECES; a++) {
            const uint16_t bit = (uint16_t)(1u << a);
            if (!(after->by[v] & bit) || a == moved)
                continue;
            const int from = pos->piece_sq[us + a], to = pos->piece_sq[them + v], type = piece_type(us + a);
            if (!rules_passes_over(type, from, to, move_from(m)) && !rules_passes_over(type, from, to, move_to(m))) {
                after->by[v] &= (uint16_t)~bit;
                after->real[v] &= (uint16_t)~bit;
            }
        }
}

/* Drops from `after` the moved piece's attacks on the pieces that chased it by the previous move (`chased`: its
 * victims), a counter-attack while escaping. */
static void drop_counter_attacks(const Position *pos, Move m, uint16_t chased, const RulesThreats *their_before,
                                 RulesThreats *after)
{
    const int moved = pos->board[move_to(m)] & 15;
    if (!(chased & (1u << moved)))
        return;
    for (int v = 0; v < SIDE_PIECES; v++)
        if (their_before->by[moved] & (1u << v)) {
            after->by[v] &= (uint16_t)~(1u << moved);
            after->real[v] &= (uint16_t)~(1u << moved);
        }
}

/*
 * What `mover` threatens with the piece that move m brought to its square
 * lifted off the board (*without); false, nothing filled, when the piece is
 * a king (never lifted) or shields its own king (lifted, the king would be
 * attacked).
 */
static bool lifted_threats(Position *pos, Move m, int mover, const RuleSet *set, RulesThreats *without)
{
    const int sq = move_to(m), id = pos->board[sq];
    if (piece_type(id) == KING)
        return false;
    pos->board[sq] = EMPTY;
    pos->piece_sq[id] = 0;
    const bool exposed = side_in_check(pos, mover);
    if (!exposed)
        set->threats(pos, mover, without);
    pos->board[sq] = (uint8_t)id;
    pos->piece_sq[id] = (uint8_t)sq;
    return !exposed;
}

/*
 * Victims of the pairs in `made` (the mover's threats after move m) that
 * stand only because the moved piece stands on its square, its own attacks
 * aside: lifted off the board, the pair is no chase (holder_chases). *single
 * gets those with such a pair whose victim has no root at all (a held pair
 * of a rooted victim is a joint chase). None for a king move (a king is
 * never lifted), nor when lifting the piece would leave its own king
 * attacked: it shields the king and holds nothing else.
 */
static uint16_t held_victims(Position *pos, Move m, int mover, const RuleSet *set, const RulesThreats *made,
                             uint16_t *single)
{
    const uint16_t self = (uint16_t)(1u << (pos->board[move_to(m)] & 15)), others = (uint16_t)~self;
    uint16_t any = 0;
    for (int v = 0; v < SIDE_PIECES; v++)
        any |= made->by[v] & others;
    RulesThreats without;
    if (!any || !lifted_threats(pos, m, mover, set, &without))
        return 0;
    uint16_t victims = 0;
    for (int v = 0; v < SIDE_PIECES; v++) {
        const uint16_t pairs = (uint16_t)(made->by[v] & others & ~without.by[v]);
        if (pairs)
            victims |= (uint16_t)(1u << v);
        if (pairs & ~made->rooted[v] & ~made->joint[v])
            *single |= (uint16_t)(1u << v);
    }
    return victims;
}

/*
 * Drops from `made` (the mover's threats after move m, which took it out of
 * check) the mate threat and the combination that m did not make: those
 * that stood after the mover's own previous move (`own`: the check only
 * suspended them), and those that stand without the piece m moved (lifted
 * off the board, the side still has them: the checking move handed them
 * over, a defender leaving its post to check, CXA 参考图42). A king's step
 * and a block (a piece that cannot be lifted) are judged by the first test
 * alone.
 */
static void keep_evasion_threats(Position *pos, Move m, int mover, const RuleSet *set, const RulesThreats *own,
                                 RulesThreats *made)
{
    made->mate = made->mate && !own->mate;
    made->combo = made->combo && !own->combo;
    RulesThreats without;
    if ((made->mate || made->combo) && lifted_threats(pos, m, mover, set, &without)) {
        made->mate = made->mate && !without.mate;
        made->combo = made->combo && !without.combo;
    }
}

/* Adds one move's classes to its side's summary. */
static void side_add(RulesSide *s, int klass, uint16_t victims)
{
    if (s->moves == UINT8_MAX)
        return; /* counts are capped; a cycle this long is ruled on its first 255 moves per side */
    s->common = s->moves == 0 ? victims : (uint16_t)(s->common & victims);
    s->moves++;
    s->checks += (klass & CLASS_CHECK) != 0;
    s->threats += (klass & CLASS_THREAT) != 0;
    s->chases += (klass & CLASS_CHASE) != 0;
    s->joints += (klass & CLASS_JOINT) != 0;
    s->pawns += klass == CLASS_PAWN;
    s->attacks += (klass & ~CLASS_PAWN) != 0;
}

/* Are this side's threats still needed: for the report (full), or because later moves can still raise it above idle? */
static bool side_open(const RulesSide *s, bool full)
{
    return full || s->attacks + s->pawns == s->moves || s->common != 0;
}

/* Rules the cycle from history index `start` to now. */
RulesVerdict rules_judge_cycle(Position *pos, int start, const RuleSet *set, RulesCycle *cycle)
{
    const int ply = pos->ply;
    const int length = ply - start;
    RulesCycle c;
    memset(&c, 0, sizeof c);
    if (start < 0 || length < RULES_MIN_CYCLE) { /* not a cycle: nothing to rule on */
        if (cycle)
            *cycle = c;
        return RULES_DRAW;
    }
    c.start = start;
    c.length = length;
    const bool full = cycle != NULL; /* a report classifies every move; the search stops at what decides */
    Move moves[MAX_HISTORY];
    RulesThreats state[2][2]; /* [before/after][side] */
    uint16_t last_victims = 0;  /* what the previous move chased */
    for (int k = length - 1; k >= 0; k--) {
        moves[k] = pos->hist[start + k].move;
        pos_unmake(pos);
    }
    memset(state, 0, sizeof state);
    /* Threat scans make moves of their own: they need room in the history (a
     * game of nearly MAX_HISTORY plies is ruled on checks alone). */
    const bool scan = set->threats && ply + RULES_SCAN_MARGIN < MAX_HISTORY;
    if (scan) {
        set->threats(pos, RED, &state[0][RED]);
        set->threats(pos, BLACK, &state[0][BLACK]);
    }
    RulesThreats own[2]; /* per side: its threats after its own previous move */
    memcpy(own, state[0], sizeof own);
    /* Where a move's class depends on the move before it (counter_idle), the
     * cycle is walked twice and classified on the second walk, whose first
     * move follows the cycle's last (the position is the same); the first
     * walk only sets up the threats and the previous move's chases. */
    const bool wrap = scan && set->counter_idle && ply + length + RULES_SCAN_MARGIN < MAX_HISTORY;
    const int passes = wrap ? 2 * length : length;
    /* The second walk meets the first walk's positions again: their threats
     * are kept (for cycles of up to RULES_CACHE_PLIES plies) and not rescanned. */
    RulesThreats seen[RULES_CACHE_PLIES][2];
    const bool cached = wrap && length <= RULES_CACHE_PLIES;
    for (int k = 0; k < passes; k++) {
        const int mover = pos->side, index = k % length;
        const bool evading = pos->in_check && set->evasion_keeps;
        pos_make(pos, moves[index]);
        int klass = pos->in_check ? CLASS_CHECK : 0;
        uint16_t victims = 0;
        if (scan) {
            for (int s = RED; s <= BLACK; s++) {
                if (!side_open(&c.side[s], full))
                    continue;
                if (cached && k >= length) {
                    state[1][s] = seen[index][s];
                } else {
                    set->threats(pos, s, &state[1][s]);
                    if (cached)
                        seen[index][s] = state[1][s];
                }
            }
            if (side_open(&c.side[mover], full)) {
                RulesThreats made = state[1][mover];
                if (evading) { /* the check suspended the mover's attacks: only what the move made counts */
                    keep_evasion_pairs(pos, moves[index], mover, &made);
                    keep_evasion_threats(pos, moves[index], mover, set, &own[mover], &made);
                }
                if (set->counter_idle)
                    drop_counter_attacks(pos, moves[index], last_victims, &state[0][mover ^ 1], &made);
                uint16_t single = 0;
                victims = new_victims(&state[0][mover], &made, &single);
                if (set->since_own) /* an attack the opponent's move handed over becomes ours if we play on */
                    victims |= new_victims(&own[mover], &made, &single);
                if (!pos->in_check && made.mate && !state[0][mover].mate)
                    klass |= CLASS_THREAT;
                if (set->holder_chases && !evading && !klass && !single) /* it may hold a victim for another attacker */
                    victims |= held_victims(pos, moves[index], mover, set, &made, &single);
                /* else a combination (a check that wins material next) made by the move, or handed over and kept */
                const bool combo =
                    !victims && made.combo && (!state[0][mover].combo || (set->since_own && !own[mover].combo));
                if (victims || combo)
                    klass |= CLASS_CHASE;
                if (!klass) { /* a pawn's new attack: idle, unless both sides attack (Art. 27) */
                    victims = new_pawn_victims(&state[0][mover], &made);
                    if (set->since_own)
                        victims |= new_pawn_victims(&own[mover], &made);
                    klass = victims ? CLASS_PAWN : 0;
                }
                if (klass == CLASS_CHASE && !single) /* only joint chases (a combination is one), no check or threat */
                    klass |= CLASS_JOINT;
            }
            own[mover] = state[1][mover];
            memcpy(state[0], state[1], sizeof state[0]);
        }
        last_victims = victims;
        if (wrap && k < length)
            continue;
        side_add(&c.side[mover], klass, victims);
        if (index < RULES_EXPLAIN_MAX) {
            c.klass[index] = (uint8_t)klass;
            c.victims[index] = victims;
        }
    }
    for (int k = 0; wrap && k < length; k++)
        pos_unmake(pos);
    for (int s = RED; s <= BLACK; s++)
        c.level[s] = (uint8_t)set->level(&c.side[s], &c.side[s ^ 1]);
    if (cycle)
        *cycle = c;
    return verdict_from_levels(c.level);
}

/* Search hook: the ruling of the cycle since the latest earlier occurrence, if any. */
RulesVerdict rules_search_repetition(Position *pos, const RuleSet *set)
{
    const int start = rules_find_repetition(pos);
    return start < 0 ? RULES_ONGOING : rules_judge_cycle(pos, start, set, NULL);
}

/* Plies counted toward the quiet-move limit. */
int rules_quiet_plies(const Position *pos, const RuleSet *set)
{
    const int ply = pos->ply;
    const int window = pos->rule60 < ply ? pos->rule60 : ply;
    int checks[2] = { 0, 0 };
    for (int k = ply - window; k < ply; k++) {
        const int mover = ((ply - k) & 1) ? pos->side ^ 1 : pos->side;
        checks[mover] += pos->hist[k].check;
    }
    /* AXF 2017 / CXA natural-limit clause: at most ten checks of a side are
     * counted; each further check and the reply to it are void plies. */
    int excess = 0;
    for (int s = RED; s <= BLACK; s++)
        if (checks[s] > set->counted_checks)
            excess += checks[s] - set->counted_checks;
    const int quiet = pos->rule60 - 2 * excess;
    return quiet > 0 ? quiet : 0;
}

/* Verdict that the side to move has lost. */
static RulesVerdict side_to_move_loses(const Position *pos)
{
    return pos->side == RED ? RULES_RED_LOSES : RULES_BLACK_LOSES;
}

/* The reason for a repetition verdict, from the loser's (or both sides') classes. */
static RulesReason repetition_reason(RulesVerdict verdict, const RulesCycle *c)
{
    if (verdict == RULES_DRAW)
        return c->level[RED] == LEVEL_CHECK ? REASON_MUTUAL_CHECK
             : c->level[RED] > LEVEL_IDLE   ? REASON_MUTUAL_CHASE
                                            : REASON_REPETITION;
    const RulesSide *s = &c->side[verdict == RULES_RED_LOSES ? RED : BLACK];
    if (s->checks == s->moves)
        return REASON_PERPETUAL_CHECK;
    if (s->common)
        return REASON_PERPETUAL_CHASE;
    if (s->threats == s->moves)
        return REASON_PERPETUAL_THREAT;
    if (s->chases == s->moves)
        return REASON_PERPETUAL_CHASE;
    return REASON_PERPETUAL_ATTACK;
}

/* Adjudicates the current position: no legal move, the 3rd occurrence, a dead position, then the quiet limit. */
RulesVerdict rules_game_status(Position *pos, const RuleSet *set, RulesReport *report)
{
    int first;
    memset(report, 0, sizeof *report);
    report->quiet_plies = rules_quiet_plies(pos, set);
    report->occurrences = rules_count_occurrences(pos, &first);
    /* AXF rule 2, CXA 困毙: a side with no legal move loses, stalemated or
     * mated; this comes first, so a mate on the 120th quiet ply still wins. */
    if (count_legal(pos) == 0) {
        report->verdict = side_to_move_loses(pos);
        report->reason = REASON_NO_LEGAL_MOVE;
    } else if (report->occurrences >= RULES_REPEAT_LIMIT) {
        report->verdict = rules_judge_cycle(pos, first, set, &report->cycle);
        report->reason = repetition_reason(report->verdict, &report->cycle);
    } else if (rules_dead_position(pos)) {
        report->verdict = RULES_DRAW;
        report->reason = REASON_DEAD_POSITION;
    } else if (report->quiet_plies >= set->quiet_limit) {
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

/* The KIND_* bits of a side's moves: checks, mate threats (never checks), the other attacks, idle moves. */
int rules_side_kind(const RulesSide *s, int level)
{
    const int pawns = level > LEVEL_IDLE && s->attacks != s->moves ? s->pawns : 0; /* they raised the level */
    const int chases = s->attacks - s->checks - s->threats + pawns;
    int kind = 0;
    if (s->checks)
        kind |= KIND_CHECK;
    if (s->threats)
        kind |= KIND_THREAT;
    if (chases > 0)
        kind |= KIND_CHASE;
    if (s->attacks + pawns < s->moves)
        kind |= KIND_IDLE;
    return kind;
}

/* Short text of a move class. */
const char *rules_class_text(int klass, char *buf)
{
    static const char *const NAMES[] = { "check", "mate threat", "chase", "joint", "pawn chase" };
    enum { NAME_COUNT = sizeof NAMES / sizeof NAMES[0] };
    buf[0] = '\0';
    for (int b = 0; b < NAME_COUNT; b++)
        if (klass & (1 << b)) {
            if (buf[0])
                strcat(buf, "+");
            strcat(buf, NAMES[b]);
        }
    if (!buf[0])
        strcat(buf, "idle");
    return buf;
}
