/*
 * rules_cxa.c - the CXA definitions of a chase (捉) and a mate threat (杀),
 * as static tests on one position with `side` to move.
 *
 * Chase. CXA: a move chases when it makes it possible to capture, on the
 * next move (including through a series of exchanges starting then), an
 * enemy piece of material value and so win material. Here a pair (attacker
 * A, victim V) chases when:
 *  - A is not the king and not a pawn (Art. 27: their attacks alone are
 *    idle; a pawn's pairs are kept apart, RulesThreats.pawn, and count in
 *    a mutual perpetual attack); V is not the king (that is a check) nor an
 *    uncrossed pawn (no material value);
 *  - A can legally capture V (a pinned attacker chases only its pinner);
 *  - A and V are not of the same type with V able to capture A back (兑, an
 *    exchange offer, is allowed), unless taking back walks into a mate by
 *    checks that A's side did not threaten anyway (24.4: an exchange that
 *    allows mate is no exchange; 参考图49, 50);
 *  - and A x V wins material by the CXA values (rook 10, horse = cannon 5,
 *    advisor = elephant = crossed pawn 2, uncrossed pawn 1): the value of V
 *    exceeds what the other side then wins back by its best sequence of
 *    legal captures anywhere on the board (a short material-only capture
 *    search). So a protected rook attacked by a horse or cannon is chased, a
 *    protected piece of equal value is not, a fake (pinned) root is no root,
 *    and a move that removes a counter-threat makes an existing attack a
 *    chase (CXA 图12, 参考图16).
 * Roots (24.15). A victim worth no more than its attacker is chased only if
 * it has no real root, and a root is not real when the complete exchange
 * (24.3, 完整互吃) still wins for the attacker: more attackers than roots on
 * the square (少根子, 图23, 图30 varied), or a root whose recapture abandons
 * another piece or opens a line the attacker could not use before (参考图1,
 * 参考图13). Such a pair is a joint chase (联合捉子): it takes more than
 * one piece, it must win by the full capture search too (参考图31), and it
 * is an exchange offer (兑) when the victim can trade itself off against an
 * attacker of its own type (图21, 参考图4). In a mutual perpetual attack a
 * side whose attack includes a joint chase ranks below one that chases with
 * single pieces (rules_sets.c). Each pair also says whether its victim has
 * a root at all, a fake one included (RulesThreats.rooted): a pair that a
 * move holds for another attacker is joint when it has (rules.c).
 * Counter-threats. What the other side could win anyway (its standing
 * threat) does not make a capture unreal: the two sides each take a piece
 * (各吃各子). A capture that gives check gets no such allowance: the reply
 * must answer the check, so a counter-capture that comes with it, such as
 * taking the checking piece, is a consequence of the capture (图9: a rook
 * escaping a horse makes its discovered-check capture real, a chase).
 * Mate threat: the side, if it were to move, could mate by a sequence of
 * checks of at most CXA_MATE_MOVES moves (杀: a threat to checkmate,
 * including by continuous checks). Two moves (check, any reply, mating
 * check) cover the book's threats (a mate in one, or a check that forces
 * the mate next); three moves find threats the book does not count (they
 * break 参考图35, and make AXF's perpetual-kill example of rulings.txt
 * line 36, 一将一杀 against 一杀一闲, a mutual perpetual attack) and
 * make a chinese ruling about half as slow again (tools/rules_speed).
 * Combination (捉 "including by continuous checks"): the side could give a
 * quiet check after which, whatever the reply, its captures win at least a
 * horse's worth, more than its captures now win (RulesThreats.combo). The
 * capture may be the checker's (a fork, a skewer, 卧槽), the piece's whose
 * move uncovered the check, or a third piece's: the definition says only
 * that the capture becomes possible through the checks, and the book calls
 * the advisor move of 参考图42 that allows a rook check (doubled by the
 * cannon behind it) forcing a block that the cannon then takes a 联合捉子.
 * One check deep: the book's examples are one check and a capture; a
 * deeper line of checks ruled 图24's idle rook move a chase.
 * The one exception is a sacrificial check (CXA_SACRIFICES): a checking
 * piece that the reply takes may be followed by one more such check, the
 * sacrificed piece's value deducted (a pawn given up on the king's square
 * draws the king into a fork). Such a chase is joint (联合捉子: the check
 * and the capture win together), as the book rules 参考图40's horse check
 * that wins a piece. A sacrifice that is no check is not followed: the
 * definition's capture comes on the next move or through checks or
 * exchanges starting then, and a quiet offer leaves the other side free.
 * Art. 27's third case: attacks on an advisor or elephant by a piece on a
 * key defensive point that gives an immediate simple draw are idle. The
 * book does not define the terms; here a key defensive point is a square
 * whose piece, lifted off the board, would leave its king attacked or let
 * the other side threaten mate, while in place the other side threatens
 * none; the draw is immediate and simple when the side itself threatens no
 * mate and no combination (drop_key_point_pairs).
 *
 * Invariant: every function that edits the board (side to move, trial
 * moves) restores it exactly before returning.
 */
