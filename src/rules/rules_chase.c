/*
 * rules_chase.c - the AXF/WXF definition of a chase (捉), as a static test
 * on one position: which enemy pieces could a side win by capturing now?
 *
 * A pair (attacker A, victim V) chases when all of these hold:
 *  - A is not a king or a pawn: AXF rules 28-29 let the king and pawns
 *    attack perpetually, so their attacks are never counted;
 *  - V is not the king (that is a check) nor an uncrossed pawn (AXF rule 25,
 *    WXF general rule 3: it may be attacked perpetually);
 *  - A can legally capture V: a pinned attacker chases only its pinner,
 *    which the legality test gives for free;
 *  - and the capture would win material:
 *      * V is a rook held on a horse's leg (AXF rule 19, D39-41): always;
 *      * V is a rook and A a horse or cannon (AXF rule 15, WXF rule 6,
 *        D18-25, D42-44): always, protected or not;
 *      * A is an advisor or elephant and V a rook, horse or cannon: always,
 *        by the same "more valuable victim" principle;
 *      * A and V are of the same type and V can legally capture A back
 *        (AXF rule 24, D51-55): never, it is an exchange offer;
 *      * otherwise: V has no real protector, i.e. after A x V no piece of
 *        V's side can legally capture on that square (WXF rule 6: a fake
 *        root - pinned, or exposing its king - is no root; AXF D83-85).
 *
 * Invariant: every function that edits the board (side to move, trial
 * captures) restores it exactly before returning.
 */
#include "rules_chase.h"

#include <string.h>

#include "board/movegen.h"

/* Can piece identity `victim` be chased at all (not a king, not an uncrossed pawn)? */
static bool chaseable(const Position *pos, int victim)
{
    const int type = piece_type(victim);
    if (type == KING)
        return false;
    if (type == PAWN)
        return GEO->half[pos->piece_sq[victim]] != piece_side(victim); /* crossed the river */
    return true;
}

/* Sign of x (-1, 0, +1). */
static int sign_of(int x) { return (x > 0) - (x < 0); }

/* Is the rook on `sq` standing on the leg of an enemy horse that would otherwise attack its king? */
static bool rook_on_horse_leg(const Position *pos, int sq, int rook_side)
{
    const int king = pos_king_sq(pos, rook_side);
    const int horse0 = side_tag(rook_side ^ 1) + TYPE_FIRST[HORSE];
    for (int h = horse0; h < horse0 + TYPE_COUNT[HORSE]; h++) {
        const int from = pos->piece_sq[h];
        if (!from)
            continue;
        const int df = sq_file(king) - sq_file(from), dr = sq_rank(king) - sq_rank(from);
        int leg;
        if ((dr == 2 || dr == -2) && (df == 1 || df == -1))
            leg = from + sign_of(dr) * NORTH;
        else if ((df == 2 || df == -2) && (dr == 1 || dr == -1))
            leg = from + sign_of(df) * EAST;
        else
            continue;
        if (leg == sq)
            return true;
    }
    return false;
}

/* Can the piece on `from` (of the side not to move) legally capture on `to`? pos->side is restored. */
bool rules_other_side_can_capture(Position *pos, int from, int to)
{
    const Move m = move_make(from, to);
    pos->side ^= 1;
    const bool ok = move_is_pseudo_legal(pos, m) && move_is_legal(pos, m);
    pos->side ^= 1;
    return ok;
}

/* Does a move from `from` to `to` pass over square `via` (a slider's path, a horse's leg or an elephant's eye)? */
bool rules_passes_over(int type, int from, int to, int via)
{
    switch (type) {
    case HORSE: {
        const int dr = sq_rank(to) - sq_rank(from), df = sq_file(to) - sq_file(from);
        const int leg = (dr == 2 || dr == -2) ? from + sign_of(dr) * NORTH : from + sign_of(df) * EAST;
        return via == leg;
    }
    case ELEPHANT:
        return via == (from + to) / 2;
    case ROOK:
    case CANNON:
    case KING: {
        const bool same_rank = sq_rank(from) == sq_rank(to) && sq_rank(via) == sq_rank(to);
        const bool same_file = sq_file(from) == sq_file(to) && sq_file(via) == sq_file(to);
        return (same_rank || same_file) && (via - from) * (via - to) < 0;
    }
    default:
        return false;
    }
}

/* Identity bits (id & 15) of the pieces of `side`'s opponent that attack `side`'s king. */
uint16_t rules_checkers(Position *pos, int side)
{
    const int king = pos_king_sq(pos, side), them = side_tag(side ^ 1);
    const uint8_t saved = pos->side;
    uint16_t bits = 0;
    pos->side = (uint8_t)(side ^ 1);
    for (int i = 0; i < SIDE_PIECES; i++) {
        const int from = pos->piece_sq[them + i];
        if (from && move_is_pseudo_legal(pos, move_make(from, king)))
            bits |= (uint16_t)(1u << i);
    }
    pos->side = saved;
    return bits;
}

