/*
 * square.h - 16x16 mailbox geometry: square <-> file/rank, board regions,
 * piece identities, and ICCS coordinate text.
 *
 * square = (rank + 3) * 16 + (file + 3); red moves "forward" by +16.
 * The region tables are filled once by tables_init(), which every program
 * calls at start-up (it is safe from any thread, any number of times: the
 * first call fills them, concurrent ones wait for it), and are read-only
 * afterwards.
 */
#ifndef XQ_SQUARE_H
#define XQ_SQUARE_H

#include "base/types.h"

enum {
    ROW_OFFSET = 3,
    COL_OFFSET = 3,
    NORTH = 16, /* toward black's side (rank + 1) */
    SOUTH = -16,
    EAST = 1,   /* toward file i */
    WEST = -1,
    RED_TAG = 16,
    BLACK_TAG = 32,
};

/* Square index of a file (0..8) and rank (0..9). */
static inline int sq_make(int file, int rank) { return ((rank + ROW_OFFSET) << 4) | (file + COL_OFFSET); }
/* File (0..8, a..i) of an on-board square. */
static inline int sq_file(int sq) { return (sq & 15) - COL_OFFSET; }
/* Rank (0..9, red's back rank is 0) of an on-board square. */
static inline int sq_rank(int sq) { return (sq >> 4) - ROW_OFFSET; }
/* The left-right mirror image of an on-board square (files reversed). */
static inline int sq_mirror(int sq) { return sq_make(FILES - 1 - sq_file(sq), sq_rank(sq)); }
/* The square seen from the other side (ranks reversed), as a colour swap places it. */
static inline int sq_flip(int sq) { return sq_make(sq_file(sq), RANKS - 1 - sq_rank(sq)); }

/* Identity tag of a side's pieces (16 for red, 32 for black). */
static inline int side_tag(int side) { return RED_TAG << side; }
/* Side (RED/BLACK) owning a piece identity 16..47. */
static inline int piece_side(int id) { return (id >> 5) & 1; }
/* Forward direction of a side's pawns. */
static inline int pawn_forward(int side) { return side == RED ? NORTH : SOUTH; }

/* Read-only geometry tables, filled by tables_init(). */
typedef struct Geometry {
    uint8_t on_board[BOARD_SIZE];  /* 1 on the 90 playing squares */
    uint8_t palace[BOARD_SIZE];    /* 1 inside either palace */
    uint8_t half[BOARD_SIZE];      /* RED on ranks 0-4, BLACK on ranks 5-9 */
    uint8_t advisor_pt[BOARD_SIZE];  /* 1 on the 10 advisor points */
    uint8_t elephant_pt[BOARD_SIZE]; /* 1 on the 14 elephant points */
    uint8_t pawn_ok[2][BOARD_SIZE];  /* a pawn of that side can stand here */
} Geometry;

extern const Geometry *const GEO;

/* Type of each piece identity 0..47 (index within the side picks the type). */
extern const uint8_t ID_TYPE[SIDE_PIECES];
/* First identity index within a side for each piece type, and how many there are. */
extern const uint8_t TYPE_FIRST[PIECE_TYPES];
extern const uint8_t TYPE_COUNT[PIECE_TYPES];

/* Type (KING..PAWN) of a piece identity. */
static inline int piece_type(int id) { return ID_TYPE[id & 15]; }

/* Fills the geometry and Zobrist tables on the first call (pthread_once); call at start-up. */
void tables_init(void);

/* Writes the ICCS name of a square ("e0") into out[0..2]; returns out. */
char *sq_name(int sq, char out[3]);
/* Parses a file letter and rank digit (case-insensitive); returns the square or -1. */
int sq_parse(const char *s);

#endif
