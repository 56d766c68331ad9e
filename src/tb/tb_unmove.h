/*
 * tb_unmove.h - un-moves for the generator: the positions from which the
 * side that just moved reached a position by a non-capture move (captures
 * come from larger tables). Candidates are every square on the piece's
 * lines and at a horse's, elephant's or advisor's step; the engine's own
 * move_is_pseudo_legal and side_in_check decide which are real, so the rules
 * (horse legs, elephant eyes, the river, palaces, pawns that never retreat,
 * the flying general) are exactly the move generator's.
 */
#ifndef XQ_TB_UNMOVE_H
#define XQ_TB_UNMOVE_H

#include "tb_index.h"

/* Calls fn(ctx, idx) with the entry of each position one non-capture move before pos (its side not to
 * move having made the move), and of its mirror image when both sides' defences are symmetric (both images
 * are entries there, tb_index_twin; that image's move reaches pos's mirror image, which has pos's value);
 * pos is edited and restored. Returns how many. */
int tb_unmoves(const TbLayout *layout, Position *pos, void (*fn)(void *ctx, uint64_t idx), void *ctx);

#endif
