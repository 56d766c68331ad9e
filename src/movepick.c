/* movepick.c - move ordering by selection over scored moves. */
#include "movepick.h"

#include "eval.h"
#include "movegen.h"
#include "see.h"

enum { MVV_SCALE = 16 };

/* MVV/LVA score of a capture: the victim's value first, the attacker's as a tie-break. */
static int mvv_lva(const Position *pos, Move m)
{
    return eval_piece_value(pos->board[move_to(m)]) * MVV_SCALE - eval_piece_value(pos->board[move_from(m)]) / 16;
}

/* Can capture m lose material (the attacker is worth more than its victim)? Else SEE is not needed. */
bool capture_needs_see(const Position *pos, Move m)
{
    return eval_piece_value(pos->board[move_from(m)]) > eval_piece_value(pos->board[move_to(m)]);
}

/* Scores every pseudo-legal move for a full-width node. */
void picker_init(MovePicker *mp, const Position *pos, const OrderTables *ot, Move tt_move, const Move killers[2],
                 Move counter)
{
    mp->count = gen_moves(pos, mp->moves);
    mp->next = 0;
    for (int i = 0; i < mp->count; i++) {
        Move m = mp->moves[i];
        int s;
        if (m == tt_move)
            s = ORDER_TT;
        else if (pos->board[move_to(m)] != EMPTY) {
            bool good = !capture_needs_see(pos, m) || see(pos, m) >= 0;
            s = (good ? ORDER_GOOD_CAPTURE : ORDER_BAD_CAPTURE) + mvv_lva(pos, m);
        } else if (m == killers[0])
            s = ORDER_KILLER + 1;
        else if (m == killers[1])
            s = ORDER_KILLER;
        else if (m == counter)
            s = ORDER_COUNTER;
        else
            s = ot->history[pos->side][move_from(m)][move_to(m)];
        mp->scores[i] = s;
    }
}

/* Scores captures for quiescence. */
void picker_init_captures(MovePicker *mp, const Position *pos)
{
    mp->count = gen_captures(pos, mp->moves);
    mp->next = 0;
    for (int i = 0; i < mp->count; i++)
        mp->scores[i] = mvv_lva(pos, mp->moves[i]);
}

/* Selects the best remaining move. */
Move picker_next(MovePicker *mp, int *score)
{
    if (mp->next >= mp->count)
        return MOVE_NONE;
    int best = mp->next;
    for (int i = mp->next + 1; i < mp->count; i++)
        if (mp->scores[i] > mp->scores[best])
            best = i;
    Move m = mp->moves[best];
    int s = mp->scores[best];
    mp->moves[best] = mp->moves[mp->next];
    mp->scores[best] = mp->scores[mp->next];
    mp->moves[mp->next] = m;
    mp->scores[mp->next] = s;
    mp->next++;
    if (score)
        *score = s;
    return m;
}
