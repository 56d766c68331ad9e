/* strength.c - skill levels, the Elo calibration table, evaluation noise (see strength.h). */
#include "strength.h"

enum {
    NODES_BASE_LOG2 = 5,       /* level 0: 2^5 nodes */
    LEVELS_PER_DOUBLING = 2,   /* the cap doubles every two levels */
    NOISE_PER_LEVEL = 10,      /* centipawns of noise per level below full strength */
    FRACTION_STEPS = 16,
    FRACTION_ONE = 1024,
};

/* 1024 * 2^(i/16): the fractional part of a node cap's exponent. */
static const int POW2_FRACTION[FRACTION_STEPS] = {
    1024, 1069, 1116, 1166, 1217, 1271, 1327, 1386, 1448, 1512, 1579, 1649, 1722, 1798, 1878, 1961,
};

/* UCCI randomness: evaluation noise of none, tiny, small, medium, large, huge (centipawns). */
static const int RANDOMNESS_NOISE[RANDOMNESS_LEVELS] = { 0, 10, 20, 40, 80, 160 };

/* The calibration: Elo of measured levels (hundredths), increasing. Measured by tools/strength/calibrate.sh
 * (40 games per pairing against Jiangjun at fixed nodes; the scale's anchor: Jiangjun at 1024 nodes per
 * move = 1500) and fitted by tools/strength/ladder.py; 95% errors 308, 188, 102, 225, 270. See
 * tools/strength/README.md. */
typedef struct Calibration {
    int level_centi, elo;
} Calibration;
static const Calibration CALIBRATION[] = {
    { 0, STRENGTH_ELO_MIN }, { 500, 960 }, { 1000, 1411 }, { 1500, 2019 }, { 1900, STRENGTH_ELO_MAX },
};
enum { CALIBRATION_POINTS = sizeof CALIBRATION / sizeof CALIBRATION[0] };



/* Piecewise linear interpolation of the table from Elo to level. */
int strength_level_for_elo(int elo)
{
    if (elo <= CALIBRATION[0].elo)
        return CALIBRATION[0].level_centi;
    for (int i = 1; i < CALIBRATION_POINTS; i++) {
        const Calibration *lo = &CALIBRATION[i - 1], *hi = &CALIBRATION[i];
        if (elo <= hi->elo)
            return lo->level_centi + (hi->level_centi - lo->level_centi) * (elo - lo->elo) / (hi->elo - lo->elo);
    }
    return CALIBRATION[CALIBRATION_POINTS - 1].level_centi;
}

/* Node cap and noise of a level, and the noise of a randomness level. */
StrengthPlan strength_plan(int level_centi, int randomness)
{
    StrengthPlan plan = { 0, 0 };
    const int full = SKILL_MAX * SKILL_CENTI;
    if (level_centi < 0)
        level_centi = 0;
    if (level_centi < full) {
        /* 2^(5 + level / 2), the exponent's fraction in sixteenths */
        int exp16 = level_centi * FRACTION_STEPS / (LEVELS_PER_DOUBLING * SKILL_CENTI);
        plan.nodes = ((uint64_t)1 << (NODES_BASE_LOG2 + exp16 / FRACTION_STEPS)) * POW2_FRACTION[exp16 % FRACTION_STEPS]
                   / FRACTION_ONE;
        plan.noise = (full - level_centi) * NOISE_PER_LEVEL / SKILL_CENTI;
    }
    if (randomness > 0 && randomness < RANDOMNESS_LEVELS && RANDOMNESS_NOISE[randomness] > plan.noise)
        plan.noise = RANDOMNESS_NOISE[randomness];
    return plan;
}

/* A value in [-amplitude, amplitude] from the key and the seed (a fixed mix, so a position keeps it). */
int strength_noise(uint64_t key, uint64_t seed, int amplitude)
{
    uint64_t h = (key ^ seed) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return (int)(h % (uint64_t)(2 * amplitude + 1)) - amplitude;
}