#include "rules_cxa.h"

#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "rules_chase.h"

enum {
    CXA_CAPTURE_DEPTH = 6, /* plies of the material-only capture search after A x V */
    CXA_MATE_MOVES = 2,    /* mate threats: mates by checks in at most this many moves */
    CXA_COMBO_MIN = 5,     /* a combination chase wins at least a horse's worth */
    CXA_SACRIFICES = 1,    /* a combination may begin with this many sacrificial checks */
    CXA_KING_VALUE = 1000, /* the king is never really captured: legality stops it */
    CXA_MATED = 10000,     /* check_gain's value of a mate (more than all material) */
    CXA_ORDER_VICTIM_WEIGHT = 2 * CXA_KING_VALUE, /* capture order: the victim outweighs any capturer */
};

/* CXA material values by piece type (king, advisor, elephant, horse, rook, cannon, pawn). */
static const int VALUE[PIECE_TYPES] = { CXA_KING_VALUE, 2, 2, 5, 10, 5, 1 };
enum { CROSSED_PAWN_VALUE = 2 };
enum { NO_SQUARE = 0, NO_SIDE = -1 }; /* capture_search: captures anywhere, by every piece */

/* How a captured piece is protected (CXA 24.15). */
typedef enum RootKind {
    ROOT_NONE,        /* 无根子, or only fake roots */
    ROOT_OUTNUMBERED, /* a root that the complete exchange overcomes (少根子) */
    ROOT_REAL,        /* 有根子 */
} RootKind;

/* CXA value of the piece identity `id` standing where it stands now. */
static int value_of(const Position *pos, int id)
{
    const int type = piece_type(id);
    if (type == PAWN && GEO->half[pos->piece_sq[id]] != piece_side(id))
        return CROSSED_PAWN_VALUE;
    return VALUE[type];
}

/*
 * The captures capture_search may try, most valuable victim first and, for
 * one victim, least valuable capturer first (MVV-LVA), so that its cutoffs
 * come early; returns their count. Leaves out captures of a king (a check
 * ignored by standing pat is not material), captures off square `only`
 * (unless NO_SQUARE) and side `idle`'s king and pawn captures. The order
 * changes no result, only the work: callers read the value through its window.
 */
static int order_captures(const Position *pos, Move caps[MAX_MOVES], int only, int idle)
{
    Move all[MAX_MOVES];
    int keys[MAX_MOVES];
    const int total = gen_captures(pos, all);
    int n = 0;
    for (int i = 0; i < total; i++) {
        const int to = move_to(all[i]), victim = pos->board[to], mover = pos->board[move_from(all[i])];
        if ((only != NO_SQUARE && to != only) || piece_type(victim) == KING)
            continue;
        if (pos->side == idle && (piece_type(mover) == KING || piece_type(mover) == PAWN))
            continue;
        const int key = value_of(pos, victim) * CXA_ORDER_VICTIM_WEIGHT - value_of(pos, mover);
        int j = n++;
        for (; j > 0 && keys[j - 1] < key; j--) { /* insertion: stable for equal keys */
            keys[j] = keys[j - 1];
            caps[j] = caps[j - 1];
        }
        keys[j] = key;
        caps[j] = all[i];
    }
    return n;
}

/*
 * Best material the side to move wins by legal captures (0 if it should not
 * capture), a fail-hard alpha-beta over order_captures' list. Only captures
 * on square `only` when it is not NO_SQUARE; side `idle` (or NO_SIDE)
 * captures with neither its king nor its pawns (Art. 27: their attacks
 * alone are idle).
 */
