/* tb_index.c - the compact index: placements <-> entry numbers (layout in tb_index.h). */
#include "tb_index.h"

#include <string.h>

#include "board/movegen.h"

/* Order of a side's pieces in the index (after its king). */
static const unsigned char SLOT_ORDER[] = { ROOK, HORSE, CANNON, PAWN, ADVISOR, ELEPHANT };
enum { MIRROR_FILE_MAX = 4 }; /* the red king's file after the mirror: a..e */

/* Can a piece of this slot stand on sq (before numbering)? */
static bool in_domain(const TbSlot *s, int sq)
{
    if (!GEO->on_board[sq])
        return false;
    switch (s->type) {
    case KING:
        return GEO->palace[sq] && GEO->half[sq] == s->side && (s->side == BLACK || sq_file(sq) <= MIRROR_FILE_MAX);
    case ADVISOR: return GEO->advisor_pt[sq] && GEO->half[sq] == s->side;
    case ELEPHANT: return GEO->elephant_pt[sq] && GEO->half[sq] == s->side;
    default: return true;
    }
}

/* Fills a slot's domain tables. */
static void slot_init(TbSlot *s, int side, int type, bool after_same)
{
    s->side = (unsigned char)side;
    s->type = (unsigned char)type;
    s->after_same = after_same;
    s->size = 0;
    memset(s->pos, -1, sizeof s->pos);
    for (int sq = 0; sq < BOARD_SIZE; sq++)
        if (in_domain(s, sq)) {
            s->pos[sq] = (signed char)s->size;
            s->square[s->size++] = (unsigned char)sq;
        }
}

/* Builds the layout of a canonical signature (sig as tb_sig_canonical returns it). */
void tb_layout_init(TbLayout *layout, const TbSig *sig)
{
    tables_init();
    memset(layout, 0, sizeof *layout);
    layout->sig = *sig;
    int n = 0;
    for (int side = RED; side <= BLACK; side++) {
        slot_init(&layout->slot[n++], side, KING, false);
        for (size_t i = 0; i < sizeof SLOT_ORDER; i++)
            for (int k = 0; k < sig->count[side][SLOT_ORDER[i]] && n < TB_SLOTS_MAX; k++)
                slot_init(&layout->slot[n++], side, SLOT_ORDER[i], k > 0);
    }
    layout->slots = n;
    uint64_t stride = 1;
    for (int i = n - 1; i >= 0; i--) {
        layout->slot[i].stride = stride;
        stride *= layout->slot[i].size;
    }
    layout->half = stride;
    layout->size = 2 * stride;
}

/* The square of sq seen colour-swapped (flip: ranks reversed) and mirrored (files reversed). */
static int transform(int sq, bool flip, bool mirror)
{
    int file = sq_file(sq), rank = sq_rank(sq);
    return sq_make(mirror ? FILES - 1 - file : file, flip ? RANKS - 1 - rank : rank);
}

/* Index of pos read colour-swapped (flip) and mirrored (mirror) as asked; TB_NO_INDEX off the domains. */
static uint64_t index_as(const TbLayout *layout, const Position *pos, bool flip, bool mirror)
{
    uint64_t idx = (uint64_t)(pos->side ^ flip) * layout->half;
    int i = 0;
    while (i < layout->slots) {
        const TbSlot *s = &layout->slot[i];
        int base = side_tag(s->side ^ flip) + TYPE_FIRST[s->type];
        int dom[SIDE_PIECES], n = 0;
        for (int k = 0; k < TYPE_COUNT[s->type]; k++) {
            int sq = pos->piece_sq[base + k];
            if (!sq)
                continue;
            int d = n < layout->sig.count[s->side][s->type] ? s->pos[transform(sq, flip, mirror)] : -1;
            if (d < 0)
                return TB_NO_INDEX;
            int j = n++; /* insertion sort: a run holds at most two pieces */
            while (j > 0 && dom[j - 1] > d) {
                dom[j] = dom[j - 1];
                j--;
            }
            dom[j] = d;
        }
        if (n != layout->sig.count[s->side][s->type])
            return TB_NO_INDEX;
        for (int k = 0; k < n; k++)
            idx += (uint64_t)dom[k] * layout->slot[i + k].stride;
        i += n;
    }
    return idx;
}

/* Index of pos in the layout; flip reads it colour-swapped. TB_NO_INDEX if a piece is off its domain. */
uint64_t tb_index_of(const TbLayout *layout, const Position *pos, bool flip)
{
    return index_as(layout, pos, flip, sq_file(pos->piece_sq[side_tag(RED ^ flip)]) > MIRROR_FILE_MAX);
}

/* The entry of pos's mirror image when the red king stands on the e-file (both images are entries). */
uint64_t tb_index_twin(const TbLayout *layout, const Position *pos)
{
    return sq_file(pos->piece_sq[side_tag(RED)]) == MIRROR_FILE_MAX ? index_as(layout, pos, false, true) : TB_NO_INDEX;
}

/* Sets pos to the position of entry idx; false for a broken entry (pos is then unusable). */
bool tb_setup(const TbLayout *layout, uint64_t idx, Position *pos)
{
    memset(pos, 0, offsetof(Position, hist));
    for (int sq = 0; sq < BOARD_SIZE; sq++)
        pos->board[sq] = GEO->on_board[sq] ? EMPTY : OFF_BOARD;
    pos->side = idx >= layout->half ? BLACK : RED;
    uint64_t rest = idx % layout->half;
    int prev = -1, id = 0;
    for (int i = 0; i < layout->slots; i++) {
        const TbSlot *s = &layout->slot[i];
        int d = (int)(rest / s->stride);
        rest %= s->stride;
        if (s->after_same && d <= prev)
            return false;
        int sq = s->square[d];
        if (pos->board[sq] != EMPTY || (s->type == PAWN && !GEO->pawn_ok[s->side][sq]))
            return false;
        id = s->after_same ? id + 1 : side_tag(s->side) + TYPE_FIRST[s->type];
        pos->board[sq] = (uint8_t)id;
        pos->piece_sq[id] = (uint8_t)sq;
        prev = d;
    }
    if (side_in_check(pos, pos->side ^ 1))
        return false;
    pos->in_check = side_in_check(pos, pos->side);
    pos->fullmove = 1;
    pos->key = pos_compute_key(pos);
    return true;
}
