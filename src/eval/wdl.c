/* wdl.c - the win/draw/loss model (see wdl.h; constants from tools/wdl/wdl_fit.py on the default net's games). */
#include "wdl.h"

#include "score.h"

/* The fitted constants (centipawns) and the material scale. */
enum { WDL_A0 = 505, WDL_A1 = -310, WDL_B0 = 67, WDL_B1 = 340, WDL_MATERIAL_MAX = 16, PER_MILLE = 1000 };

static const double LN2 = 0.69314718055994530942;
enum { EXP_ARG_MAX = 60 };

/* exp(x) without libm: x = k ln 2 + r, |r| <= ln 2 / 2, exp(r) by its series, times 2^k. */
static double exp_approx(double x)
{
    if (x > EXP_ARG_MAX)
        x = EXP_ARG_MAX;
    if (x < -EXP_ARG_MAX)
        x = -EXP_ARG_MAX;
    int k = (int)(x / LN2 + (x >= 0 ? 0.5 : -0.5));
    double r = x - k * LN2, term = 1.0, sum = 1.0;
    for (int i = 1; i < 14; i++) {
        term *= r / i;
        sum += term;
    }
    for (; k > 0; k--)
        sum *= 2.0;
    for (; k < 0; k++)
        sum *= 0.5;
    return sum;
}

/* The logistic function 1 / (1 + exp(-x)). */
static double logistic(double x) { return 1.0 / (1.0 + exp_approx(-x)); }

/* Rooks count 2, horses and cannons 1, on both sides. */
int wdl_material(const Position *pos)
{
    int m = 0;
    for (int side = RED; side <= BLACK; side++) {
        const int tag = side_tag(side);
        for (int i = TYPE_FIRST[HORSE]; i < TYPE_FIRST[PAWN]; i++)
            if (pos->piece_sq[tag + i])
                m += i >= TYPE_FIRST[ROOK] && i < TYPE_FIRST[CANNON] ? 2 : 1;
    }
    return m;
}

/* Win/draw/loss per mille for a score. */
Wdl wdl_from_score(int score, int material)
{
    Wdl r = { 0, 0, 0 };
    if (score >= SCORE_KNOWN_WIN || score <= -SCORE_KNOWN_WIN) {
        r.win = score > 0 ? PER_MILLE : 0;
        r.loss = PER_MILLE - r.win;
        return r;
    }
    int m = material < 0 ? 0 : (material > WDL_MATERIAL_MAX ? WDL_MATERIAL_MAX : material);
    double a = WDL_A0 + (double)WDL_A1 * m / WDL_MATERIAL_MAX, b = WDL_B0 + (double)WDL_B1 * m / WDL_MATERIAL_MAX;
    r.win = (int)(PER_MILLE * logistic((score - a) / b) + 0.5);
    r.loss = (int)(PER_MILLE * logistic((-score - a) / b) + 0.5);
    if (r.win + r.loss > PER_MILLE)
        r.loss = PER_MILLE - r.win;
    r.draw = PER_MILLE - r.win - r.loss;
    return r;
}
