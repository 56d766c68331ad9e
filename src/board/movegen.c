/* movegen.c - pseudo-legal generation, attack tests and fast legality. */
#include "movegen.h"

#include <string.h>

/* Elephant steps two diagonals; its eye is the square in between (delta / 2). */
static const int ELEPHANT_DELTA[4] = { 2 * (NORTH + EAST), 2 * (NORTH + WEST), 2 * (SOUTH + EAST),
                                       2 * (SOUTH + WEST) };
/* Horse jumps and the leg each one passes. */
static const int HORSE_DELTA[8] = { 2 * NORTH + EAST, 2 * NORTH + WEST, 2 * SOUTH + EAST, 2 * SOUTH + WEST,
                                    2 * EAST + NORTH, 2 * EAST + SOUTH, 2 * WEST + NORTH, 2 * WEST + SOUTH };
static const int HORSE_LEG[8] = { NORTH, NORTH, SOUTH, SOUTH, EAST, EAST, WEST, WEST };

/* Is identity pc a piece of the side with this tag (16 red, 32 black)? */
static inline bool is_own(int pc, int tag) { return (pc & tag) != 0; }
/* Can a piece of side `tag` move to a square holding pc (empty or enemy)? */
static inline bool can_land(int pc, int tag) { return pc == EMPTY || (pc & (RED_TAG | BLACK_TAG) & ~tag); }

/* Which moves a generator call produces. */
typedef enum GenKind { GEN_ALL, GEN_CAPTURES, GEN_QUIETS } GenKind;

/* May a move to a square holding pc be produced under this kind (empty or enemy; enemy only; empty only)? */
static inline bool gen_wants(GenKind kind, int pc, int tag, int opp)
{
    return kind == GEN_ALL ? can_land(pc, tag) : (kind == GEN_CAPTURES ? (pc & opp) != 0 : pc == EMPTY);
}

/* Appends the moves (all, captures only, or quiet moves only) of the side to move. */
static int generate(const Position *pos, Move *out, GenKind kind)
{
    const uint8_t *b = pos->board;
    const int side = pos->side;
    const int tag = side_tag(side);
    const int opp = tag ^ (RED_TAG | BLACK_TAG);
    int n = 0;

    for (int i = 0; i < SIDE_PIECES; i++) {
        const int from = pos->piece_sq[tag + i];
        if (!from)
            continue;
        switch (ID_TYPE[i]) {
        case KING:
            for (int d = 0; d < 4; d++) {
                int to = from + KING_DELTA[d];
                int pc = b[to];
                if (GEO->palace[to] && gen_wants(kind, pc, tag, opp))
                    out[n++] = move_make(from, to);
            }
            break;
        case ADVISOR:
            for (int d = 0; d < 4; d++) {
                int to = from + ADVISOR_DELTA[d];
                int pc = b[to];
                if (GEO->palace[to] && gen_wants(kind, pc, tag, opp))
                    out[n++] = move_make(from, to);
            }
            break;
        case ELEPHANT:
            for (int d = 0; d < 4; d++) {
                int to = from + ELEPHANT_DELTA[d];
                int pc = b[to];
                if (GEO->on_board[to] && GEO->half[to] == side && b[from + ELEPHANT_DELTA[d] / 2] == EMPTY
                    && gen_wants(kind, pc, tag, opp))
                    out[n++] = move_make(from, to);
            }
            break;
        case HORSE:
            for (int d = 0; d < 8; d++) {
                int to = from + HORSE_DELTA[d];
                int pc = b[to];
                if (b[from + HORSE_LEG[d]] == EMPTY && gen_wants(kind, pc, tag, opp))
                    out[n++] = move_make(from, to);
            }
            break;
        case ROOK:
            for (int d = 0; d < 4; d++) {
                int delta = KING_DELTA[d];
                int to = from + delta;
                while (b[to] == EMPTY) {
                    if (kind != GEN_CAPTURES)
                        out[n++] = move_make(from, to);
                    to += delta;
                }
                if ((b[to] & opp) && kind != GEN_QUIETS)
                    out[n++] = move_make(from, to);
            }
            break;
        case CANNON:
            for (int d = 0; d < 4; d++) {
                int delta = KING_DELTA[d];
                int to = from + delta;
                while (b[to] == EMPTY) {
                    if (kind != GEN_CAPTURES)
                        out[n++] = move_make(from, to);
                    to += delta;
                }
                if (b[to] == OFF_BOARD || kind == GEN_QUIETS)
                    continue;
                to += delta; /* jump the screen */
                while (b[to] == EMPTY)
                    to += delta;
                if (b[to] & opp)
                    out[n++] = move_make(from, to);
            }
            break;
        default: { /* PAWN */
            int to = from + pawn_forward(side);
            int pc = b[to];
            if (gen_wants(kind, pc, tag, opp))
                out[n++] = move_make(from, to);
            if (GEO->half[from] != side) {
                for (int d = EAST; d >= WEST; d -= 2) {
                    to = from + d;
                    pc = b[to];
                    if (gen_wants(kind, pc, tag, opp))
                        out[n++] = move_make(from, to);
                }
            }
            break;
        }
        }
    }
    return n;
}

