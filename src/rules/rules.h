/*
 * rules.h - how a game of xiangqi ends: repetition (perpetual check, chase
 * and, under the Chinese rules, mate threat), the 60-move natural limit,
 * dead positions (neither side can ever mate) and "no legal move loses".
 *
 * A rule set is a description (struct RuleSet): how each move of a
 * repetition cycle is classified (check, mate threat, chase of which enemy
 * pieces, idle), how the classes of each side's moves give that side a level
 * (the higher level loses, equal levels draw), and how the quiet-move limit
 * counts. The sets are constant tables selected by name (rules_find); no
 * caller switches on a rule set. The sets: "asian" (AXF/WXF), "chinese"
 * (CXA) and "check-only" (only perpetual check loses).
 *
 * Pure functions over a Position and its history (Position.hist back to the
 * last capture or null move). Nothing here prints or keeps state. Functions
 * taking a non-const Position may make and unmake moves on it but always
 * return it byte for byte unchanged.
 *
 * Two ways in:
 *  - the search calls rules_find_repetition() at every node (a tight key
 *    scan) and, only when it finds an earlier occurrence, rules_judge_cycle()
 *    on the cycle between that occurrence and now (the search takes a 2-fold
 *    as final when the earlier occurrence is its root or lies after it, and
 *    else waits for the third occurrence, as the rules do);
 *  - adjudication calls rules_game_status() after every move: it rules at
 *    no legal move, the third occurrence of a position, a dead position, or
 *    the quiet-move limit.
 */
#ifndef XQ_RULES_H
#define XQ_RULES_H

#include "board/position.h"
#include "rules_types.h"

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
    REASON_PERPETUAL_CHASE,  /* the loser chased (the same piece, under AXF) on every move */
    REASON_PERPETUAL_THREAT, /* the loser threatened mate on every move (CXA 长杀) */
    REASON_PERPETUAL_ATTACK, /* the loser mixed checks, mate threats and chases on every move (CXA 长打) */
    REASON_MUTUAL_CHECK,     /* both sides checked perpetually: draw */
    REASON_MUTUAL_CHASE,     /* both sides attacked perpetually at the same level: draw */
    REASON_REPETITION,       /* repetition without a forbidden perpetual attack: draw */
    REASON_QUIET_LIMIT,      /* the quiet-move limit (60 moves each without a capture): draw */
    REASON_DEAD_POSITION,    /* neither side has material that can ever give mate: draw */
    RULES_REASONS
} RulesReason;

/*
 * A rule set. `threats` fills what `side` threatens in pos (pos restored;
 * NULL: chases and mate threats do not count). A move chases a victim when
 * an (attacker, victim) pair exists after it that did not before (AXF D61)
 * or a pair becomes real (CXA 图12: an attack that could not be carried out
 * becomes one that can); it threatens mate when the mate threat is new.
 * `level` gives a side its level from its own and the other side's classes.
 * Options of the cycle walk:
 *  - evasion_keeps: a move out of check chases only with the piece it moves
 *    or by what it uncovers; the check merely suspended the other attacks,
 *    so evading does not renew them (CXA 参考图6, 参考图22). Likewise it
 *    threatens mate or a combination only when that did not stand after
 *    the side's own previous move and, unless the moved piece is a king or
 *    a block, does not stand without the moved piece (the checking move
 *    handed it over, 参考图42). Without it (AXF D37), every pair new since
 *    the checking move counts;
 *  - counter_idle: a piece chased by the previous move that escapes to a
 *    square from which it attacks its chaser does not chase it (the chaser
 *    brought it on itself, CXA 参考图21);
 *  - since_own: a pair is also new when it did not exist after the side's
 *    own previous move: an attack the victim walked into, or that the
 *    opponent's move uncovered, becomes a chase by the attacker once it
 *    plays on without taking (CXA 图10, 参考图34);
 *  - holder_chases: a move that neither checks nor threatens mate nor makes
 *    a new single pair also chases with the pairs that stand only because
 *    the moved piece stands where it went, its own attacks aside (lifted
 *    off the board, the pair would not be a chase): it holds the victim
 *    for another attacker, so it renews the chase even when it held it
 *    before from another square (CXA 参考图49, 50: 不能离线). Such a held
 *    pair is a joint chase (联合捉子) when its victim has a root, a fake one
 *    included: the two pieces overcome it together (图11, 参考图14, 38);
 *    of a rootless victim it is a single chase.
 * The quiet-move limit: `quiet_limit` counted plies without a capture draw,
 * each side's checks beyond `counted_checks` and the replies to them not
 * counted.
 */
