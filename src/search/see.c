/* see.c - static exchange evaluation on a scratch board. */
#include "see.h"

#include <string.h>

#include "eval/eval.h"
#include "board/attack.h"

enum { SEE_MAX_DEPTH = 32 };

enum { NO_ID = 0xff }; /* above every identity: "none found yet" for min() */

/* The lower of a best-so-far identity and pc when pc is one of the side's pieces in [first, first + count). */
static inline int min_of_kind(int best, int pc, int first, int count)
{
    return (unsigned)(pc - first) < (unsigned)count && pc < best ? pc : best;
}

/* The square of the least valuable piece of `side` attacking sq on board b (movement rules, no legality), or 0.
 * Cheapest first: pawns, advisors, elephants, horses, cannons, rooks, the king; between two pieces of one type,
 * the lower identity. */
static int least_attacker(const uint8_t *b, int side, int sq)
{
    const int tag = side_tag(side);
    int best = NO_ID, at = 0;
    /* Pawns: in front of sq seen from the side, or beside it once crossed. */
    const int pawn0 = tag + TYPE_FIRST[PAWN], pawns = TYPE_COUNT[PAWN];
    const int ahead = sq - pawn_forward(side);
    best = min_of_kind(best, b[ahead], pawn0, pawns);
    if (best != NO_ID)
        at = ahead;
    if (GEO->half[sq] != side) {
        static const int SIDEWAYS[2] = { EAST, WEST };
        for (int d = 0; d < 2; d++) {
            const int pc = min_of_kind(best, b[sq + SIDEWAYS[d]], pawn0, pawns);
            if (pc != best) {
                best = pc;
                at = sq + SIDEWAYS[d];
            }
        }
    }
    if (at)
        return at;
    /* Advisors, inside the palace. */
    if (GEO->palace[sq]) {
        for (int d = 0; d < 4; d++) {
            const int s = sq + ADVISOR_DELTA[d], pc = min_of_kind(best, b[s], tag + TYPE_FIRST[ADVISOR], 2);
            if (pc != best) {
                best = pc;
                at = s;
            }
        }
        if (at)
            return at;
    }
    /* Elephants, on their own half, the eye between empty. */
    if (GEO->half[sq] == side) {
        for (int d = 0; d < 4; d++) {
            const int s = sq + 2 * ADVISOR_DELTA[d];
            if (b[sq + ADVISOR_DELTA[d]] != EMPTY)
                continue;
            const int pc = min_of_kind(best, b[s], tag + TYPE_FIRST[ELEPHANT], 2);
            if (pc != best) {
                best = pc;
                at = s;
            }
        }
        if (at)
            return at;
    }
    /* Horses: the leg of a horse attacking sq is a diagonal neighbour of sq. */
    for (int d = 0; d < 4; d++) {
        const int leg = sq + ADVISOR_DELTA[d];
        if (b[leg] != EMPTY)
            continue;
        const int s1 = leg + DIAG_VERT[d], s2 = leg + DIAG_HORIZ[d];
        int pc = min_of_kind(best, b[s1], tag + TYPE_FIRST[HORSE], 2);
        if (pc != best) {
            best = pc;
            at = s1;
        }
        pc = min_of_kind(best, b[s2], tag + TYPE_FIRST[HORSE], 2);
        if (pc != best) {
            best = pc;
            at = s2;
        }
    }
    if (at)
        return at;
    /* Cannons (over one screen) before rooks (nothing between), along the four lines. */
    int rook = NO_ID, rook_at = 0;
    for (int d = 0; d < 4; d++) {
        const int delta = KING_DELTA[d];
        int s = sq + delta;
        while (b[s] == EMPTY)
            s += delta;
        if (b[s] == OFF_BOARD)
            continue;
        const int r = min_of_kind(rook, b[s], tag + TYPE_FIRST[ROOK], 2);
        if (r != rook) {
            rook = r;
            rook_at = s;
        }
        s += delta;
        while (b[s] == EMPTY)
            s += delta;
        const int pc = min_of_kind(best, b[s], tag + TYPE_FIRST[CANNON], 2);
        if (pc != best) {
            best = pc;
            at = s;
        }
    }
    if (at)
        return at;
    if (rook_at)
        return rook_at;
    /* The king, one step inside the palace. */
    if (GEO->palace[sq])
        for (int d = 0; d < 4; d++)
            if (b[sq + KING_DELTA[d]] == tag)
                return sq + KING_DELTA[d];
    return 0;
}

/* Scratch board of one exchange on a square: whose turn it is, the piece standing there, how many captures. */
typedef struct Exchange {
    uint8_t b[BOARD_SIZE];
    int to, side, mover, depth;
    bool ended; /* a king was captured: nothing follows */
} Exchange;

/* Plays move m on the scratch board; returns the value of what it captured (0 for a quiet move). */
static int exchange_start(Exchange *x, const Position *pos, Move m)
{
    memcpy(x->b, pos->board, sizeof x->b);
    const int from = move_from(m), to = move_to(m);
    const int victim = x->b[to];
    x->to = to;
    x->side = pos->side;
    x->mover = x->b[from];
    x->depth = 0;
    x->ended = false;
    x->b[to] = (uint8_t)x->mover;
    x->b[from] = EMPTY;
    return victim ? eval_piece_value(victim) : 0;
}

/* The other side recaptures with its least valuable attacker: false if it has none (or the exchange is over),
 * else *captured gets the value of the piece taken. */
static bool exchange_next(Exchange *x, int *captured)
{
    x->side ^= 1;
    const int at = x->ended ? 0 : least_attacker(x->b, x->side, x->to);
    if (!at || x->depth + 1 >= SEE_MAX_DEPTH)
        return false;
    x->depth++;
    *captured = eval_piece_value(x->mover);
    if (piece_type(x->mover) == KING) {
        x->ended = true; /* capturing a king ends everything; treat as a win for the capturer */
        return true;
    }
    x->mover = x->b[at];
    x->b[x->to] = (uint8_t)x->mover;
    x->b[at] = EMPTY;
    return true;
}

/* Swap-off value of move m for the side to move. */
int see(const Position *pos, Move m)
{
    Exchange x;
    int gain[SEE_MAX_DEPTH], captured;
    int d = 0;
    gain[0] = exchange_start(&x, pos, m);
    while (exchange_next(&x, &captured)) {
        d++;
        gain[d] = captured - gain[d - 1];
    }
    while (d > 0) {
        int alt = -gain[d];
        if (alt < gain[d - 1])
            gain[d - 1] = alt;
        d--;
    }
    return gain[0];
}

/* Is see(pos, m) >= threshold? Each side in turn stops the exchange as soon as stopping decides the question
 * its way, so most answers need one or two recaptures instead of the whole sequence. */
bool see_ge(const Position *pos, Move m, int threshold)
{
    Exchange x;
    int balance = exchange_start(&x, pos, m), captured; /* material won so far, the mover's view */
    bool mover_decides = false;                          /* after the move the opponent chooses */
    for (;;) {
        if (mover_decides ? balance >= threshold : balance < threshold)
            return mover_decides; /* standing pat wins for the side to decide */
        if (!exchange_next(&x, &captured))
            return !mover_decides; /* it must stand pat, and that loses for it */
        balance += mover_decides ? captured : -captured;
        mover_decides = !mover_decides;
    }
}
