/*
 * movepick.h - move ordering for the search: the TT move first, then
 * captures that do not lose material (MVV/LVA, checked by SEE), killers,
 * the countermove, quiet moves by history, and losing captures last.
 * Moves are produced lazily by selection, so a cutoff skips the sorting.
 */
#ifndef XQ_MOVEPICK_H
#define XQ_MOVEPICK_H

#include "position.h"

/* Tables the picker reads (owned by the search thread). */
typedef struct OrderTables {
    int16_t history[2][BOARD_SIZE][BOARD_SIZE]; /* [side][from][to] */
    Move counter[BOARD_SIZE][BOARD_SIZE];       /* reply to [from][to] of the previous move */
} OrderTables;

typedef struct MovePicker {
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES];
    int count, next;
} MovePicker;

enum { HISTORY_MAX = 16000 };

/* Can capture m lose material (attacker worth more than victim)? If not, SEE is unnecessary. */
bool capture_needs_see(const Position *pos, Move m);
/* Fills the picker for a full-width node. */
void picker_init(MovePicker *mp, const Position *pos, const OrderTables *ot, Move tt_move, const Move killers[2],
                 Move counter);
/* Fills the picker with captures only (quiescence), MVV/LVA ordered. */
void picker_init_captures(MovePicker *mp, const Position *pos);
/* Next move in order, or MOVE_NONE; *score gets its ordering score. */
Move picker_next(MovePicker *mp, int *score);

/* Ordering score bands. */
enum { ORDER_TT = 4000000, ORDER_GOOD_CAPTURE = 3000000, ORDER_KILLER = 2000000, ORDER_COUNTER = 1900000,
       ORDER_BAD_CAPTURE = -3000000 };

#endif