/* All pseudo-legal moves. */
int gen_moves(const Position *pos, Move *out) { return generate(pos, out, GEN_ALL); }

/* Pseudo-legal captures. */
int gen_captures(const Position *pos, Move *out) { return generate(pos, out, GEN_CAPTURES); }

/* Pseudo-legal non-captures. */
int gen_quiets(const Position *pos, Move *out) { return generate(pos, out, GEN_QUIETS); }

/* Is sq attacked by side `by`? */
bool is_attacked(const Position *pos, int sq, int by) { return board_attacked(pos->board, sq, by); }

/* Plays m on the board bytes only, tests whether `target_side`'s king is attacked, and restores. */
static bool king_attacked_after(Position *pos, Move m, int target_side)
{
    uint8_t *b = pos->board;
    const int from = move_from(m), to = move_to(m);
    const int mover = b[from], captured = b[to];
    b[to] = (uint8_t)mover;
    b[from] = EMPTY;
    int king = pos_king_sq(pos, target_side);
    if (mover == side_tag(target_side))
        king = to;
    bool hit = board_attacked(b, king, target_side ^ 1);
    b[from] = (uint8_t)mover;
    b[to] = (uint8_t)captured;
    return hit;
}

/* Is a pseudo-legal move legal (own king safe afterwards, kings not facing)? */
bool move_is_legal(Position *pos, Move m) { return !king_attacked_after(pos, m, pos->side); }

/* Does a pseudo-legal move attack the enemy king? */
bool move_gives_check(Position *pos, Move m) { return king_attacked_after(pos, m, pos->side ^ 1); }

/* Is identity pc of side `by` a rook or the king (an attacker with no screen)? */
static inline bool is_slider(int pc, int by)
{
    int idx = pc - side_tag(by);
    return idx == 0 || idx == TYPE_FIRST[ROOK] || idx == TYPE_FIRST[ROOK] + 1;
}

/* Is identity pc a cannon of side `by`? */
static inline bool is_cannon(int pc, int by)
{
    int idx = pc - side_tag(by);
    return idx == TYPE_FIRST[CANNON] || idx == TYPE_FIRST[CANNON] + 1;
}

/* Adds a square to a 256-bit square set. */
static inline void set_square(uint64_t *set, int sq) { set[sq >> 6] |= 1ULL << (sq & 63); }
/* Is a square in a 256-bit square set? */
static inline bool has_square(const uint64_t *set, int sq) { return (set[sq >> 6] >> (sq & 63)) & 1; }