typedef struct RuleSet {
    const char *name;
    const char *summary;
    void (*threats)(Position *pos, int side, RulesThreats *out);
    int (*level)(const RulesSide *self, const RulesSide *other);
    bool evasion_keeps; /* out of check, only attacks the move makes or uncovers are new */
    bool counter_idle;  /* a piece escaping a chaser may attack that chaser: idle */
    bool since_own;     /* pairs new since the side's own previous move are new too */
    bool holder_chases; /* pairs that stand only by the moved piece are chased by the move */
    int quiet_limit;
    int counted_checks;
    bool mixed_attacks; /* checks, mate threats and chases make one perpetual attack (CXA 长打): reasons name each
                           side's kind */
} RuleSet;

/* The rule sets. */
extern const RuleSet rules_asian, rules_chinese, rules_check_only;

/* Looks up a rule set by name (case-insensitive: "asian", "chinese", "check-only"); NULL if unknown. */
const RuleSet *rules_find(const char *name);
/* The default rule set (asian). */
const RuleSet *rules_default(void);
/* Number of rule sets, and the i-th (0 = the default); NULL outside 0..count-1. */
int rules_count(void);
const RuleSet *rules_at(int index);
/* Index of a rule set in rules_at order, or -1. */
int rules_index(const RuleSet *set);
/* The names, NULL-terminated, in rules_at order (for option combos). */
extern const char *const RULES_NAMES[];
/* The names as one text, "asian, chinese, check-only" (for messages). */
const char *rules_names_text(void);

/* Classification of one repetition cycle. */
typedef struct RulesCycle {
    uint8_t level[2];    /* LEVEL_* per side (RED, BLACK) */
    RulesSide side[2];   /* the classes of each side's moves */
    int start;           /* history index of the earlier occurrence the cycle starts at */
    int length;          /* plies in the cycle */
    uint8_t klass[RULES_EXPLAIN_MAX];      /* CLASS_* bits of the first moves of the cycle */
    uint16_t victims[RULES_EXPLAIN_MAX];   /* enemy indexes each of those moves chased anew */
} RulesCycle;

/* A ruling with its reason and details for the message. */
typedef struct RulesReport {
    RulesVerdict verdict;
    RulesReason reason;
    int occurrences;   /* times the current position has occurred (since the last capture) */
    int quiet_plies;   /* counted plies toward the quiet-move limit */
    RulesCycle cycle;  /* valid for repetition reasons */
} RulesReport;

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

/* Number of times the current position has occurred since the last capture or null move (1 = first time);
 * *first gets the index of its first occurrence. */
int rules_count_occurrences(const Position *pos, int *first);

/*
 * Rules the cycle from history index `start` (an earlier occurrence of the
 * current position) to now under `set`: the side with the higher level
 * loses, equal levels draw. Fills *cycle if not NULL. Returns RULES_DRAW,
 * RULES_RED_LOSES or RULES_BLACK_LOSES (a draw when start is not at least
 * RULES_MIN_CYCLE plies back).
 */
RulesVerdict rules_judge_cycle(Position *pos, int start, const RuleSet *set, RulesCycle *cycle);

/* Search hook: RULES_ONGOING if the position does not repeat, else the ruling of the cycle since its latest
 * earlier occurrence. */
RulesVerdict rules_search_repetition(Position *pos, const RuleSet *set);

/* Plies counted toward the quiet-move limit of `set`: plies since the last capture, less each side's checks
 * beyond the counted ones and the replies to them. */
int rules_quiet_plies(const Position *pos, const RuleSet *set);

/* Full adjudication of the current position: no legal move, 3rd occurrence, dead position, then the quiet-move
 * limit. */
RulesVerdict rules_game_status(Position *pos, const RuleSet *set, RulesReport *report);

/*
 * Is the position dead: can neither side ever give mate, whatever is played?
 * True when neither side has a rook, horse or cannon, and no pawn of either
 * side can still reach a square from which a pawn can check (see
 * rules_dead.c for the reasoning). Cheap: a piece scan.
 */
bool rules_dead_position(const Position *pos);

/* +1 if the verdict wins for `side`, -1 if it loses, 0 for a draw or an ongoing game. */
int rules_verdict_for_side(RulesVerdict verdict, int side);

/* What a side did over a cycle, each move counted by its strictest class (CXA 从严): bits of rules_side_kind. */
enum { KIND_CHECK = 1, KIND_THREAT = 2, KIND_CHASE = 4, KIND_IDLE = 8, KINDS = 16 };

/* The KIND_* bits of a side's moves over a cycle at `level` (its LEVEL_*: pawn chases count as chases when they
 * raised it). */
int rules_side_kind(const RulesSide *s, int level);

/* Short text of a move class ("check", "mate threat", "chase", "check+chase", "chase+joint", "idle"); buf of
 * 32 bytes. */
const char *rules_class_text(int klass, char *buf);

#endif
