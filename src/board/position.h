/*
 * position.h - the board state, FEN in and out, make/unmake.
 *
 * A Position owns its game history (one Undo per ply played since the root
 * FEN), so the repetition rules can read keys, captures and checks back to
 * the last capture. Make/unmake keep the Zobrist key incremental; unmake
 * restores the position byte for byte (see tests/test_position.c).
 */
#ifndef XQ_POSITION_H
#define XQ_POSITION_H

#include <stddef.h>

#include "square.h"

/* What a played move changed, enough to take it back and to rule repetitions. */
typedef struct Undo {
    uint64_t key;      /* key of the position before the move */
    Move move;         /* MOVE_NONE for a null move */
    uint8_t captured;  /* identity of the captured piece, or EMPTY */
    uint8_t check;     /* the move gave check (the side now to move is in check) */
    uint16_t rule60;   /* plies since the last capture, before the move */
    uint16_t pad;
} Undo;

typedef struct Position {
    uint8_t board[BOARD_SIZE];   /* piece identity per square, EMPTY or OFF_BOARD */
    uint8_t piece_sq[PIECE_IDS]; /* square of each identity, 0 when absent */
    uint8_t side;                /* side to move */
    uint8_t in_check;            /* the side to move is in check */
    uint16_t rule60;             /* plies since the last capture */
    uint16_t fullmove;           /* move number from the FEN, advanced after black moves */
    uint16_t ply;                /* number of Undo records in hist */
    uint64_t key;
    Undo hist[MAX_HISTORY];
} Position;

enum { FEN_MAX = 128 }; /* longest FEN pos_to_fen writes, with its terminator */

extern const char START_FEN[];

/* Sets up a position from FEN text; on failure leaves *pos untouched and fills err. */
bool pos_from_fen(Position *pos, const char *fen, XqError *err);
/* Writes the FEN of a position (board, side, "- -", rule60 clock, move number). */
char *pos_to_fen(const Position *pos, char *out, size_t size);
/* Computes the Zobrist key from scratch (the incremental one must equal it). */
uint64_t pos_compute_key(const Position *pos);
/* Debug consistency check: board and piece lists agree, key is right. */
bool pos_is_ok(const Position *pos);
/* Is `side`'s king attacked? */
bool side_in_check(const Position *pos, int side);

/* Plays a pseudo-legal move (the caller checks legality). */
void pos_make(Position *pos, Move m);
/* pos_make for a move whose check is already known (move_gives_check's answer before the move): no new test. */
void pos_make_known_check(Position *pos, Move m, bool gives_check);
/* Takes back the last move played with pos_make. */
void pos_unmake(Position *pos);
/* Passes the move to the other side (the side to move must not be in check). */
void pos_make_null(Position *pos);
/* Takes back a null move. */
void pos_unmake_null(Position *pos);
/* Drops all history (the current position becomes the root); keeps rule60. */
void pos_clear_history(Position *pos);

/* Square of a side's king. */
static inline int pos_king_sq(const Position *pos, int side) { return pos->piece_sq[side_tag(side)]; }

#endif
