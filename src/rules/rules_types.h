/*
 * rules_types.h - what a repetition cycle's moves are classified into, shared
 * by the rule sets' threat scans (rules_chase.c, rules_cxa.c) and the cycle
 * judge (rules.c) below them both: the levels and move classes, the limits,
 * what one side threatens in a position (RulesThreats) and the classes of one
 * side's moves over a cycle (RulesSide). Types and constants only.
 */
#ifndef XQ_RULES_TYPES_H
#define XQ_RULES_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* How hard a side attacked over a cycle: the higher level loses, equal levels draw.
 * LEVEL_JOINT (CXA only): perpetual attack that includes a joint chase (联合捉子, 捉少根子). */
enum { LEVEL_IDLE = 0, LEVEL_JOINT = 1, LEVEL_CHASE = 2, LEVEL_CHECK = 3 };

/* Classes of one move in a cycle (bits; none = idle). CLASS_JOINT comes with
 * CLASS_CHASE alone: every pair the move made new is a joint one. CLASS_PAWN
 * comes alone: the move's only new pairs are a pawn's (CXA Art. 27: idle,
 * unless the other side attacks perpetually too). */
enum { CLASS_CHECK = 1, CLASS_THREAT = 2, CLASS_CHASE = 4, CLASS_JOINT = 8, CLASS_PAWN = 16 };

enum {
    RULES_REPEAT_LIMIT = 3,    /* the position's 3rd occurrence ends the game */
    RULES_QUIET_LIMIT = 120,   /* 60 moves each without a capture */
    RULES_COUNTED_CHECKS = 10, /* checks per side counted towards the quiet limit */
    RULES_MIN_CYCLE = 4,       /* fewest plies between two occurrences of a position */
    RULES_EXPLAIN_MAX = 32,    /* per-move classes kept for messages (the first moves of a cycle) */
    RULES_SCAN_MARGIN = 48,    /* history plies a threat scan may add on top of the cycle */
    RULES_CACHE_PLIES = 64,    /* cycles up to this long have each position's threats scanned once */
};

/*
 * What one side threatens in a position, as a rule set sees it (compared
 * before and after a move): chase pairs, by[v] = attacker identity bits
 * (id & 15) that chase enemy piece v; real[v] the pairs among them whose
 * capture also wins material when everything else on the board is counted
 * (the same as by[] under AXF); joint[v] the pairs among them that win only
 * through a complete exchange against a protected victim (CXA 少根子, a
 * joint chase; none under AXF); rooted[v] the pairs whose victim has a root
 * at all, a fake one included: a piece that could take back on its square,
 * legality aside (CXA; none under AXF); and whether the side threatens mate.
 */
typedef struct RulesThreats {
    uint16_t by[16];
    uint16_t real[16];
    uint16_t joint[16];
    uint16_t rooted[16];
    bool mate;
    uint16_t pawn[16]; /* chase pairs whose attacker is a pawn (CXA Art. 27; none under AXF) */
    bool combo;        /* the side wins material by a check and a capture, more than by its captures now (CXA) */
} RulesThreats;

/* The classes of one side's moves over a cycle. */
typedef struct RulesSide {
    uint8_t moves;    /* moves of this side in the cycle (capped at 255) */
    uint8_t checks;   /* moves that gave check */
    uint8_t threats;  /* moves that newly threatened mate without checking */
    uint8_t chases;   /* moves that chased at least one piece anew */
    uint8_t attacks;  /* moves that were a check, a mate threat or a chase */
    uint16_t common;  /* enemy identity indexes chased anew by every move */
    uint8_t joints;   /* moves that were joint chases only (CLASS_JOINT) */
    uint8_t pawns;    /* moves whose only attack was a pawn's chase (CLASS_PAWN, not in attacks) */
} RulesSide;

#endif
