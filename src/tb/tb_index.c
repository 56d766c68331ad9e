/* tb_index.c - the compact index: placements <-> entry numbers (layout in tb_index.h). */
#include "tb_index.h"

#include <string.h>

#include "board/movegen.h"

/* Order of a side's attacking groups in the index. */
static const unsigned char GROUP_ORDER[] = { ROOK, HORSE, CANNON, PAWN };

/* Fills a group's domain tables: a pawn's squares of its side, every square for the others. */
static void group_init(TbGroup *g, int side, int type, int count)
{
    g->side = (unsigned char)side;
    g->type = (unsigned char)type;
    g->count = (unsigned char)count;
    g->n = 0;
    memset(g->pos, -1, sizeof g->pos);
    for (int sq = 0; sq < BOARD_SIZE; sq++)
        if (GEO->on_board[sq] && (type != PAWN || GEO->pawn_ok[side][sq])) {
            g->pos[sq] = (signed char)g->n;
            g->square[g->n++] = (unsigned char)sq;
        }
    g->size = count == 1 ? g->n : (uint64_t)g->n * (g->n - 1) / 2;
}

/* Builds the layout of a canonical signature (sig as tb_sig_canonical returns it). */
void tb_layout_init(TbLayout *layout, const TbSig *sig)
{
    const TbPlaces *P = tb_places();
    memset(layout, 0, sizeof *layout);
    layout->sig = *sig;
    for (int side = RED; side <= BLACK; side++)
        layout->kind[side] = tb_place_kind(sig->count[side][ADVISOR], sig->count[side][ELEPHANT]);
    const TbPlaceKind *red = &P->kind[layout->kind[RED]], *black = &P->kind[layout->kind[BLACK]];
    layout->red_asym = (uint64_t)red->asym;
    layout->red_sym = (uint64_t)(red->canon - red->asym);
    layout->black_all = (uint64_t)black->all;
    layout->black_canon = (uint64_t)black->canon;
    layout->pairs = layout->red_asym * layout->black_all + layout->red_sym * layout->black_canon;
    int n = 0;
    for (int side = RED; side <= BLACK; side++)
        for (size_t i = 0; i < sizeof GROUP_ORDER; i++)
            if (sig->count[side][GROUP_ORDER[i]] && n < TB_GROUPS_MAX)
                group_init(&layout->group[n++], side, GROUP_ORDER[i], sig->count[side][GROUP_ORDER[i]]);
    layout->groups = n;
    uint64_t stride = 1;
    for (int i = n - 1; i >= 0; i--) {
        layout->group[i].stride = stride;
        stride *= layout->group[i].size;
    }
    layout->attack = stride;
    layout->half = layout->pairs * stride;
    layout->size = 2 * layout->half;
}

/* The square of sq seen colour-swapped (flip: ranks reversed) and mirrored (files reversed). */
static int transform(int sq, bool flip, bool mirror)
{
    if (mirror)
        sq = sq_mirror(sq);
    return flip ? sq_flip(sq) : sq;
}

/* The mask of the points a side's pieces of one type stand on (their identities from `first` on), bit_of[sq]
 * giving a square's point bit, squares read colour-swapped when flip; -1 when one stands off its points or
 * their number is not `want`. */
static int point_mask(const Position *pos, int first, int type, const uint8_t *bit_of, bool flip, int want)
{
    int mask = 0, n = 0;
    for (int i = 0; i < TYPE_COUNT[type]; i++) {
        int sq = pos->piece_sq[first + i];
        if (!sq)
            continue;
        int bit = bit_of[transform(sq, flip, false)];
        if (!bit)
            return -1;
        mask |= bit;
        n++;
    }
    return n == want ? mask : -1;
}

/* The defence code (tb_place.h) of the table's side `side` in pos read colour-swapped (flip), unmirrored;
 * -1 when a piece is off its points or the counts differ from the layout's. */