static int capture_search(Position *pos, int alpha, int beta, int depth, int only, int idle)
{
    if (depth <= 0)
        return alpha > 0 ? alpha : 0;
    if (alpha < 0)
        alpha = 0; /* standing pat: no capture at all */
    if (alpha >= beta)
        return alpha;
    Move caps[MAX_MOVES];
    LegalCtx ctx;
    bool ctx_ready = false; /* the legality data, made at the first capture that needs it */
    const int n = order_captures(pos, caps, only, idle);
    for (int i = 0; i < n; i++) {
        const int gain = value_of(pos, pos->board[move_to(caps[i])]);
        if (gain <= alpha)
            break; /* the reply's search is never below 0: no capture from here on can raise alpha */
        if (!ctx_ready) {
            legal_ctx_init(pos, &ctx);
            ctx_ready = true;
        }
        if (!legal_with_ctx(pos, &ctx, caps[i]))
            continue;
        int score = gain < beta ? gain : beta; /* depth 1: the reply can only stand pat */
        if (depth > 1) {
            pos_make(pos, caps[i]);
            score = gain - capture_search(pos, gain - beta, gain - alpha, depth - 1, only, idle);
            pos_unmake(pos);
        }
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta)
                break;
        }
    }
    return alpha;
}

static bool mates_by_checks(Position *pos, int moves); /* (below) */

/* Can the side to move mate by checks (杀)? *known caches the answer (negative: not yet asked). */
static bool threatens_mate(Position *pos, int *known)
{
    if (*known < 0)
        *known = mates_by_checks(pos, CXA_MATE_MOVES);
    return *known != 0;
}

/*
 * Would the piece on `from` (of the side not to move) take back on `to` as
 * an exchange (兑): legally, and not walking into a mate by checks that the
 * side to move did not threaten anyway (24.4: an exchange that allows mate
 * is no exchange)? *mating: see threatens_mate. pos is restored.
 */
static bool takes_back(Position *pos, int from, int to, int *mating)
{
    if (!rules_other_side_can_capture(pos, from, to))
        return false;
    const uint8_t check = pos->in_check;
    pos->side ^= 1;
    pos_make(pos, move_make(from, to));
    const bool mated = mates_by_checks(pos, CXA_MATE_MOVES);
    pos_unmake(pos);
    pos->side ^= 1;
    pos->in_check = check;
    return !mated || threatens_mate(pos, mating);
}

/* Can piece `victim` on `sq` (of the side not to move) trade itself off (兑): take back an attacker of its type? */
static bool trades_off(Position *pos, int sq, int victim, int *mating)
{
    const int type = piece_type(victim), first = side_tag(pos->side) + TYPE_FIRST[type];
    for (int p = first; p < first + TYPE_COUNT[type]; p++) {
        const int from = pos->piece_sq[p];
        if (from && move_is_pseudo_legal(pos, move_make(from, sq)) && takes_back(pos, sq, from, mating))
            return true;
    }
    return false;
}

/* Could the other side take back on the square of capture m at all, legality aside (a fake root counts)? */
static bool any_root(Position *pos, Move m)
{
    const int sq = move_to(m), them = side_tag(pos->side ^ 1);
    bool found = false;
    pos_make(pos, m);
    for (int p = them; p < them + SIDE_PIECES && !found; p++) {
        const int from = pos->piece_sq[p];
        found = from && move_is_pseudo_legal(pos, move_make(from, sq));
    }
    pos_unmake(pos);
    return found;
}

/* Can `victim` be chased at all (not the king, not an uncrossed pawn)? */
static bool chaseable(const Position *pos, int victim)
{
    const int type = piece_type(victim);
    if (type == KING)
        return false;
    return type != PAWN || GEO->half[pos->piece_sq[victim]] != piece_side(victim);
}

static int standing_threat(Position *pos); /* (below: it needs root_of) */

/*
 * The capturer's standing threat (standing_threat) at the position before
 * capture m and recapture `reply`, both now on the board: *own, computed
 * back there when first needed (negative: not yet).
 */
static int own_threat(Position *pos, Move m, Move reply, int *own)
{
    if (*own < 0) {
        pos_unmake(pos);
        pos_unmake(pos);
        *own = standing_threat(pos);
        pos_make(pos, m);
        pos_make(pos, reply);
    }
    return *own;
}

/*
 * After capture m and recapture `reply`, with the capturer to move: does it
 * win back no more than `margin`, by captures on the square (the rest of the
 * exchange), or elsewhere beyond its standing threat before the exchange
 * (*own, see own_threat) with pieces other than its king and pawns? `back`,
 * its best by any captures, bounds the second.
 */
