/*
 * rules.h - how a game of xiangqi ends: repetition (perpetual check and
 * chase), the 60-move natural limit, and "no legal move loses".
 *
 * Pure functions over a Position and its history (Position.hist back to the
 * last capture or null move). Nothing here prints or keeps state; the rule
 * set is passed explicitly. Functions taking a non-const Position may make
 * and unmake moves on it but always return it byte for byte unchanged.
 *
 * Two ways in:
 *  - the search calls rules_find_repetition() at every node (a tight key
 *    scan) and, only when it finds an earlier occurrence, rules_judge_cycle()
 *    on the cycle between that occurrence and now (a 2-fold is final there);
 *  - adjudication calls rules_game_status() after every move: it rules at
 *    the third occurrence of a position, the 120th counted quiet ply, or
 *    when the side to move has no legal move.
 */
#ifndef XQ_RULES_H
#define XQ_RULES_H

#include "position.h"

/* Which repetition rules apply. Passed explicitly; room for CXA later. */
typedef enum RuleSet {
    RULES_ASIAN,      /* AXF/WXF: perpetual check and perpetual chase lose */
    RULES_CHECK_ONLY, /* only perpetual check loses; chase repetition is a draw */
    RULE_SETS
} RuleSet;

/* What the rules say about the game (or a repetition cycle). */
typedef enum RulesVerdict {
    RULES_ONGOING,     /* no rule ends the game */
    RULES_DRAW,
    RULES_RED_LOSES,
    RULES_BLACK_LOSES
} RulesVerdict;

/* Why the game ended. */
typedef enum RulesReason {
    REASON_NONE,
    REASON_NO_LEGAL_MOVE,    /* checkmate or stalemate: the side to move loses */
    REASON_PERPETUAL_CHECK,  /* the loser checked on every move of the cycle */
    REASON_PERPETUAL_CHASE,  /* the loser chased the same piece on every move */
    REASON_MUTUAL_CHECK,     /* both sides checked perpetually: draw */
    REASON_MUTUAL_CHASE,     /* both sides chased perpetually: draw */
    REASON_REPETITION,       /* repetition without a forbidden perpetual attack: draw */
    REASON_QUIET_LIMIT       /* 120 counted plies without a capture: draw */
} RulesReason;

/* How hard a side attacked over a cycle: the higher level loses. */
enum { LEVEL_IDLE = 0, LEVEL_CHASE = 1, LEVEL_CHECK = 2 };

enum {
    RULES_REPEAT_LIMIT = 3,    /* the position's 3rd occurrence ends the game */
    RULES_QUIET_LIMIT = 120,   /* 60 moves each without a capture */
    RULES_COUNTED_CHECKS = 10, /* checks per side counted towards the quiet limit */
    RULES_MIN_CYCLE = 4,       /* fewest plies between two occurrences of a position */
};

/* Classification of one repetition cycle. */
typedef struct RulesCycle {
    uint8_t level[2];   /* LEVEL_* per side (RED, BLACK) */
    uint16_t chased[2]; /* per side: enemy identity indexes (id & 15) chased on every move */
    int start;          /* history index of the earlier occurrence the cycle starts at */
} RulesCycle;

/* A ruling with its reason and details for the message. */
typedef struct RulesReport {
    RulesVerdict verdict;
    RulesReason reason;
    int occurrences;   /* times the current position has occurred (since the last capture) */
    int quiet_plies;   /* counted plies toward the 60-move limit */
    RulesCycle cycle;  /* valid for repetition reasons */
} RulesReport;

/* Looks up a rule set by name ("asian", "check-only"); false if unknown. */
bool rules_set_from_name(const char *name, RuleSet *out);
/* Name of a rule set, as rules_set_from_name accepts it. */
const char *rules_set_name(RuleSet set);

/*
 * Fast repetition scan for the search: the history index of the latest
 * earlier position equal to the current one (same key, same side to move, no
 * capture or null move in between), or -1. Walks at most the plies since the
 * last capture, two at a time.
 */
static inline int rules_find_repetition(const Position *pos)
{
    const int ply = pos->ply;
    const int window = pos->rule60 < ply ? pos->rule60 : ply;
    const int end = ply - window;
    if (window < RULES_MIN_CYCLE || pos->hist[ply - 1].move == MOVE_NONE || pos->hist[ply - 2].move == MOVE_NONE)
        return -1;
    for (int i = ply - 4; i >= end; i -= 2) {
        if (pos->hist[i].move == MOVE_NONE || pos->hist[i + 1].move == MOVE_NONE)
            return -1;
        if (pos->hist[i].key == pos->key)
            return i;
    }
    return -1;
}

/* Number of times the current position has occurred since the last capture or null move (1 = first time); *first gets the index of its first occurrence. */
int rules_count_occurrences(const Position *pos, int *first);

/*
 * Rules the cycle from history index `start` (an earlier occurrence of the
 * current position) to now: the side with the higher level (perpetual check
 * over perpetual chase over idle) loses, equal levels draw. Fills *cycle if
 * not NULL. Returns RULES_DRAW, RULES_RED_LOSES or RULES_BLACK_LOSES.
 */
RulesVerdict rules_judge_cycle(Position *pos, int start, RuleSet set, RulesCycle *cycle);

/* Search hook: RULES_ONGOING if the position does not repeat, else the ruling of the cycle since its latest earlier occurrence. */
RulesVerdict rules_search_repetition(Position *pos, RuleSet set);

/* Plies counted toward the 60-move limit: plies since the last capture, less each side's checks beyond ten and the replies to them. */
int rules_quiet_plies(const Position *pos);

/* Full adjudication of the current position: no legal move, 3rd occurrence, then the 60-move limit. */
RulesVerdict rules_game_status(Position *pos, RuleSet set, RulesReport *report);

/* +1 if the verdict wins for `side`, -1 if it loses, 0 for a draw or an ongoing game. */
int rules_verdict_for_side(RulesVerdict verdict, int side);

#endif
