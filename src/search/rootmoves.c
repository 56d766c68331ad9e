/* rootmoves.c - the root-move list of a search thread (see rootmoves.h). */
#include "rootmoves.h"

#include <string.h>

#include "board/movegen.h"
#include "tt.h"

/* Fills the list with the legal moves, restricted to allowed when given. */
int rootmoves_init(RootMoves *rm, Position *pos, const Move *allowed, int n_allowed)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    rm->count = 0;
    for (int i = 0; i < n; i++) {
        if (n_allowed > 0 && !move_listed(allowed, n_allowed, moves[i]))
            continue;
        RootMove *r = &rm->move[rm->count++];
        r->move = moves[i];
        r->score = r->prev_score = -SCORE_INF;
        r->bound = BOUND_NONE;
        r->depth = r->seldepth = 0;
        r->pv_len = 1;
        r->nodes = 0;
        r->pv[0] = moves[i];
    }
    return rm->count;
}

/* Index of m, or -1. */
int rootmoves_find(const RootMoves *rm, Move m)
{
    for (int i = 0; i < rm->count; i++)
        if (rm->move[i].move == m)
            return i;
    return -1;
}

/* Is m in the list at or after slot line? */
bool rootmoves_searchable(const RootMoves *rm, int line, Move m)
{
    for (int i = line; i < rm->count; i++)
        if (rm->move[i].move == m)
            return true;
    return false;
}

/* Moves pv[0] to slot line (the moves in between shift down one) and records the line. */
void rootmoves_set_line(RootMoves *rm, int line, int score, int bound, int depth, int seldepth, const Move *pv,
                        int pv_len)
{
    int at = -1;
    for (int i = line; i < rm->count && at < 0; i++)
        if (rm->move[i].move == pv[0])
            at = i;
    if (at < 0)
        return; /* not a move of this line: nothing to record */
    RootMove keep = rm->move[at];
    memmove(&rm->move[line + 1], &rm->move[line], (size_t)(at - line) * sizeof rm->move[0]);
    RootMove *r = &rm->move[line];
    *r = keep;
    r->score = score;
    r->bound = bound;
    r->depth = depth;
    r->seldepth = seldepth;
    r->pv_len = pv_len < MAX_PLY ? pv_len : MAX_PLY;
    memcpy(r->pv, pv, (size_t)r->pv_len * sizeof pv[0]);
}

/* Each move's score becomes its previous score; node counts start again. */
void rootmoves_new_iteration(RootMoves *rm)
{
    for (int i = 0; i < rm->count; i++) {
        rm->move[i].prev_score = rm->move[i].score;
        rm->move[i].nodes = 0;
    }
}

/* Adds nodes searched below root move m (nothing if m is not listed). */
void rootmoves_add_nodes(RootMoves *rm, Move m, uint64_t nodes)
{
    int at = rootmoves_find(rm, m);
    if (at >= 0)
        rm->move[at].nodes += nodes;
}

/* Permille of the iteration's root nodes spent on the first move; -1 if none were counted. */
int rootmoves_best_share(const RootMoves *rm)
{
    uint64_t total = 0;
    for (int i = 0; i < rm->count; i++)
        total += rm->move[i].nodes;
    return total ? (int)(rm->move[0].nodes * 1000 / total) : -1;
}

/* Stable insertion sort by score, best first. */
void rootmoves_sort(RootMoves *rm, int from, int to)
{
    for (int i = from + 1; i < to; i++) {
        RootMove r = rm->move[i];
        int j = i;
        while (j > from && rm->move[j - 1].score < r.score) {
            rm->move[j] = rm->move[j - 1];
            j--;
        }
        rm->move[j] = r;
    }
}
