/*
 * adjudicate.c - game-end rules for the match runner.
 *
 * Order of tests: no legal move first (a mate on the 120th quiet ply is a
 * mate), then threefold repetition, then the 60-move rule, then the length cap.
 */
#include "adjudicate.h"

#include <stdio.h>

#include "movegen.h"

static const char *const REASON_NAMES[END_REASONS] = {
    "none", "mate", "stalemate", "perpetual", "repetition", "60-move rule", "max length",
    "illegal move", "crash", "hang", "time forfeit", "no move", "resign", "adjudicated loss",
    "adjudicated draw", "start failure",
};

/* Stable short name of a reason. */
const char *end_reason_name(EndReason r)
{
    return (unsigned)r < END_REASONS ? REASON_NAMES[r] : "?";
}

/* PGN result text. */
const char *result_pgn(GameResult r)
{
    switch (r) {
    case RESULT_RED_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

/* The result in which `side` loses. */
GameResult result_loss_for(int side)
{
    return side == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
}

/*
 * THE PLUG-IN POINT for the repetition-rules module (branch `rules`).
 *
 * Until src/rules.h lands this is an interim ruling that knows perpetual
 * check only: over the cycle, a side every one of whose moves gave check
 * loses unless the other side also checked on every move (then, as when
 * neither checks perpetually, it is a draw). Perpetual chase is NOT
 * detected yet and is ruled a draw.
 */
GameResult adjudicate_repetition(const Position *pos, int first)
{
    bool all_check[2] = { true, true };
    int moves[2] = { 0, 0 };
    /* The mover of hist[i]: the side to move now moved at ply-1, ply-3, ... */
    for (int i = first; i < pos->ply; i++) {
        int mover = ((pos->ply - 1 - i) % 2 == 0) ? !pos->side : pos->side;
        moves[mover]++;
        if (!pos->hist[i].check)
            all_check[mover] = false;
    }
    bool red = all_check[RED] && moves[RED] > 0, black = all_check[BLACK] && moves[BLACK] > 0;
    if (red && !black)
        return RESULT_BLACK_WINS;
    if (black && !red)
        return RESULT_RED_WINS;
    return RESULT_DRAW;
}

/* Finds a threefold repetition of the current position; returns the first occurrence's hist index or -1. */
static int find_threefold(const Position *pos)
{
    int seen = 1, first = -1;
    int lowest = pos->ply - pos->rule60;
    if (lowest < 0)
        lowest = 0;
    /* hist[i].key is the key before move i; same side to move every 2 plies. */
    for (int i = pos->ply - 2; i >= lowest; i -= 2) {
        if (pos->hist[i].key == pos->key) {
            seen++;
            first = i;
            if (seen >= REPETITION_COUNT)
                return first;
        }
    }
    return -1;
}

/* Decides whether the game is over. */
bool adjudicate_position(Position *pos, int max_plies, Verdict *v)
{
    const char *side = pos->side == RED ? "red" : "black";
    v->result = RESULT_NONE;
    v->reason = END_NONE;
    v->text[0] = '\0';
    if (count_legal(pos) == 0) {
        v->result = result_loss_for(pos->side);
        v->reason = pos->in_check ? END_MATE : END_STALEMATE;
        snprintf(v->text, sizeof v->text, "%s %s", side, pos->in_check ? "is checkmated" : "has no legal move");
        return true;
    }
    int first = find_threefold(pos);
    if (first >= 0) {
        v->result = adjudicate_repetition(pos, first);
        if (v->result == RESULT_DRAW) {
            v->reason = END_REPETITION;
            snprintf(v->text, sizeof v->text, "threefold repetition, draw");
        } else {
            v->reason = END_PERPETUAL;
            snprintf(v->text, sizeof v->text, "%s loses by perpetual attack",
                     v->result == RESULT_RED_WINS ? "black" : "red");
        }
        return true;
    }
    if (pos->rule60 >= RULE60_PLIES) {
        v->result = RESULT_DRAW;
        v->reason = END_RULE60;
        snprintf(v->text, sizeof v->text, "60-move rule (%d plies without capture)", RULE60_PLIES);
        return true;
    }
    if (max_plies > 0 && pos->ply >= max_plies) {
        v->result = RESULT_DRAW;
        v->reason = END_MAX_LENGTH;
        snprintf(v->text, sizeof v->text, "maximum length of %d plies reached", max_plies);
        return true;
    }
    return false;
}