static int defence_code(const TbLayout *layout, const Position *pos, int side, bool flip)
{
    const TbPlaces *P = tb_places();
    const int tag = side_tag(side ^ flip);
    int k = P->king_pt[side][transform(pos->piece_sq[tag], flip, false)];
    int am = k < 0 ? -1
                   : point_mask(pos, tag + TYPE_FIRST[ADVISOR], ADVISOR, P->advisor_bit[side], flip,
                                layout->sig.count[side][ADVISOR]);
    int em = am < 0 ? -1
                    : point_mask(pos, tag + TYPE_FIRST[ELEPHANT], ELEPHANT, P->elephant_bit[side], flip,
                                 layout->sig.count[side][ELEPHANT]);
    return em < 0 ? -1 : k << TB_KING_SHIFT | am << TB_ADVISOR_SHIFT | em;
}

/* The pair number of two (already mirrored) defence codes, or TB_NO_INDEX when they are not the
 * index's canonical form. */
static uint64_t pair_of(const TbLayout *layout, int red, int black)
{
    const TbPlaces *P = tb_places();
    uint64_t r = P->canon_rank[red];
    if (r == TB_PLACE_NONE)
        return TB_NO_INDEX;
    if (r < layout->red_asym)
        return r * layout->black_all + P->all_rank[black];
    uint64_t c = P->canon_rank[black];
    if (c == TB_PLACE_NONE)
        return TB_NO_INDEX;
    return layout->red_asym * layout->black_all + (r - layout->red_asym) * layout->black_canon + c;
}

/* The attacking groups' part of the index of pos read colour-swapped (flip) and mirrored as asked;
 * TB_NO_INDEX when a piece is off its domain or a group's count differs. */
static uint64_t groups_of(const TbLayout *layout, const Position *pos, bool flip, bool mirror)
{
    uint64_t idx = 0;
    for (int i = 0; i < layout->groups; i++) {
        const TbGroup *g = &layout->group[i];
        const int base = side_tag(g->side ^ flip) + TYPE_FIRST[g->type];
        int dom[TB_MAX_OF_TYPE], n = 0;
        for (int k = 0; k < TYPE_COUNT[g->type]; k++) {
            int sq = pos->piece_sq[base + k];
            if (!sq)
                continue;
            int d = n < g->count ? g->pos[transform(sq, flip, mirror)] : -1;
            if (d < 0)
                return TB_NO_INDEX;
            dom[n++] = d;
        }
        if (n != g->count)
            return TB_NO_INDEX;
        idx += (n == 1 ? (uint64_t)dom[0] : tb_pair((unsigned)dom[0], (unsigned)dom[1])) * g->stride;
    }
    return idx;
}

/* Index of pos with the defence codes red and black (unmirrored), read colour-swapped and mirrored as asked. */
static uint64_t index_as(const TbLayout *layout, const Position *pos, bool flip, bool mirror, int red, int black)
{
    const TbPlaces *P = tb_places();
    uint64_t pair = mirror ? pair_of(layout, P->mirror[red], P->mirror[black]) : pair_of(layout, red, black);
    uint64_t groups = pair == TB_NO_INDEX ? TB_NO_INDEX : groups_of(layout, pos, flip, mirror);
    if (groups == TB_NO_INDEX)
        return TB_NO_INDEX;
    return (uint64_t)(pos->side ^ flip) * layout->half + pair * layout->attack + groups;
}

/* Index of pos in the layout; flip reads it colour-swapped. TB_NO_INDEX if a piece is off its domain. */
uint64_t tb_index_of(const TbLayout *layout, const Position *pos, bool flip)
{
    const TbPlaces *P = tb_places();
    int red = defence_code(layout, pos, RED, flip), black = red < 0 ? -1 : defence_code(layout, pos, BLACK, flip);
    if (black < 0)
        return TB_NO_INDEX;
    /* mirrored when red's code is above its image's, or red's is symmetric and black's is above its image's */
    bool mirror = P->mirror[red] < red || (P->mirror[red] == red && P->mirror[black] < black);
    return index_as(layout, pos, flip, mirror, red, black);
}

