/*
 * rootmoves.h - the root-move list of one search thread: the moves the root
 * may play (every legal move, or the GUI's searchmoves minus banmoves), each
 * with what the last iteration learned of it (score, bound, depth, PV).
 *
 * MultiPV searches the list line by line: the search of line k skips the
 * moves of lines 0..k-1 (rootmoves_searchable), and its best move is then
 * moved to slot k with its score and PV (rootmoves_set_line). With one line
 * every move is searchable, so the root searches exactly what it would with
 * no list at all.
 */
#ifndef XQ_ROOTMOVES_H
#define XQ_ROOTMOVES_H

#include "board/position.h"
#include "eval/score.h"

typedef struct RootMove {
    Move move;
    int score;       /* score of the last search that made this move a line; -SCORE_INF if none yet */
    int prev_score;  /* the same one iteration earlier */
    int bound;       /* BOUND_EXACT, or LOWER/UPPER for a line reported after an aspiration fail */
    int depth;       /* iteration of score */
    int seldepth;
    int pv_len;
    uint64_t nodes;  /* nodes searched below this move in the current iteration (the time manager's share) */
    Move pv[MAX_PLY];
} RootMove;

typedef struct RootMoves {
    int count;
    RootMove move[MAX_MOVES];
} RootMoves;

/* Fills the list with pos's legal moves (generation order), keeping only those in allowed when
 * n_allowed > 0; returns the count. */
int rootmoves_init(RootMoves *rm, Position *pos, const Move *allowed, int n_allowed);
/* Index of m in the list, or -1. */
int rootmoves_find(const RootMoves *rm, Move m);
/* May the search of line `line` try m (m is in the list and not one of lines 0..line-1)? */
bool rootmoves_searchable(const RootMoves *rm, int line, Move m);
/* Makes m (in the list at or after line) line `line`, with its score, bound, depth and PV (pv[0] == m). */
void rootmoves_set_line(RootMoves *rm, int line, int score, int bound, int depth, int seldepth, const Move *pv,
                        int pv_len);
/* Starts an iteration: each move's score becomes its previous score, its node count 0. */
void rootmoves_new_iteration(RootMoves *rm);
/* Adds nodes searched below root move m (nothing if m is not listed). */
void rootmoves_add_nodes(RootMoves *rm, Move m, uint64_t nodes);
/* Permille of the iteration's root nodes spent on the first move; -1 if none were counted. */
int rootmoves_best_share(const RootMoves *rm);
/* Sorts moves [from, to) by score, best first, keeping the order of equal scores. */
void rootmoves_sort(RootMoves *rm, int from, int to);

#endif