/* Is pseudo-legal move r legal, or would it be but for checks by the enemy pieces in `allowed` (not for king moves)? */
bool rules_legal_despite(Position *pos, Move r, uint16_t allowed)
{
    if (move_is_legal(pos, r))
        return true;
    const int mover = pos->side;
    if (!allowed || piece_type(pos->board[move_from(r)]) == KING)
        return false;
    pos_make(pos, r);
    const int k = pos_king_sq(pos, mover), other = pos_king_sq(pos, mover ^ 1);
    const bool facing = sq_file(k) == sq_file(other) && pieces_between(pos->board, k, other) == 0;
    const bool ok = !facing && (rules_checkers(pos, mover) & ~allowed) == 0;
    pos_unmake(pos);
    return ok;
}

/*
 * After the side to move plays capture m, can the other side legally
 * recapture on its square? A check the side to move was already giving does
 * not count against the recapture (FSF: roots are attackers not pinned): a
 * check is answered first, so it does not turn a protected piece into an
 * unprotected one (the "one check, one kill" cycle, rulings.txt line 100). A recapture that only gets there through the
 * square the capturer left (an x-ray through the attacker) is no root: that
 * protector is attacking the attacker itself, and a move blocking that line
 * defends the attacker rather than creating a chase (AXF D39-41, D61, where
 * such blocks are ruled allowed).
 */
static bool has_real_protector(Position *pos, Move m, uint16_t checks)
{
    const int sq = move_to(m), vacated = move_from(m);
    Move replies[MAX_MOVES];
    bool found = false;
    pos_make(pos, m);
    const int n = gen_captures(pos, replies);
    for (int i = 0; i < n && !found; i++) {
        const Move r = replies[i];
        found = move_to(r) == sq
            && !rules_passes_over(piece_type(pos->board[move_from(r)]), move_from(r), sq, vacated)
            && rules_legal_despite(pos, r, checks);
    }
    pos_unmake(pos);
    return found;
}

/* Does capture m (legal, by the side to move) of `victim` by `attacker` count as a chase? */
static bool capture_is_chase(Position *pos, Move m, int attacker, int victim, uint16_t checks)
{
    const int ta = piece_type(attacker), tv = piece_type(victim);
    /* AXF rule 19 (D39-41): a rook pinned on a horse's leg may not be chased
     * at all, protected or not. Pikafish drops this rule; the rulebook has it. */
    if (tv == ROOK && rook_on_horse_leg(pos, move_to(m), piece_side(victim)))
        return true;
    /* AXF rule 15 / WXF general rule 6: a horse or cannon may not chase a rook even a protected one. */
    if (tv == ROOK && (ta == HORSE || ta == CANNON))
        return true;
    /* The same principle (an attack on a more valuable piece wins material
     * even if it is protected): an advisor or elephant, worth less than a
     * rook, horse or cannon, chases those even when they are protected. */
    if ((ta == ADVISOR || ta == ELEPHANT) && (tv == ROOK || tv == HORSE || tv == CANNON))
        return true;
    /* AXF rule 24: same-type attacks that can be returned are exchange offers. */
    if (ta == tv && rules_other_side_can_capture(pos, move_to(m), move_from(m)))
        return false;
    return !has_real_protector(pos, m, checks);
}

/* Fills the chase pairs of `side` against the other side's pieces. */
void rules_chase_pairs(Position *pos, int side, RulesThreats *out)
{
    memset(out, 0, sizeof *out);
    const uint8_t saved_side = pos->side, saved_check = pos->in_check;
    pos->side = (uint8_t)side;
    /* checks the side is giving: the other side answers them first */
    const uint16_t checks = rules_checkers(pos, side ^ 1);
    Move caps[MAX_MOVES];
    const int n = gen_captures(pos, caps);
    for (int i = 0; i < n; i++) {
        const Move m = caps[i];
        const int attacker = pos->board[move_from(m)], victim = pos->board[move_to(m)];
        const int ta = piece_type(attacker);
        if (ta == KING || ta == PAWN || !chaseable(pos, victim))
            continue;
        if (!move_is_legal(pos, m))
            continue;
        if (capture_is_chase(pos, m, attacker, victim, checks))
            out->by[victim & 15] |= (uint16_t)(1u << (attacker & 15));
    }
    memcpy(out->real, out->by, sizeof out->real); /* AXF: a chase pair is real as it stands */
    pos->side = saved_side;
    pos->in_check = saved_check;
}