/* Marks the squares from or to which a move might expose the mover's king. */
void legal_ctx_init(const Position *pos, LegalCtx *ctx)
{
    const uint8_t *b = pos->board;
    const int side = pos->side, opp = side ^ 1, tag = side_tag(side);
    const int k = pos_king_sq(pos, side);
    ctx->king = k;
    ctx->check = pos->in_check;
    memset(ctx->from_danger, 0, sizeof ctx->from_danger);
    memset(ctx->to_danger, 0, sizeof ctx->to_danger);
    if (ctx->check)
        return;
    for (int d = 0; d < 4; d++) {
        int delta = KING_DELTA[d];
        int s1 = k + delta;
        while (b[s1] == EMPTY)
            s1 += delta;
        if (b[s1] == OFF_BOARD)
            continue;
        if (is_cannon(b[s1], opp)) { /* a piece stepping in between becomes its screen */
            for (int s = k + delta; s != s1; s += delta)
                set_square(ctx->to_danger, s);
        }
        int s2 = s1 + delta;
        while (b[s2] == EMPTY)
            s2 += delta;
        if (b[s2] == OFF_BOARD)
            continue;
        if (is_own(b[s1], tag) && is_slider(b[s2], opp))
            set_square(ctx->from_danger, s1);
        int s3 = s2 + delta;
        while (b[s3] == EMPTY)
            s3 += delta;
        if (is_cannon(b[s3], opp)) {
            if (is_own(b[s1], tag))
                set_square(ctx->from_danger, s1);
            if (is_own(b[s2], tag))
                set_square(ctx->from_danger, s2);
        }
    }
    const int horse = side_tag(opp) + TYPE_FIRST[HORSE];
    for (int d = 0; d < 4; d++) {
        int leg = k + ADVISOR_DELTA[d];
        if (!is_own(b[leg], tag))
            continue;
        int p1 = b[leg + DIAG_VERT[d]], p2 = b[leg + DIAG_HORIZ[d]];
        if (p1 == horse || p1 == horse + 1 || p2 == horse || p2 == horse + 1)
            set_square(ctx->from_danger, leg);
    }
}

/* Legality of a pseudo-legal move, with a full test only where ctx says it is needed. */
bool legal_with_ctx(Position *pos, const LegalCtx *ctx, Move m)
{
    const int from = move_from(m), to = move_to(m);
    if (ctx->check || from == ctx->king || has_square(ctx->from_danger, from) || has_square(ctx->to_danger, to))
        return !king_attacked_after(pos, m, pos->side);
    return true;
}

/* Which of the king's four lines a square lies on (1 north, 2 south, 3 east, 4 west), or 0. */
static inline int king_line(int king, int sq)
{
    if ((sq & 15) == (king & 15))
        return sq > king ? 1 : 2;
    if ((sq >> 4) == (king >> 4))
        return sq > king ? 3 : 4;
    return 0;
}

/* Marks sq for the piece types in the mask (bit 1 << type) landing there. */
static inline void mark_to(CheckCtx *ctx, int sq, unsigned types) { ctx->mark[sq] |= (uint8_t)types; }

enum { ALL_TYPES = (1u << PIECE_TYPES) - 1, LINE_ATTACKERS = (1u << ROOK) | (1u << KING) };

_Static_assert(PIECE_TYPES < 8 && CHECK_FROM == 1u << 7, "a CheckCtx mark holds a bit per type and CHECK_FROM");

/* Marks the squares from or to which a move of the side to move might check the other king. */
static void check_ctx_fill(const Position *pos, CheckCtx *ctx)
{
    const uint8_t *b = pos->board;
    const int tag = side_tag(pos->side);
    const int k = pos_king_sq(pos, pos->side ^ 1);
    ctx->king = k;
    ctx->ready = true;
    memset(ctx->mark, 0, sizeof ctx->mark);
    for (int d = 0; d < 4; d++) {
        const int delta = KING_DELTA[d];
        int line[3] = { 0, 0, 0 }; /* the first three pieces on the line, 0 past the edge */
        int s = k + delta;
        for (int i = 0; i < 3; i++) {
            while (b[s] == EMPTY)
                s += delta;
            if (b[s] == OFF_BOARD)
                break;
            line[i] = s;
            s += delta;
        }
        const int own1 = line[0] ? b[line[0]] - tag : -1, own2 = line[1] ? b[line[1]] - tag : -1;
        const int own3 = line[2] ? b[line[2]] - tag : -1;
        const bool cannon1 = own1 == TYPE_FIRST[CANNON] || own1 == TYPE_FIRST[CANNON] + 1;
        const bool cannon3 = own3 == TYPE_FIRST[CANNON] || own3 == TYPE_FIRST[CANNON] + 1;
        const bool slider2 = own2 == 0 || own2 == TYPE_FIRST[ROOK] || own2 == TYPE_FIRST[ROOK] + 1;
        /* Up to the first piece: a rook or the king lands with nothing between; any piece screens a cannon. */
        for (s = k + delta; b[s] != OFF_BOARD && s != line[0]; s += delta)
            mark_to(ctx, s, cannon1 ? ALL_TYPES : LINE_ATTACKERS);
        if (b[k + delta] != OFF_BOARD)
            mark_to(ctx, k + delta, 1u << PAWN);
        if (!line[0])
            continue;
        mark_to(ctx, line[0], LINE_ATTACKERS);
        /* Past the first piece, up to the second: a cannon with the first as its screen. */
        for (s = line[0] + delta; b[s] != OFF_BOARD; s += delta) {
            mark_to(ctx, s, 1u << CANNON);
            if (s == line[1])
                break;
        }
        /* Uncovered: a rook or the king behind the first piece, a cannon third behind the first or second. */
        if (slider2 || cannon3)
            ctx->mark[line[0]] |= CHECK_FROM;
        if (cannon3)
            ctx->mark[line[1]] |= CHECK_FROM;
    }
    const int horse = tag + TYPE_FIRST[HORSE];
    for (int d = 0; d < 4; d++) {
        const int leg = k + ADVISOR_DELTA[d], h1 = leg + DIAG_VERT[d], h2 = leg + DIAG_HORIZ[d];
        if (b[leg] == EMPTY) {
            mark_to(ctx, h1, 1u << HORSE);
            mark_to(ctx, h2, 1u << HORSE);
        } else if (b[h1] == horse || b[h1] == horse + 1 || b[h2] == horse || b[h2] == horse + 1) {
            ctx->mark[leg] |= CHECK_FROM;
        }
    }
}

