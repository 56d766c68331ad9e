/* see.c - static exchange evaluation on a scratch board. */
#include "see.h"

#include <string.h>

#include "eval/eval.h"
#include "board/movegen.h"

enum { SEE_MAX_DEPTH = 32 };

/* Attack order: cheapest attackers first. */
static const uint8_t ATTACK_ORDER[SIDE_PIECES] = { 11, 12, 13, 14, 15, 1, 2, 3, 4, 5, 6, 9, 10, 7, 8, 0 };

/* Does piece id standing on from attack to on board b (movement rules, no legality)? */
static bool piece_attacks(const uint8_t *b, int id, int from, int to)
{
    const int side = piece_side(id), delta = to - from;
    const int dr = sq_rank(to) - sq_rank(from), df = sq_file(to) - sq_file(from);
    const int adr = dr < 0 ? -dr : dr, adf = df < 0 ? -df : df;
    switch (piece_type(id)) {
    case KING:
        return GEO->palace[to] && adr + adf == 1;
    case ADVISOR:
        return GEO->palace[to] && adr == 1 && adf == 1;
    case ELEPHANT:
        return adr == 2 && adf == 2 && GEO->half[to] == side && b[from + delta / 2] == EMPTY;
    case HORSE:
        if (adr == 2 && adf == 1)
            return b[from + (dr > 0 ? NORTH : SOUTH)] == EMPTY;
        if (adr == 1 && adf == 2)
            return b[from + (df > 0 ? EAST : WEST)] == EMPTY;
        return false;
    case ROOK:
        return (dr == 0 || df == 0) && pieces_between(b, from, to) == 0;
    case CANNON:
        return (dr == 0 || df == 0) && pieces_between(b, from, to) == 1;
    default: /* PAWN */
        if (delta == pawn_forward(side))
            return true;
        return adr == 0 && adf == 1 && GEO->half[from] != side;
    }
}

/* Least valuable piece of `side` attacking sq, or 0. */
static int least_attacker(const uint8_t *b, const uint8_t *piece_sq, int side, int sq)
{
    const int tag = side_tag(side);
    for (int i = 0; i < SIDE_PIECES; i++) {
        int id = tag + ATTACK_ORDER[i];
        int from = piece_sq[id];
        if (from && piece_attacks(b, id, from, sq))
            return id;
    }
    return 0;
}

/* Swap-off value of move m for the side to move. */
int see(const Position *pos, Move m)
{
    uint8_t b[BOARD_SIZE], piece_sq[PIECE_IDS];
    int gain[SEE_MAX_DEPTH];
    memcpy(b, pos->board, sizeof b);
    memcpy(piece_sq, pos->piece_sq, sizeof piece_sq);
    const int from = move_from(m), to = move_to(m);
    int mover = b[from], victim = b[to], side = pos->side;
    int d = 0;
    gain[0] = victim ? eval_piece_value(victim) : 0;
    if (victim)
        piece_sq[victim] = 0;
    b[to] = (uint8_t)mover;
    b[from] = EMPTY;
    piece_sq[mover] = (uint8_t)to;
    for (;;) {
        side ^= 1;
        int attacker = least_attacker(b, piece_sq, side, to);
        if (!attacker || d + 1 >= SEE_MAX_DEPTH)
            break;
        d++;
        gain[d] = eval_piece_value(mover) - gain[d - 1]; /* capture the piece that just arrived */
        if (piece_type(mover) == KING)
            break; /* capturing a king ends everything; treat as a win for the capturer */
        b[piece_sq[attacker]] = EMPTY;
        piece_sq[mover] = 0;
        piece_sq[attacker] = (uint8_t)to;
        b[to] = (uint8_t)attacker;
        mover = attacker;
    }
    while (d > 0) {
        int alt = -gain[d];
        if (alt < gain[d - 1])
            gain[d - 1] = alt;
        d--;
    }
    return gain[0];
}
