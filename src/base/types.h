/*
 * types.h - basic types and constants shared by every module of Jiangjun.
 *
 * Board geometry: a 16x16 mailbox. The 9x10 xiangqi board sits at rows 3..12
 * and columns 3..11; every other byte of Position.board holds OFF_BOARD, so a
 * slider stops there and a jumper's target is rejected without a bounds test.
 * Rank 0 is red's back rank (row 3), rank 9 is black's (row 12).
 *
 * Pieces on the board are identities (ElephantEye's scheme): red pieces are
 * 16..31, black 32..47; within a side, index 0 is the king, 1-2 advisors,
 * 3-4 elephants, 5-6 horses, 7-8 rooks, 9-10 cannons, 11-15 pawns. An empty
 * square is 0. Position.piece_sq maps an identity back to its square.
 */
#ifndef XQ_TYPES_H
#define XQ_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint16_t Move; /* from | to << 8; 0 is "no move" */

enum { RED = 0, BLACK = 1 };

enum PieceType { KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, PIECE_TYPES };

enum {
    BOARD_SIZE = 256,
    FILES = 9,
    RANKS = 10,
    OFF_BOARD = 64,      /* board byte outside the 9x10 board */
    EMPTY = 0,
    SIDE_PIECES = 16,
    PIECE_IDS = 48,
    MAX_MOVES = 128,     /* no xiangqi position has more pseudo-legal moves */
    MAX_HISTORY = 2048,  /* plies of game history plus search path kept */
};

#define MOVE_NONE ((Move)0)

/* Packs a move from its two squares. */
static inline Move move_make(int from, int to) { return (Move)(from | (to << 8)); }
/* Source square of a move. */
static inline int move_from(Move m) { return m & 0xFF; }
/* Destination square of a move. */
static inline int move_to(Move m) { return m >> 8; }

/* Is m one of the first n moves of list? */
static inline bool move_listed(const Move *list, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

/* An error with a message for the user (FEN and move parsing). */
typedef struct XqError {
    char msg[160];
} XqError;

#endif
