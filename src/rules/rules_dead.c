/*
 * rules_dead.c - dead positions: neither side can ever give mate (or leave
 * the other without a legal move), whatever both sides play.
 *
 * Ruled dead (a draw under every rule set):
 *  - neither side has a rook, horse, cannon or pawn. Advisors and elephants
 *    never leave their own half, so they never attack the enemy king; the
 *    kings never attack each other (a move that leaves the kings facing is
 *    illegal). Nor can a side be left without a legal move: a king in its
 *    palace always has two orthogonal neighbours on different files, the
 *    enemy king covers at most one file, and its own advisors and elephants
 *    can never both stand on those squares and all be immobile;
 *  - as above, plus exactly one cannon and no other piece besides the two
 *    kings: a cannon needs a screen, and the only candidates, the kings,
 *    cannot be one (the two kings would face each other).
 * Not ruled dead: any position with a rook, a horse or a pawn, or a cannon
 * with some advisor, elephant or other cannon on the board (that piece can
 * be its screen, and helpmates exist). A pawn never becomes harmless in
 * xiangqi: it cannot move back, but once across the river it moves
 * sideways, and a pawn on the last rank still walks along the enemy's back
 * rank into the palace and checks from beside the king; a king and a pawn
 * also win against a bare king by leaving it no legal move (e.g. black Kd9,
 * red pawn c8, red king on the e-file).
 */
#include "rules.h"

/* Is the position dead (neither side can ever mate)? */
bool rules_dead_position(const Position *pos)
{
    int cannons = 0, others = 0;
    for (int side = RED; side <= BLACK; side++) {
        const int tag = side_tag(side);
        for (int t = HORSE; t <= PAWN; t++)
            for (int i = TYPE_FIRST[t]; i < TYPE_FIRST[t] + TYPE_COUNT[t]; i++) {
                if (!pos->piece_sq[tag + i])
                    continue;
                if (t != CANNON)
                    return false; /* a rook, horse or pawn can always mate with help */
                cannons++;
            }
        for (int t = ADVISOR; t <= ELEPHANT; t++)
            for (int i = TYPE_FIRST[t]; i < TYPE_FIRST[t] + TYPE_COUNT[t]; i++)
                others += pos->piece_sq[tag + i] != 0;
    }
    return cannons == 0 || (cannons == 1 && others == 0);
}
