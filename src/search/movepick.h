/*
 * movepick.h - staged move ordering for the search: the TT move first (nothing
 * generated yet), then captures that do not lose material (MVV/LVA plus
 * capture history, checked by SEE when picked), killers, the countermove,
 * quiet moves by butterfly and continuation history (1, 2 and 4 plies back),
 * and losing captures last. Each stage is generated when reached and picked
 * by selection, so a cutoff skips the rest of the work.
 */
#ifndef XQ_MOVEPICK_H
#define XQ_MOVEPICK_H

#include "board/position.h"
#include "board/square.h"

enum { PIECE_KINDS = 2 * PIECE_TYPES, PLAY_SQUARES = RANKS * FILES };
enum { PICKER_CONTS = 3 }; /* continuation histories a quiet move is scored by: of the moves 1, 2 and 4 plies back */
enum { PICKER_PAD = 7 };   /* the score lists are followed by this many INT_MIN (a vector selection reads past them) */

/* Continuation history: how good a quiet move [piece kind][square 0..89] was after an earlier move. */
typedef int16_t ContHist[PIECE_KINDS][PLAY_SQUARES];

/* Tables the picker reads (owned by the search thread). */
typedef struct OrderTables {
    int16_t history[2][BOARD_SIZE][BOARD_SIZE]; /* [side][from][to] */
    Move counter[BOARD_SIZE][BOARD_SIZE];       /* reply to [from][to] of the previous move */
    ContHist cont[PIECE_KINDS][PLAY_SQUARES];   /* [kind][to] of an earlier move -> its ContHist */
    int16_t capture[PIECE_KINDS][PLAY_SQUARES][PIECE_TYPES]; /* capture history: [mover][to][victim type] */
} OrderTables;

/* Piece kind 0..13 (side * 7 + type) of a piece identity. */
static inline int piece_kind(int id) { return piece_side(id) * PIECE_TYPES + piece_type(id); }
/* Playing-square index 0..89 of an on-board square. */
static inline int play_index(int sq) { return sq_rank(sq) * FILES + sq_file(sq); }
/* Capture-history value of capture m on this board. */
static inline int capture_history(const OrderTables *ot, const uint8_t *board, Move m)
{
    return ot->capture[piece_kind(board[move_from(m)])][play_index(move_to(m))][piece_type(board[move_to(m)])];
}
/* Capture-history slot of capture m on this board (for updates). */
static inline int16_t *capture_slot(OrderTables *ot, const uint8_t *board, Move m)
{
    return &ot->capture[piece_kind(board[move_from(m)])][play_index(move_to(m))][piece_type(board[move_to(m)])];
}

/* A staged picker: the TT move, then captures, killers, countermove, quiet moves, losing captures.
 * Each stage generates and scores its moves only when reached, so an early cutoff saves the work. */
typedef struct MovePicker {
    const Position *pos;
    const OrderTables *ot;
    ContHist *cont[PICKER_CONTS];
    Move tt_move, killers[2], counter;
    int stage;
    bool simd; /* selection by vectors (this CPU runs AVX2); the same moves in the same order as without */
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES + PICKER_PAD];
    int count, next;
    Move bad[MAX_MOVES]; /* captures that lose material, deferred to the end */
    int bad_scores[MAX_MOVES + PICKER_PAD];
    int bad_count, bad_next;
} MovePicker;

enum { HISTORY_MAX = 16000 };

/* Can capture m lose material (attacker worth more than victim)? If not, SEE is unnecessary. */
bool capture_needs_see(const Position *pos, Move m);
/* Fills the picker for a full-width node. */
void picker_init(MovePicker *mp, const Position *pos, const OrderTables *ot, Move tt_move, const Move killers[2],
                 Move counter, ContHist *const cont[PICKER_CONTS]);
/* Fills the picker with captures only (quiescence), MVV/LVA ordered. */
void picker_init_captures(MovePicker *mp, const Position *pos);
/* Next move in order, or MOVE_NONE; *score gets its ordering score. */
Move picker_next(MovePicker *mp, int *score);
/* Does this CPU run the vector (AVX2) selection? (picker_init sets MovePicker.simd from it.) */
bool picker_simd_available(void);

/* Ordering score bands. */
enum { ORDER_TT = 4000000, ORDER_GOOD_CAPTURE = 3000000, ORDER_KILLER = 2000000, ORDER_COUNTER = 1900000,
       ORDER_BAD_CAPTURE = -3000000 };

#endif
