/*
 * adjudicate.c - game-end rules for the match runner: the engine's own rules
 * module (src/rules/rules.h: no legal move first, so a mate on the 120th quiet ply
 * is a mate; then the third occurrence of a position; then the 60-move
 * limit) and, last, the runner's length cap; then, with -tb DIR, the
 * loaded tablebases.
 */
#include "adjudicate.h"

#include <stdio.h>


static const char *const REASON_NAMES[END_REASONS] = {
    "none", "mate", "stalemate", "perpetual", "repetition", "60-move rule", "dead position", "max length",
    "illegal move", "crash", "hang", "time forfeit", "no move", "resign", "adjudicated loss",
    "adjudicated draw", "draw agreed", "start failure", "tablebase",
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

/* Decides whether the game is over: the rules module first, then the length cap. */
bool adjudicate_position(Position *pos, int max_plies, const RuleSet *rules, Verdict *v)
{
    RulesReport rep;
    RulesVerdict rv = rules_game_status(pos, rules, &rep);
    v->result = RESULT_NONE;
    v->reason = END_NONE;
    v->text[0] = '\0';
    if (rv != RULES_ONGOING) {
        v->result = rv == RULES_DRAW ? RESULT_DRAW : rv == RULES_RED_LOSES ? RESULT_BLACK_WINS : RESULT_RED_WINS;
        const char *loser = rv == RULES_RED_LOSES ? "red" : "black";
        switch (rep.reason) {
        case REASON_NO_LEGAL_MOVE:
            v->reason = pos->in_check ? END_MATE : END_STALEMATE;
            snprintf(v->text, sizeof v->text, "%s %s", loser, pos->in_check ? "is checkmated" : "has no legal move");
            break;
        case REASON_PERPETUAL_CHECK:
        case REASON_PERPETUAL_CHASE:
        case REASON_PERPETUAL_THREAT:
        case REASON_PERPETUAL_ATTACK:
            v->reason = END_PERPETUAL;
            snprintf(v->text, sizeof v->text, "%s loses by perpetual %s (%s rules)", loser,
                     rep.reason == REASON_PERPETUAL_CHECK    ? "check"
                     : rep.reason == REASON_PERPETUAL_CHASE  ? "chase"
                     : rep.reason == REASON_PERPETUAL_THREAT ? "mate threat"
                                                             : "attack",
                     rules->name);
            break;
        case REASON_DEAD_POSITION:
            v->reason = END_DEAD;
            snprintf(v->text, sizeof v->text, "dead position: neither side can mate");
            break;
        case REASON_QUIET_LIMIT:
            v->reason = END_RULE60;
            snprintf(v->text, sizeof v->text, "60-move rule (%d counted plies without capture)", rep.quiet_plies);
            break;
        default:
            v->reason = END_REPETITION;
            snprintf(v->text, sizeof v->text, "threefold repetition, draw (%s)",
                     rep.reason == REASON_MUTUAL_CHECK ? "mutual perpetual check"
                     : rep.reason == REASON_MUTUAL_CHASE ? "mutual perpetual attack" : "no forbidden attack");
            break;
        }
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

/* Decides the game by a loaded table's value: a draw, or a win whose mate comes before the quiet-move limit. */
bool adjudicate_tablebase(const Position *pos, const TbSet *tb, const RuleSet *rules, Verdict *v)
{
    TbValue tv;
    if (!tb || !tb_probe_loaded(tb, pos, &tv))
        return false;
    if (tv.wdl != TB_DRAW && rules->quiet_limit > 0 && rules_quiet_plies(pos, rules) + tv.dtm > rules->quiet_limit)
        return false; /* the table's mate is too far: the quiet-move limit may draw first */
    char name[TB_SIG_TEXT];
    TbSig sig = tb_sig_of_pos(pos);
    tb_sig_name(&sig, name, sizeof name);
    v->reason = END_TABLEBASE;
    if (tv.wdl == TB_DRAW) {
        v->result = RESULT_DRAW;
        snprintf(v->text, sizeof v->text, "tablebase %s: draw", name);
        return true;
    }
    int winner = tv.wdl == TB_WIN ? pos->side : !pos->side;
    v->result = result_loss_for(!winner);
    snprintf(v->text, sizeof v->text, "tablebase %s: %s mates in %d plies", name, winner == RED ? "red" : "black",
             tv.dtm);
    return true;
}
