/*
 * wdl.h - win/draw/loss chances from a score, for UCI_ShowWDL: a logistic
 * model in the score whose centre and slope depend on the material left,
 *
 *   a = A0 + A1 * m / 16, b = B0 + B1 * m / 16   (m: rooks 2, horses and cannons 1, both sides)
 *   P(win) = 1 / (1 + exp((a - s) / b)), P(loss) = 1 / (1 + exp((a + s) / b)), P(draw) = the rest,
 *
 * for the side to move's score s. The constants were fitted by maximum
 * likelihood (tools/wdl/wdl_fit.py) to the results of Jiangjun's own
 * self-play games (tools/xqgen, the default network, 2048 nodes per move;
 * see tools/wdl/README.md): with all the pieces a score of 0 is a draw
 * about 22% of the time, with few pieces about 89%.
 */
#ifndef XQ_WDL_H
#define XQ_WDL_H

#include "board/position.h"

typedef struct Wdl {
    int win, draw, loss; /* per mille, summing to 1000 */
} Wdl;

/* The material count m of the model (0..16). */
int wdl_material(const Position *pos);
/* Win/draw/loss per mille of the side to move for its score (score.h bands: a mate or rule win is 1000 0 0). */
Wdl wdl_from_score(int score, int material);

#endif
