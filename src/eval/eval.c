/* eval.c - handcrafted evaluation. */
#include "eval.h"

#include "board/movegen.h"
#include "board/square.h"

enum { PHASE_MAX = 48, MAX_PAWN_IDX = SIDE_PIECES };

static const int ORTHO[4] = { NORTH, SOUTH, EAST, WEST };
static const int HORSE_JUMP[8] = { 2 * NORTH + EAST, 2 * NORTH + WEST, 2 * SOUTH + EAST, 2 * SOUTH + WEST,
                                   2 * EAST + NORTH, 2 * EAST + SOUTH, 2 * WEST + NORTH, 2 * WEST + SOUTH };
static const int HORSE_LEG_OF[8] = { NORTH, NORTH, SOUTH, SOUTH, EAST, EAST, WEST, WEST };

/* Ordering values: a pawn is worth least, the king most (it is never captured). */
static const int ORDER_VALUE[PIECE_TYPES] = { 10000, 200, 200, 400, 900, 450, 100 };

/* Material value of a piece identity for ordering and exchanges. */
int eval_piece_value(int id) { return ORDER_VALUE[piece_type(id)]; }

/* Piece-square index for a side: rank seen from that side and mirrored file. */
static inline void pst_index(int sq, int side, int *rank, int *file)
{
    int r = sq_rank(sq), f = sq_file(sq);
    *rank = side == RED ? r : RANKS - 1 - r;
    *file = f <= 4 ? f : FILES - 1 - f;
}

/* Can `side` still give mate with its material? */
bool eval_has_mating_material(const Position *pos, int side)
{
    const int tag = side_tag(side);
    for (int i = TYPE_FIRST[HORSE]; i < SIDE_PIECES; i++)
        if (pos->piece_sq[tag + i])
            return true;
    return false;
}

/* Squares a rook (or a cannon's quiet moves) reaches from sq, plus a capture for the rook. */
static int slider_mobility(const uint8_t *b, int sq, int opp_tag, bool rook)
{
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int s = sq + ORTHO[d];
        while (b[s] == EMPTY) {
            n++;
            s += ORTHO[d];
        }
        if (rook && (b[s] & opp_tag))
            n++;
    }
    return n;
}

/* Jumps a horse has (leg free, target not own). */
static int horse_mobility(const uint8_t *b, int sq, int own_tag)
{
    int n = 0;
    for (int d = 0; d < 8; d++) {
        int t = b[sq + HORSE_JUMP[d]];
        if (b[sq + HORSE_LEG_OF[d]] == EMPTY && t != OFF_BOARD && !(t & own_tag))
            n++;
    }
    return n;
}

/* Adds n times a (mg, eg) weight to a score. */
static inline void add_term(int score[2], const int w[2], int n)
{
    score[0] += w[0] * n;
    score[1] += w[1] * n;
}

/* Does `tag`'s side have a pawn on this file? */
static bool own_pawn_on_file(const Position *pos, int tag, int file)
{
    for (int i = TYPE_FIRST[PAWN]; i < SIDE_PIECES; i++) {
        int sq = pos->piece_sq[tag + i];
        if (sq && sq_file(sq) == file)
            return true;
    }
    return false;
}

/* Cannon terms against the enemy king: empty cannon, two screens (one a pinned central horse), bottom cannon. */
static void cannon_vs_king(const Position *pos, const EvalParams *p, int side, int sq, int enemy_king, int score[2])
{
    const uint8_t *b = pos->board;
    const int enemy_back = side == RED ? RANKS - 1 : 0;
    if (sq_file(sq) == sq_file(enemy_king)) {
        const int between = pieces_between(b, sq, enemy_king);
        if (between == 0) {
            add_term(score, p->empty_cannon, 1);
        } else if (between == 2) { /* one screen away from a check */
            add_term(score, p->cannon_screen_threat, 1);
            int centre = b[enemy_king - (enemy_king > sq ? NORTH : SOUTH)];
            if (sq_file(enemy_king) == 4 && sq_rank(enemy_king) == enemy_back && (centre & side_tag(side ^ 1))
                && piece_type(centre) == HORSE)
                add_term(score, p->center_horse_pinned, 1);
        }
    }
    if (sq_rank(sq) == enemy_back && sq_rank(enemy_king) == enemy_back
        && pieces_between(b, sq, enemy_king) == 0)
        add_term(score, p->bottom_cannon, 1);
}

/* Number of `side`'s pieces of a type. */
static int count_type(const Position *pos, int side, int type)
{
    const int tag = side_tag(side), last = TYPE_FIRST[type] + TYPE_COUNT[type];
    int n = 0;
    for (int i = TYPE_FIRST[type]; i < last; i++)
        n += pos->piece_sq[tag + i] != 0;
    return n;
}