/* Does a pseudo-legal move give check, using (and on the first call filling) a CheckCtx of the same position? */
bool gives_check_with_ctx(Position *pos, CheckCtx *ctx, Move m)
{
    if (!ctx->ready)
        check_ctx_fill(pos, ctx);
    const int from = move_from(m), to = move_to(m), line = king_line(ctx->king, from);
    if ((ctx->mark[from] & CHECK_FROM) || (ctx->mark[to] & (1u << piece_type(pos->board[from])))
        || (line && line == king_line(ctx->king, to)))
        return king_attacked_after(pos, m, pos->side ^ 1);
    return false;
}

/* All legal moves. */
int gen_legal(Position *pos, Move *out)
{
    Move pseudo[MAX_MOVES];
    LegalCtx ctx;
    int n = gen_moves(pos, pseudo), k = 0;
    legal_ctx_init(pos, &ctx);
    for (int i = 0; i < n; i++)
        if (legal_with_ctx(pos, &ctx, pseudo[i]))
            out[k++] = pseudo[i];
    return k;
}

/* Number of legal moves. */
int count_legal(Position *pos)
{
    Move pseudo[MAX_MOVES];
    LegalCtx ctx;
    int n = gen_moves(pos, pseudo), k = 0;
    legal_ctx_init(pos, &ctx);
    for (int i = 0; i < n; i++)
        k += legal_with_ctx(pos, &ctx, pseudo[i]);
    return k;
}

/* Is m a pseudo-legal move of the side to move in this position? */
bool move_is_pseudo_legal(const Position *pos, Move m)
{
    const uint8_t *b = pos->board;
    const int from = move_from(m), to = move_to(m);
    const int side = pos->side, tag = side_tag(side);
    if (from == to || !GEO->on_board[from] || !GEO->on_board[to])
        return false;
    const int pc = b[from];
    if (!is_own(pc, tag) || !can_land(b[to], tag))
        return false;
    const int delta = to - from;
    switch (piece_type(pc)) {
    case KING:
        return GEO->palace[to] && (delta == NORTH || delta == SOUTH || delta == EAST || delta == WEST);
    case ADVISOR:
        return GEO->palace[to]
            && (delta == NORTH + EAST || delta == NORTH + WEST || delta == SOUTH + EAST || delta == SOUTH + WEST);
    case ELEPHANT:
        for (int d = 0; d < 4; d++)
            if (delta == ELEPHANT_DELTA[d])
                return GEO->half[to] == side && b[from + delta / 2] == EMPTY;
        return false;
    case HORSE:
        for (int d = 0; d < 8; d++)
            if (delta == HORSE_DELTA[d])
                return b[from + HORSE_LEG[d]] == EMPTY;
        return false;
    case ROOK:
    case CANNON: {
        if ((from >> 4) != (to >> 4) && (from & 15) != (to & 15))
            return false;
        int between = pieces_between(b, from, to);
        if (piece_type(pc) == ROOK)
            return between == 0;
        return b[to] == EMPTY ? between == 0 : between == 1;
    }
    default: /* PAWN */
        if (delta == pawn_forward(side))
            return true;
        return (delta == EAST || delta == WEST) && GEO->half[from] != side;
    }
}
