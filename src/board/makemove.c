/* makemove.c - make/unmake of real and null moves with incremental keys. */
#include "position.h"
#include "zobrist.h"

#include <assert.h>

/* Plays a pseudo-legal move on the board, keys and counters, recording what unmake and the rules need; the
 * check flag is left to the caller. */
static inline void play(Position *pos, Move m)
{
    const int from = move_from(m), to = move_to(m);
    const int mover = pos->board[from], captured = pos->board[to];
    const int side = pos->side;
    Undo *u = &pos->hist[pos->ply++];
    assert(pos->ply < MAX_HISTORY);
    u->key = pos->key;
    u->move = m;
    u->captured = (uint8_t)captured;
    u->rule60 = pos->rule60;

    uint64_t key = pos->key ^ ZOB->side;
    const int type = piece_type(mover);
    key ^= ZOB->piece[side][type][from] ^ ZOB->piece[side][type][to];
    if (captured) {
        key ^= ZOB->piece[side ^ 1][piece_type(captured)][to];
        pos->piece_sq[captured] = 0;
        pos->rule60 = 0;
    } else {
        pos->rule60++;
    }
    pos->board[to] = (uint8_t)mover;
    pos->board[from] = EMPTY;
    pos->piece_sq[mover] = (uint8_t)to;
    pos->key = key;
    pos->side = (uint8_t)(side ^ 1);
    if (side == BLACK)
        pos->fullmove++;
}

/* Plays a pseudo-legal move, recording what unmake and the rules need. */
void pos_make(Position *pos, Move m)
{
    play(pos, m);
    pos->in_check = side_in_check(pos, pos->side);
    pos->hist[pos->ply - 1].check = pos->in_check;
}

/* pos_make for a move whose check is known (move_gives_check's answer before the move). */
void pos_make_known_check(Position *pos, Move m, bool gives_check)
{
    play(pos, m);
    assert(gives_check == side_in_check(pos, pos->side));
    pos->in_check = gives_check;
    pos->hist[pos->ply - 1].check = gives_check;
}

/* Takes back the last move. */
void pos_unmake(Position *pos)
{
    const Undo *u = &pos->hist[--pos->ply];
    const int from = move_from(u->move), to = move_to(u->move);
    const int mover = pos->board[to];
    pos->board[from] = (uint8_t)mover;
    pos->piece_sq[mover] = (uint8_t)from;
    pos->board[to] = u->captured;
    if (u->captured)
        pos->piece_sq[u->captured] = (uint8_t)to;
    pos->side ^= 1;
    if (pos->side == BLACK)
        pos->fullmove--;
    pos->key = u->key;
    pos->rule60 = u->rule60;
    pos->in_check = pos->ply ? pos->hist[pos->ply - 1].check : side_in_check(pos, pos->side);
}

/* Passes the turn (not allowed in check). */
void pos_make_null(Position *pos)
{
    Undo *u = &pos->hist[pos->ply++];
    assert(!pos->in_check && pos->ply < MAX_HISTORY);
    u->key = pos->key;
    u->move = MOVE_NONE;
    u->captured = EMPTY;
    u->check = 0;
    u->rule60 = pos->rule60;
    pos->key ^= ZOB->side;
    if (pos->side == BLACK)
        pos->fullmove++;
    pos->side ^= 1;
    pos->in_check = 0;
}

/* Takes back a null move. */
void pos_unmake_null(Position *pos)
{
    const Undo *u = &pos->hist[--pos->ply];
    pos->side ^= 1;
    if (pos->side == BLACK)
        pos->fullmove--;
    pos->key = u->key;
    pos->rule60 = u->rule60;
    pos->in_check = 0;
}

/* Forgets the history; the current position becomes the root. */
void pos_clear_history(Position *pos) { pos->ply = 0; }
