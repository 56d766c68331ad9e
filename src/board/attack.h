/*
 * attack.h - attack tests on the board bytes alone (below Position's
 * operations, which need them for the check flag, and below move generation):
 * is a square attacked by a side, and how many pieces stand between two squares
 * of a line. Inline: legality tests call them for every move.
 */
#ifndef XQ_ATTACK_H
#define XQ_ATTACK_H

#include <stdbool.h>
#include <stdint.h>

#include "square.h"

/* The four orthogonal steps (king, rook and cannon lines). */
static const int KING_DELTA[4] = { NORTH, SOUTH, EAST, WEST };
static const int ADVISOR_DELTA[4] = { NORTH + EAST, NORTH + WEST, SOUTH + EAST, SOUTH + WEST };
/* Vertical and horizontal parts of each ADVISOR_DELTA diagonal. */
static const int DIAG_VERT[4] = { NORTH, NORTH, SOUTH, SOUTH };
static const int DIAG_HORIZ[4] = { EAST, WEST, EAST, WEST };

/* Is sq attacked by side `by`, reading only the board bytes b? */
static inline bool board_attacked(const uint8_t *b, int sq, int by)
{
    const int tag = side_tag(by);
    const int rook = tag + TYPE_FIRST[ROOK], cannon = tag + TYPE_FIRST[CANNON];
    const int horse = tag + TYPE_FIRST[HORSE], pawn0 = tag + TYPE_FIRST[PAWN];

    /* Rooks, the facing king and cannons along the four lines. */
    for (int d = 0; d < 4; d++) {
        int delta = KING_DELTA[d];
        int s = sq + delta;
        while (b[s] == EMPTY)
            s += delta;
        int pc = b[s];
        if (pc == OFF_BOARD)
            continue;
        if (pc == tag || (pc - rook) == 0 || (pc - rook) == 1)
            return true;
        s += delta;
        while (b[s] == EMPTY)
            s += delta;
        pc = b[s];
        if (pc == cannon || pc == cannon + 1)
            return true;
    }
    /* Horses: the leg of a horse attacking sq is a diagonal neighbour of sq. */
    for (int d = 0; d < 4; d++) {
        int leg = sq + ADVISOR_DELTA[d];
        if (b[leg] != EMPTY)
            continue;
        int p1 = b[leg + DIAG_VERT[d]], p2 = b[leg + DIAG_HORIZ[d]];
        if (p1 == horse || p1 == horse + 1 || p2 == horse || p2 == horse + 1)
            return true;
    }
    /* Pawns: from in front of sq (seen from `by`), or beside it once crossed. */
    {
        int pc = b[sq - pawn_forward(by)];
        if (pc >= pawn0 && pc < tag + SIDE_PIECES)
            return true;
        if (GEO->half[sq] != by) {
            pc = b[sq + EAST];
            if (pc >= pawn0 && pc < tag + SIDE_PIECES)
                return true;
            pc = b[sq + WEST];
            if (pc >= pawn0 && pc < tag + SIDE_PIECES)
                return true;
        }
    }
    return false;
}

/* Number of pieces strictly between two squares on one line (from and to must share a line). */
static inline int pieces_between(const uint8_t *b, int from, int to)
{
    int delta = (to >> 4) == (from >> 4) ? (to > from ? EAST : WEST) : (to > from ? NORTH : SOUTH);
    int count = 0;
    for (int s = from + delta; s != to; s += delta)
        count += b[s] != EMPTY;
    return count;
}

#endif