static bool exchange_holds(Position *pos, Move m, Move reply, int margin, int back, int *own)
{
    if (capture_search(pos, 0, margin + 1, CXA_CAPTURE_DEPTH - 1, move_to(m), NO_SIDE) > margin)
        return false;
    if (back <= margin)
        return true;
    const int standing = own_threat(pos, m, reply, own);
    return capture_search(pos, 0, margin + standing + 1, CXA_CAPTURE_DEPTH - 1, NO_SQUARE, pos->side) - standing
        <= margin;
}

/*
 * After the side to move plays capture m (its capturer worth `cost`, the
 * victim `gain`), how is the victim protected? ROOT_NONE: the other side has
 * no legal recapture on the square that does not lose more than it takes
 * back (a pinned protector, or one whose recapture walks into a bigger loss,
 * is a fake root; a check the capturer's side was already giving does not
 * make one, rules_legal_despite). ROOT_OUTNUMBERED: it has, but after every
 * such recapture the capturer still wins at least the victim back, by more
 * captures on the square (more attackers than roots), or elsewhere beyond
 * what it threatened before (*own, see own_threat) with pieces other than
 * its king and pawns (an overloaded root, a line the exchange opens). With
 * `gain` 0 only the first test is made (ROOT_REAL for any root).
 */
static RootKind root_of(Position *pos, Move m, int cost, int gain, int *own)
{
    const int sq = move_to(m), capturer = pos->side, margin = cost - gain;
    const uint16_t checks = rules_checkers(pos, capturer ^ 1); /* a check already given is answered first */
    const int them = side_tag(capturer ^ 1);
    RootKind root = ROOT_NONE;
    pos_make(pos, m);
    for (int p = them; p < them + SIDE_PIECES && root != ROOT_REAL; p++) { /* the recaptures on sq */
        const Move reply = move_make(pos->piece_sq[p], sq);
        if (!pos->piece_sq[p] || !move_is_pseudo_legal(pos, reply) || !rules_legal_despite(pos, reply, checks))
            continue;
        pos_make(pos, reply);
        const int back = capture_search(pos, 0, cost + 1, CXA_CAPTURE_DEPTH - 1, NO_SQUARE, NO_SIDE);
        if (back <= cost) { /* a root: the capturer wins back no more than the recapture took */
            root = ROOT_OUTNUMBERED;
            if (gain == 0 || exchange_holds(pos, m, reply, margin, back, own))
                root = ROOT_REAL;
        }
        pos_unmake(pos);
    }
    pos_unmake(pos);
    return root;
}

/* Has capture m's victim a root at all (ROOT_REAL or ROOT_OUTNUMBERED), its capturer worth `cost`? */
static bool has_root(Position *pos, Move m, int cost)
{
    int unused = 0;
    return root_of(pos, m, cost, 0, &unused) != ROOT_NONE;
}

/* Does capture m, by the side to move, uncover a winning capture of a piece worth more than `gain` for the other
 * side, over the square it leaves (the attacker was pinned)? */
static bool uncovers_loss(Position *pos, Move m, int gain)
{
    const int vacated = move_from(m);
    Move replies[MAX_MOVES];
    bool found = false;
    pos_make(pos, m);
    const int n = gen_captures(pos, replies);
    for (int i = 0; i < n && !found; i++) {
        const Move r = replies[i];
        const int from = move_from(r), to = move_to(r);
        const int capturer = pos->board[from], target = pos->board[to];
        if (to == move_to(m) || piece_type(target) == KING
            || !rules_passes_over(piece_type(capturer), from, to, vacated) || !move_is_legal(pos, r))
            continue;
        const int cost = value_of(pos, capturer), worth = value_of(pos, target);
        found = worth > gain && (worth > cost || !has_root(pos, r, cost));
    }
    pos_unmake(pos);
    return found;
}

/* The most the side to move threatens to win by one capture: the victim's value, less the capturer's if the
 * victim has a real root. */
static int standing_threat(Position *pos)
{
    Move caps[MAX_MOVES];
    const int n = gen_captures(pos, caps);
    int best = 0;
    for (int i = 0; i < n; i++) {
        const int attacker = pos->board[move_from(caps[i])], victim = pos->board[move_to(caps[i])];
        if (piece_type(victim) == KING || value_of(pos, victim) <= best || !move_is_legal(pos, caps[i]))
            continue; /* (a capture wins at most its victim) */
        const int cost = value_of(pos, attacker);
        const int win = value_of(pos, victim) - (has_root(pos, caps[i], cost) ? cost : 0);
        if (win > best)
            best = win;
    }
    return best;
}

