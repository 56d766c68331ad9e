/*
 * strength.h - playing weaker on purpose: Skill Level 0..20 (20 = full
 * strength), UCI_LimitStrength with UCI_Elo, and UCCI's randomness.
 *
 * A skill level below 20 caps the nodes of each move (2^(5 + level / 2):
 * 32 nodes at level 0, about 23000 at level 19) and adds noise to every
 * static evaluation (+-10 centipawns per level below 20), the same noise for
 * the same position within a game (hashed from its key and a seed drawn at
 * each new game), so the search stays consistent but the weak levels misjudge
 * positions as a weak player does. Levels are continuous: UCI_Elo picks a
 * level between the integers (hundredths) by the calibration table of
 * strength.c, which maps the levels measured by matches against Jiangjun at
 * fixed node counts (tools/strength/README.md) to Elo. UCCI randomness (tiny
 * .. huge) adds the same kind of noise at full strength (the larger of the
 * two amplitudes counts).
 */
#ifndef XQ_STRENGTH_H
#define XQ_STRENGTH_H

#include <stdint.h>

enum {
    SKILL_MAX = 20,            /* full strength */
    SKILL_CENTI = 100,         /* levels are given in hundredths inside the engine */
    RANDOMNESS_LEVELS = 6,     /* UCCI randomness: none tiny small medium large huge */
    STRENGTH_ELO_MIN = 579,    /* the calibration table's ends (levels 0 and 19): UCI_Elo's range */
    STRENGTH_ELO_MAX = 2575,
    STRENGTH_ELO_DEFAULT = 1500, /* the scale's anchor: Jiangjun at 1024 nodes per move */
};

/* What a strength setting does to one search. */
typedef struct StrengthPlan {
    uint64_t nodes;            /* node cap per move; 0 = none */
    int noise;                 /* +- centipawns of evaluation noise; 0 = none */
} StrengthPlan;

/* The level, in hundredths (0..SKILL_MAX * SKILL_CENTI), that plays at about elo (clamped to the table). */
int strength_level_for_elo(int elo);
/* The plan for a level in hundredths (SKILL_MAX * SKILL_CENTI = full strength) and a randomness level. */
StrengthPlan strength_plan(int level_centi, int randomness);
/* The noise of a position: a value in [-amplitude, amplitude] fixed by key and seed. */
int strength_noise(uint64_t key, uint64_t seed, int amplitude);

#endif