/* Accumulates mg/eg for one side's pieces. */
static void eval_side(const Position *pos, const EvalParams *p, int side, int score[2], int *phase, int *attackers)
{
    const uint8_t *b = pos->board;
    const int tag = side_tag(side), opp_tag = side_tag(side ^ 1);
    const int enemy_king = pos_king_sq(pos, side ^ 1), enemy_back = side == RED ? RANKS - 1 : 0;
    int crossed_pawns = 0, wing[2] = { 0, 0 };
    for (int i = 0; i < SIDE_PIECES; i++) {
        const int sq = pos->piece_sq[tag + i];
        if (!sq)
            continue;
        const int type = ID_TYPE[i];
        int r, f;
        pst_index(sq, side, &r, &f);
        *phase += p->phase_weight[type];
        for (int ph = 0; ph < 2; ph++)
            score[ph] += p->material[type][ph] + p->pst[type][ph][r][f];
        bool crossed = GEO->half[sq] != side;
        switch (type) {
        case ROOK: {
            int m = slider_mobility(b, sq, opp_tag, true);
            score[0] += p->rook_mobility_mg[m];
            score[1] += p->rook_mobility_eg[m];
            if (!own_pawn_on_file(pos, tag, sq_file(sq)))
                add_term(score, p->rook_open_file, 1);
            break;
        }
        case HORSE: {
            int m = horse_mobility(b, sq, tag);
            score[0] += p->horse_mobility_mg[m];
            score[1] += p->horse_mobility_eg[m];
            break;
        }
        case CANNON: {
            int m = slider_mobility(b, sq, opp_tag, false);
            score[0] += p->cannon_mobility_mg[m];
            score[1] += p->cannon_mobility_eg[m];
            cannon_vs_king(pos, p, side, sq, enemy_king, score);
            break;
        }
        case PAWN: {
            crossed_pawns += crossed && sq_rank(sq) != enemy_back;
            int next = b[sq + EAST];
            if (crossed && next >= tag + TYPE_FIRST[PAWN] && next < tag + SIDE_PIECES)
                add_term(score, p->linked_pawns, 1);
            break;
        }
        default:
            break;
        }
        if (type == ROOK || type == HORSE || type == CANNON) { /* attackers, once across the river */
            *attackers += crossed;
            wing[sq_file(sq) < 4 ? 0 : 1] += crossed && sq_file(sq) != 4;
        }
    }
    add_term(score, p->crossed_pawn_missing_advisor, crossed_pawns * (2 - count_type(pos, side ^ 1, ADVISOR)));
    for (int w = 0; w < 2; w++)
        if (wing[w] > 1)
            add_term(score, p->wing_attackers, wing[w] - 1);
    if (count_type(pos, side, ADVISOR) == 2 && count_type(pos, side, ELEPHANT) == 2)
        add_term(score, p->full_defence, 1);
}

/* Material imbalance of `side`: its rooks, horses, cannons and pawns against the enemy's advisors and elephants. */
static void imbalance(const Position *pos, const EvalParams *p, int side, int score[2])
{
    static const int ATTACKER[4] = { ROOK, HORSE, CANNON, PAWN };
    const int defenders[2] = { count_type(pos, side ^ 1, ADVISOR), count_type(pos, side ^ 1, ELEPHANT) };
    for (int a = 0; a < 4; a++) {
        int n = count_type(pos, side, ATTACKER[a]);
        for (int d = 0; d < 2; d++) {
            score[0] += p->attacker_vs_defender_mg[a * 2 + d] * n * defenders[d];
            score[1] += p->attacker_vs_defender_eg[a * 2 + d] * n * defenders[d];
        }
    }
}

/* King safety of `side`: missing palace defenders weighed by enemy attackers across the river. */
static void king_safety(const Position *pos, const EvalParams *p, int side, int enemy_attackers, int score[2])
{
    const int miss_a = 2 - count_type(pos, side, ADVISOR), miss_b = 2 - count_type(pos, side, ELEPHANT);
    for (int ph = 0; ph < 2; ph++)
        score[ph] -= enemy_attackers
                   * (p->palace_attacker[ph] + p->missing_advisor[ph] * miss_a + p->missing_elephant[ph] * miss_b);
    if (enemy_attackers && sq_file(pos_king_sq(pos, side)) != 4)
        add_term(score, p->king_off_file, 1);
}

/* Evaluates pos for the side to move. */
int evaluate(const Position *pos, const EvalParams *p)
{
    int s[2][2] = { { 0, 0 }, { 0, 0 } }, phase = 0, attackers[2] = { 0, 0 };
    eval_side(pos, p, RED, s[RED], &phase, &attackers[RED]);
    eval_side(pos, p, BLACK, s[BLACK], &phase, &attackers[BLACK]);
    king_safety(pos, p, RED, attackers[BLACK], s[RED]);
    king_safety(pos, p, BLACK, attackers[RED], s[BLACK]);
    imbalance(pos, p, RED, s[RED]);
    imbalance(pos, p, BLACK, s[BLACK]);
    if (phase > PHASE_MAX)
        phase = PHASE_MAX;
    int mg = s[RED][0] - s[BLACK][0], eg = s[RED][1] - s[BLACK][1];
    int score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    /* A side that cannot mate cannot win: shrink its advantage. */
    if ((score > 0 && !eval_has_mating_material(pos, RED)) || (score < 0 && !eval_has_mating_material(pos, BLACK)))
        score /= p->no_mating_material_div;
    if (pos->side == BLACK)
        score = -score;
    return score + p->tempo;
}