/*
 * Is legal capture m of `victim` by `attacker` a chase pair: a victim
 * without a real root, or worth more than the attacker, and an attacker not
 * pinned (its capture must not uncover a winning capture of a more valuable
 * piece through the square it leaves: CXA 图23, the pinned cannon's attacks
 * are idle; 参考图27, a cannon screening a rook still chases a rook)? *joint:
 * the victim's root is only outnumbered (*own: see own_threat).
 */
static bool capture_attacks(Position *pos, Move m, int attacker, int victim, int *own, bool *joint)
{
    const int cost = value_of(pos, attacker);
    const int gain = value_of(pos, victim);
    const RootKind root = gain > cost ? ROOT_NONE : root_of(pos, m, cost, gain, own);
    *joint = root == ROOT_OUTNUMBERED;
    return root != ROOT_REAL && !uncovers_loss(pos, m, gain);
}

/*
 * Does legal capture m of `victim` win material: is the victim worth more
 * than what the other side then wins back by its best captures, beyond what
 * it could win anyway (`standing`: its best captures if the side to move
 * passed)? A counter-capture the other side has whatever we do does not
 * make our capture unreal; one that our capture allows does (图12). A
 * capture that gives check gets no allowance: the other side's reply answers
 * the check, whatever it takes is a consequence of the capture (图9).
 */
static bool capture_wins(Position *pos, Move m, int victim, int standing)
{
    const int gain = value_of(pos, victim);
    pos_make(pos, m);
    if (pos->in_check)
        standing = 0;
    const int back = capture_search(pos, 0, gain + standing, CXA_CAPTURE_DEPTH, NO_SQUARE, NO_SIDE);
    pos_unmake(pos);
    return gain - back + standing > 0;
}

/*
 * Can move m possibly give check to the king on `king`? A cheap geometric
 * filter, never false for a checking move: a check comes from a line (rook,
 * cannon, flying king; the moved piece, a piece it uncovers or a cannon it
 * screens for all share the king's rank or file with `from` or `to`), from a
 * horse or pawn within two files and ranks of the king, or by a horse whose
 * leg `from` was (a square diagonally next to the king).
 */
static bool may_check(int king, Move m)
{
    const int from = move_from(m), to = move_to(m);
    if (sq_file(from) == sq_file(king) || sq_rank(from) == sq_rank(king) || sq_file(to) == sq_file(king)
        || sq_rank(to) == sq_rank(king))
        return true;
    const int tf = abs(sq_file(to) - sq_file(king)), tr = abs(sq_rank(to) - sq_rank(king));
    const int ff = abs(sq_file(from) - sq_file(king)), fr = abs(sq_rank(from) - sq_rank(king));
    return (tf <= 2 && tr <= 2) || (ff <= 1 && fr <= 1);
}

/* Has the side to move a legal move? */
static bool has_legal_move(Position *pos)
{
    Move list[MAX_MOVES];
    LegalCtx ctx;
    const int n = gen_moves(pos, list);
    legal_ctx_init(pos, &ctx);
    for (int i = 0; i < n; i++)
        if (legal_with_ctx(pos, &ctx, list[i]))
            return true;
    return false;
}

/* Can the side to move mate by checks within `moves` moves? */
static bool mates_by_checks(Position *pos, int moves)
{
    Move list[MAX_MOVES], replies[MAX_MOVES];
    const int king = pos_king_sq(pos, pos->side ^ 1);
    const int n = gen_moves(pos, list);
    for (int i = 0; i < n; i++) {
        const int target = pos->board[move_to(list[i])];
        if ((target != EMPTY && piece_type(target) == KING) || !may_check(king, list[i])
            || !move_gives_check(pos, list[i]) || !move_is_legal(pos, list[i]))
            continue; /* (a king en prise is not mate: only a side just checked by us leaves one) */
        pos_make(pos, list[i]);
        if (moves <= 1) { /* mate now or never */
            const bool mate = !has_legal_move(pos);
            pos_unmake(pos);
            if (mate)
                return true;
            continue;
        }
        const int r = gen_legal(pos, replies);
        bool mate = r == 0;
        for (int j = 0; !mate && j <= r; j++) {
            if (j == r) {
                mate = true; /* every reply loses to a further mate by checks */
                break;
            }
            pos_make(pos, replies[j]);
            const bool still = mates_by_checks(pos, moves - 1);
            pos_unmake(pos);
            if (!still)
                break;
        }
        pos_unmake(pos);
        if (mate)
            return true;
    }
    return false;
}

