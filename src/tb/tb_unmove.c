/* tb_unmove.c - un-moves: positions one non-capture move earlier (see tb_unmove.h). */
#include "tb_unmove.h"

#include "board/movegen.h"

/* Steps on the 16x16 board: a horse's eight, an elephant's four, an advisor's four; the four lines. */
static const int HORSE_STEPS[] = { -33, -31, -18, -14, 14, 18, 31, 33 };
static const int ELEPHANT_STEPS[] = { -34, -30, 30, 34 };
static const int ADVISOR_STEPS[] = { -17, -15, 15, 17 };
static const int LINES[] = { NORTH, SOUTH, EAST, WEST };

/* Tries the piece id on `to` as having come from `from`; calls fn with the earlier entry if it did. */
static int try_from(const TbLayout *layout, Position *pos, int id, int from, void (*fn)(void *, uint64_t), void *ctx)
{
    const int to = pos->piece_sq[id], side = pos->side;
    pos->board[to] = EMPTY;
    pos->board[from] = (uint8_t)id;
    pos->piece_sq[id] = (uint8_t)from;
    pos->side = (uint8_t)(side ^ 1);
    int found = 0;
    /* the move from -> to must be one the mover could play, and the earlier position legal: the side
     * not to move there (the side to move now) not in check */
    if (move_is_pseudo_legal(pos, move_make(from, to)) && !side_in_check(pos, side)) {
        uint64_t idx = tb_index_of(layout, pos, false), twin = tb_index_twin(layout, pos);
        if (idx != TB_NO_INDEX) {
            fn(ctx, idx);
            found = 1;
        }
        if (twin != TB_NO_INDEX && twin != idx) { /* the mirror image reaches the same entry */
            fn(ctx, twin);
            found++;
        }
    }
    pos->side = (uint8_t)side;
    pos->piece_sq[id] = (uint8_t)to;
    pos->board[from] = EMPTY;
    pos->board[to] = (uint8_t)id;
    return found;
}

/* Tries every empty square a step set reaches from `to`. */
static int try_steps(const TbLayout *layout, Position *pos, int id, const int *steps, int n,
                     void (*fn)(void *, uint64_t), void *ctx)
{
    int found = 0, to = pos->piece_sq[id];
    for (int i = 0; i < n; i++) {
        int from = to + steps[i];
        if (from >= 0 && from < BOARD_SIZE && pos->board[from] == EMPTY)
            found += try_from(layout, pos, id, from, fn, ctx);
    }
    return found;
}

/* Calls fn with the entry of each position one non-capture move before pos; returns how many. */
int tb_unmoves(const TbLayout *layout, Position *pos, void (*fn)(void *ctx, uint64_t idx), void *ctx)
{
    const int tag = side_tag(pos->side ^ 1);
    int found = 0;
    for (int id = tag; id < tag + SIDE_PIECES; id++) {
        int to = pos->piece_sq[id];
        if (!to)
            continue;
        for (int d = 0; d < (int)(sizeof LINES / sizeof *LINES); d++)
            for (int from = to + LINES[d]; pos->board[from] == EMPTY; from += LINES[d])
                found += try_from(layout, pos, id, from, fn, ctx);
        found += try_steps(layout, pos, id, HORSE_STEPS, (int)(sizeof HORSE_STEPS / sizeof *HORSE_STEPS), fn, ctx);
        found +=
            try_steps(layout, pos, id, ELEPHANT_STEPS, (int)(sizeof ELEPHANT_STEPS / sizeof *ELEPHANT_STEPS), fn, ctx);
        found +=
            try_steps(layout, pos, id, ADVISOR_STEPS, (int)(sizeof ADVISOR_STEPS / sizeof *ADVISOR_STEPS), fn, ctx);
    }
    return found;
}