/* The entry of pos's mirror image when both sides' defences are symmetric (both images are entries). */
uint64_t tb_index_twin(const TbLayout *layout, const Position *pos)
{
    const TbPlaces *P = tb_places();
    int red = defence_code(layout, pos, RED, false), black = red < 0 ? -1 : defence_code(layout, pos, BLACK, false);
    if (black < 0 || P->mirror[red] != red || P->mirror[black] != black)
        return TB_NO_INDEX;
    return index_as(layout, pos, false, true, red, black);
}

/* Puts piece id on sq; false if the square is taken. */
static bool put(Position *pos, int id, int sq)
{
    if (pos->board[sq] != EMPTY)
        return false;
    pos->board[sq] = (uint8_t)id;
    pos->piece_sq[id] = (uint8_t)sq;
    return true;
}

/* Puts a side's king, advisors and elephants where its defence code says. */
static void put_defence(Position *pos, int side, int code)
{
    const TbPlaces *P = tb_places();
    const int tag = side_tag(side);
    int id = tag + TYPE_FIRST[ADVISOR];
    put(pos, tag, P->king_sq[side][code >> TB_KING_SHIFT]);
    for (int a = 0; a < TB_ADVISOR_POINTS; a++)
        if (code >> (TB_ADVISOR_SHIFT + a) & 1)
            put(pos, id++, P->advisor_sq[side][a]);
    id = tag + TYPE_FIRST[ELEPHANT];
    for (int e = 0; e < TB_ELEPHANT_POINTS; e++)
        if (code >> e & 1)
            put(pos, id++, P->elephant_sq[side][e]);
}

/* Puts the attacking groups of the groups' number `rest`; false if two pieces share a square. */
static bool put_groups(const TbLayout *layout, uint64_t rest, Position *pos)
{
    const TbPlaces *P = tb_places();
    for (int i = 0; i < layout->groups; i++) {
        const TbGroup *g = &layout->group[i];
        uint64_t d = rest / g->stride;
        rest %= g->stride;
        int id = side_tag(g->side) + TYPE_FIRST[g->type];
        if (g->count == 1 ? !put(pos, id, g->square[d])
                          : !put(pos, id, g->square[P->pair_lo[d]]) || !put(pos, id + 1, g->square[P->pair_hi[d]]))
            return false;
    }
    return true;
}

/* Sets pos to the position of entry idx; false for a broken entry (pos is then unusable). */
bool tb_setup(const TbLayout *layout, uint64_t idx, Position *pos)
{
    const TbPlaces *P = tb_places();
    memset(pos, 0, offsetof(Position, hist));
    for (int sq = 0; sq < BOARD_SIZE; sq++)
        pos->board[sq] = GEO->on_board[sq] ? EMPTY : OFF_BOARD;
    pos->side = idx >= layout->half ? BLACK : RED;
    const uint64_t rest = idx % layout->half, pair = rest / layout->attack,
                   split = layout->red_asym * layout->black_all;
    const TbPlaceKind *red = &P->kind[layout->kind[RED]], *black = &P->kind[layout->kind[BLACK]];
    int rc, bc;
    if (pair < split) {
        rc = red->code_of_canon[pair / layout->black_all];
        bc = black->code_of_all[pair % layout->black_all];
    } else {
        rc = red->code_of_canon[layout->red_asym + (pair - split) / layout->black_canon];
        bc = black->code_of_canon[(pair - split) % layout->black_canon];
    }
    put_defence(pos, RED, rc);
    put_defence(pos, BLACK, bc);
    if (!put_groups(layout, rest % layout->attack, pos) || side_in_check(pos, pos->side ^ 1))
        return false;
    pos->in_check = side_in_check(pos, pos->side);
    pos->fullmove = 1;
    pos->key = pos_compute_key(pos);
    return true;
}