/*
 * Least material the side to move wins, whatever the reply, by a quiet
 * check and the captures that follow it (by any piece: the checker in a
 * fork, a skewer or 卧槽, the piece whose move uncovered the check, or a
 * third piece taking what the check drove a root from or forced in
 * between): the best such check's value (the reply's own capture
 * deducted), CXA_MATED if a check mates; `floor` (at least 0) if no check
 * wins more than `floor` (a fail-hard bound: the caller needs only more).
 * With `sacrifices` left, a reply that takes the checking piece is met by
 * the best such check again (a sacrificial check: the piece is given up to
 * draw the taker onto its square, and the next check wins), the piece's
 * value deducted.
 */
static int check_gain(Position *pos, int sacrifices, int floor)
{
    Move list[MAX_MOVES], replies[MAX_MOVES];
    const int king = pos_king_sq(pos, pos->side ^ 1);
    const int n = gen_moves(pos, list);
    int best = floor > 0 ? floor : 0;
    for (int i = 0; i < n && best < CXA_MATED; i++) {
        const int to = move_to(list[i]);
        if (pos->board[to] != EMPTY || !may_check(king, list[i]) || !move_gives_check(pos, list[i])
            || !move_is_legal(pos, list[i]))
            continue;
        pos_make(pos, list[i]);
        const int r = gen_legal(pos, replies);
        int worst = CXA_MATED; /* no reply: mate */
        for (int j = 0; j < r && worst > best; j++) {
            const int victim = pos->board[move_to(replies[j])];
            const int lost = victim == EMPTY ? 0 : value_of(pos, victim);
            const bool taken = move_to(replies[j]) == to;
            pos_make(pos, replies[j]);
            /* what its captures win then, by any piece: the checker, the piece that moved or a third one
             * (the check drove a root away or forced a block); bounded by what is already decided */
            int v = capture_search(pos, best + lost, worst + lost, CXA_CAPTURE_DEPTH, NO_SQUARE, NO_SIDE) - lost;
            if (taken && sacrifices > 0) { /* or, the checker taken, a sacrifice that the next check exploits */
                const int next = check_gain(pos, sacrifices - 1, (v > best ? v : best) + lost);
                if (next >= CXA_MATED || next - lost > v)
                    v = next >= CXA_MATED ? CXA_MATED : next - lost;
            }
            pos_unmake(pos);
            if (v < worst)
                worst = v;
        }
        pos_unmake(pos);
        if (worst > best)
            best = worst;
    }
    return best;
}

/*
 * Does the side to move threaten to win material by a combination (CXA 捉:
 * "including by continuous checks"): a quiet check after which, whatever
 * the reply, its captures win at least CXA_COMBO_MIN (a horse's worth),
 * more than its best captures at once win (those are chase pairs or idle
 * attacks, tested apart)? A check that mates is a mate threat instead (杀).
 */
static bool wins_by_checks(Position *pos)
{
    const int now = capture_search(pos, 0, CXA_MATED, CXA_CAPTURE_DEPTH, NO_SQUARE, NO_SIDE);
    const int floor = now > CXA_COMBO_MIN - 1 ? now : CXA_COMBO_MIN - 1;
    const int combo = check_gain(pos, CXA_SACRIFICES, floor);
    return combo > floor && combo < CXA_MATED;
}

/* Does the side not to move threaten mate (杀), the side to move passing? pos is restored. */
static bool other_threatens_mate(Position *pos)
{
    const uint8_t side = pos->side, check = pos->in_check;
    pos->side ^= 1;
    pos->in_check = side_in_check(pos, pos->side);
    const bool mate = !pos->in_check && mates_by_checks(pos, CXA_MATE_MOVES);
    pos->side = side;
    pos->in_check = check;
    return mate;
}

/*
 * Does piece `id` of the side to move stand on a key defensive point (Art.
 * 27, 要点): lifted off the board, would its king be attacked, or the other
 * side threaten mate? pos is restored.
 */
static bool holds_key_point(Position *pos, int id)
{
    const int sq = pos->piece_sq[id];
    pos->board[sq] = EMPTY;
    pos->piece_sq[id] = 0;
    const bool key = side_in_check(pos, pos->side) || other_threatens_mate(pos);
    pos->board[sq] = (uint8_t)id;
    pos->piece_sq[id] = (uint8_t)sq;
    return key;
}

/*
 * Art. 27: incidental attacks on an advisor or elephant by a piece that
 * occupies a key defensive point giving an immediate simple draw are idle.
 * Drops from out (the side to move threatening no mate and no combination:
 * it only holds) the pairs on an advisor or elephant whose attacker holds a
 * key point (holds_key_point), when the other side, with it in place,
 * threatens no mate (the point holds the draw).
 */
static void drop_key_point_pairs(Position *pos, RulesThreats *out)
{
    const int us = side_tag(pos->side), them = side_tag(pos->side ^ 1);
    int held = -1; /* the other side threatens no mate as things stand: computed when first needed */
    for (int v = 0; v < SIDE_PIECES; v++) {
        const int type = piece_type(them + v);
        if (!out->by[v] || (type != ADVISOR && type != ELEPHANT))
            continue;
        if (held < 0)
            held = !other_threatens_mate(pos);
        if (!held)
            return;
        for (int a = 0; a < SIDE_PIECES; a++) {
            const uint16_t keep = (uint16_t) ~(1u << a);
            if ((out->by[v] & ~keep) && holds_key_point(pos, us + a)) {
                out->by[v] &= keep;
                out->real[v] &= keep;
                out->joint[v] &= keep;
                out->rooted[v] &= keep;
            }
        }
    }
}

/* Fills what `side` threatens in pos as if it were to move. */
void rules_cxa_threats(Position *pos, int side, RulesThreats *out)
{
    memset(out, 0, sizeof *out);
    const uint8_t saved_side = pos->side, saved_check = pos->in_check;
    pos->side = (uint8_t)(side ^ 1);
    pos->in_check = side_in_check(pos, side ^ 1);
    const int standing = pos->in_check ? 0 : standing_threat(pos);
    pos->side = (uint8_t)side;
    pos->in_check = side_in_check(pos, side);
    int own = -1;    /* the side's own standing threat, computed when first needed (own_threat) */
    int mating = -1; /* whether the side threatens mate, likewise (threatens_mate) */
    Move caps[MAX_MOVES];
    const int n = gen_captures(pos, caps);
    for (int i = 0; i < n; i++) {
        const Move m = caps[i];
        const int attacker = pos->board[move_from(m)], victim = pos->board[move_to(m)];
        const int ta = piece_type(attacker);
        if (ta == KING || !chaseable(pos, victim) || !move_is_legal(pos, m))
            continue;
        if (ta == piece_type(victim) && takes_back(pos, move_to(m), move_from(m), &mating))
            continue; /* 兑: an exchange offer */
        bool joint;
        if (!capture_attacks(pos, m, attacker, victim, &own, &joint))
            continue;
        if (joint && trades_off(pos, move_to(m), victim, &mating))
            continue; /* 兑: the victim may trade itself off against an attacker of its type (图21, 参考图4) */
        const bool wins = capture_wins(pos, m, victim, standing);
        if (joint && !wins)
            continue; /* a joint chase is a complete exchange: it must win after all (参考图31) */
        const uint16_t bit = (uint16_t)(1u << (attacker & 15));
        if (ta == PAWN) { /* Art. 27: idle alone, a chase in a mutual perpetual attack (rules_sets.c) */
            if (wins && !joint)
                out->pawn[victim & 15] |= bit;
            continue;
        }
        out->by[victim & 15] |= bit;
        if (joint)
            out->joint[victim & 15] |= bit;
        if (wins)
            out->real[victim & 15] |= bit;
        if (any_root(pos, m))
            out->rooted[victim & 15] |= bit;
    }
    /* No mate threat is counted for a side in check (it must answer first) or
     * giving check (the check is the stronger class of that move). */
    out->mate = !pos->in_check && !side_in_check(pos, side ^ 1) && threatens_mate(pos, &mating);
    out->combo = !pos->in_check && !side_in_check(pos, side ^ 1) && !out->mate && wins_by_checks(pos);
    if (!pos->in_check && !side_in_check(pos, side ^ 1) && !out->mate && !out->combo)
        drop_key_point_pairs(pos, out);
    pos->side = saved_side;
    pos->in_check = saved_check;
}
