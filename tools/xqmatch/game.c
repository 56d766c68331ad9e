/*
 * game.c - the game loop: starts both engines, feeds them positions with
 * the runner's own clocks, checks every move with xqcore, and rules the
 * game with adjudicate.c or on the engines' failures.
 */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "board/movegen.h"
#include "base/platform.h"

static const char *const SIDE_NAME[2] = { "red", "black" };

/* State of a game in progress. */
typedef struct GameState {
    const GameSetup *setup;
    GameRecord *rec;
    Position pos;
    Engine eng[2];
    bool started[2];
    char irrev_fen[FEN_MAX];
    int irrev_index;
    int64_t clock[2];       /* remaining ms (TC_CLOCK) */
    int moves_made[2];      /* moves by each side (periods) */
    int win_run[2], lose_run[2], draw_run[2]; /* score adjudication streaks */
    bool offer[2];          /* UCCI: this side offered a draw with its last move (for the other's next go) */
} GameState;

/* Plays a checked move on the board and records it. */
static void game_push(GameState *g, Move m)
{
    char text[MOVE_TEXT];
    pos_make(&g->pos, m);
    move_to_text(m, text);
    snprintf(g->rec->moves[g->rec->count], MOVE_TEXT_MAX, "%s", text);
    g->rec->count++;
    if (g->pos.hist[g->pos.ply - 1].captured != EMPTY) {
        pos_to_fen(&g->pos, g->irrev_fen, sizeof g->irrev_fen);
        g->irrev_index = g->rec->count;
    }
}

/* Appends src to the string in out (size bytes), truncating quietly. */
static void text_append(char *out, size_t size, const char *src)
{
    size_t len = strlen(out);
    size_t n = strlen(src);
    if (len + 1 >= size)
        return;
    if (n > size - 1 - len)
        n = size - 1 - len;
    memcpy(out + len, src, n);
    out[len + n] = '\0';
}

/* Ends the game with a loss for `side`; the text is "<side> (<name>) <what><detail>". */
static void game_lose(GameState *g, int side, EndReason reason, const char *what, const char *detail)
{
    Verdict *v = &g->rec->verdict;
    v->result = result_loss_for(side);
    v->reason = reason;
    v->text[0] = '\0';
    text_append(v->text, sizeof v->text, SIDE_NAME[side]);
    text_append(v->text, sizeof v->text, " (");
    text_append(v->text, sizeof v->text, g->rec->names[side]);
    text_append(v->text, sizeof v->text, ") ");
    text_append(v->text, sizeof v->text, what);
    if (detail)
        text_append(v->text, sizeof v->text, detail);
}

/* Checks an opening. */
bool game_check_opening(const char *fen, const char (*moves)[MOVE_TEXT_MAX], int count, char *msg, size_t msg_size)
{
    Position *pos = malloc(sizeof *pos);
    XqError err;
    bool ok = pos && pos_from_fen(pos, fen, &err);
    if (!pos)
        snprintf(msg, msg_size, "out of memory");
    else if (!ok)
        snprintf(msg, msg_size, "bad FEN '%s': %s", fen, err.msg);
    for (int i = 0; ok && i < count; i++) {
        Move m;
        if (!move_parse_legal(pos, moves[i], &m, &err)) {
            snprintf(msg, msg_size, "opening move %d: %s", i + 1, err.msg);
            ok = false;
        } else {
            pos_make(pos, m);
        }
    }
    if (ok && count_legal(pos) == 0) {
        snprintf(msg, msg_size, "opening ends in a position without legal moves");
        ok = false;
    }
    free(pos);
    return ok;
}

/* Starts both engines; false (with the verdict set) if one fails. */
static bool game_start_engines(GameState *g)
{
    const GameSetup *s = g->setup;
    char msg[256];
    for (int side = RED; side <= BLACK; side++) {
        if (!engine_start(&g->eng[side], s->engine[side], s->log, s->init_timeout_ms, msg, sizeof msg) ||
            !engine_new_game(&g->eng[side], s->init_timeout_ms, msg, sizeof msg)) {
            g->started[side] = true;
            game_lose(g, side, END_START_FAILURE, "failed to start: ", msg);
            return false;
        }
        g->started[side] = true;
    }
    return true;
}

/* Fills the go parameters and the reply deadline for the side to move. */
static int64_t game_go_params(const GameState *g, GoParams *go)
{
    const TimeControl *tc = g->setup->tc;
    int side = g->pos.side;
    memset(go, 0, sizeof *go);
    go->side = side;
    int64_t now = now_ms();
    switch (tc->kind) {
    case TC_DEPTH:
        go->kind = GO_DEPTH;
        go->depth = tc->depth;
        return now + tc->hang_ms;
    case TC_NODES:
        go->kind = GO_NODES;
        go->nodes = tc->nodes;
        return now + tc->hang_ms;
    case TC_MOVETIME:
        go->kind = GO_MOVETIME;
        go->movetime = tc->movetime_ms;
        return now + tc->movetime_ms + tc->margin_ms;
    case TC_CLOCK:
        break;
    }
    go->kind = GO_CLOCK;
    go->own_ms = g->clock[side];
    go->opp_ms = g->clock[!side];
    go->own_inc = go->opp_inc = tc->inc_ms;
    if (tc->moves_per_period > 0) {
        go->movestogo = tc->moves_per_period - g->moves_made[side] % tc->moves_per_period;
        go->opp_movestogo = tc->moves_per_period - g->moves_made[!side] % tc->moves_per_period;
    }
    return now + g->clock[side] + tc->margin_ms;
}

/* Charges the mover's clock; false if the move came too late. */
static bool game_charge_clock(GameState *g, int side, int64_t elapsed)
{
    const TimeControl *tc = g->setup->tc;
    g->rec->time_used_ms[side] += elapsed;
    g->moves_made[side]++;
    if (tc->kind == TC_MOVETIME)
        return elapsed <= tc->movetime_ms + tc->margin_ms;
    if (tc->kind != TC_CLOCK)
        return true;
    if (elapsed > g->clock[side] + tc->margin_ms)
        return false;
    g->clock[side] -= elapsed;
    if (g->clock[side] < 0)
        g->clock[side] = 0;
    g->clock[side] += tc->inc_ms;
    if (tc->moves_per_period > 0 && g->moves_made[side] % tc->moves_per_period == 0)
        g->clock[side] += tc->base_ms;
    return true;
}

/* Updates the score streaks after `side` reported `score`; true if the game is adjudicated. */
static bool game_score_adjudication(GameState *g, int side, const EngineReply *r)
{
    const AdjudicationConfig *adj = g->setup->adj;
    if (!r->has_score) {
        g->win_run[side] = g->lose_run[side] = g->draw_run[side] = 0;
        return false;
    }
    int sc = r->score;
    g->win_run[side] = adj->resign_moves > 0 && sc >= adj->resign_score ? g->win_run[side] + 1 : 0;
    g->lose_run[side] = adj->resign_moves > 0 && sc <= -adj->resign_score ? g->lose_run[side] + 1 : 0;
    int movenumber = g->pos.fullmove;
    bool drawish = adj->draw_moves > 0 && movenumber >= adj->draw_movenumber && abs(sc) <= adj->draw_score;
    g->draw_run[side] = drawish ? g->draw_run[side] + 1 : 0;
    if (adj->resign_moves > 0) {
        for (int s = RED; s <= BLACK; s++) {
            if (g->lose_run[s] >= adj->resign_moves && g->win_run[!s] >= adj->resign_moves) {
                char why[64];
                snprintf(why, sizeof why, "%d cp", adj->resign_score);
                game_lose(g, s, END_ADJ_RESIGN, "lost by adjudication: both engines' scores beyond ", why);
                return true;
            }
        }
    }
    if (adj->draw_moves > 0 && g->draw_run[RED] >= adj->draw_moves && g->draw_run[BLACK] >= adj->draw_moves) {
        Verdict *v = &g->rec->verdict;
        v->result = RESULT_DRAW;
        v->reason = END_ADJ_DRAW;
        snprintf(v->text, sizeof v->text, "draw by adjudication: both scores within %d cp for %d moves",
                 adj->draw_score, adj->draw_moves);
        return true;
    }
    return false;
}

/* Asks the side to move for a move and plays it; false when the game is over. */
static bool game_step(GameState *g)
{
    int side = g->pos.side;
    GoParams go;
    int64_t deadline = game_go_params(g, &go);
    go.draw_offered = g->offer[!side];
    g->offer[!side] = false; /* an offer stands for one reply only */
    const char (*moves)[MOVE_TEXT_MAX] = (const char (*)[MOVE_TEXT_MAX])g->rec->moves;
    GameMoves gm = { g->rec->start_fen, g->irrev_fen, g->irrev_index, g->rec->count, moves };
    EngineReply r;
    engine_think(&g->eng[side], &gm, &go, deadline, &r);
    switch (r.kind) {
    case REPLY_TIMEOUT:
        if (g->setup->tc->kind == TC_CLOCK || g->setup->tc->kind == TC_MOVETIME)
            game_lose(g, side, END_TIME, "lost on time: ", r.detail);
        else
            game_lose(g, side, END_HANG, "hung: ", r.detail);
        return false;
    case REPLY_CRASH:
        game_lose(g, side, END_CRASH, "crashed: ", r.detail);
        return false;
    case REPLY_NOMOVE:
        /* UCCI: `nobestmove` with legal moves on the board is a resignation (as the xqbase league rules it). */
        if (g->eng[side].cfg->proto == PROTO_UCCI)
            game_lose(g, side, END_RESIGN, "resigned (nobestmove)", NULL);
        else
            game_lose(g, side, END_NO_MOVE, "returned no move although it has legal moves", NULL);
        return false;
    case REPLY_MOVE:
        break;
    }
    if (!game_charge_clock(g, side, r.elapsed_ms)) {
        char why[64];
        snprintf(why, sizeof why, "%lld ms used", (long long)r.elapsed_ms);
        game_lose(g, side, END_TIME, "lost on time: ", why);
        return false;
    }
    if (r.resign) {
        game_lose(g, side, END_RESIGN, "resigned", NULL);
        return false;
    }
    if (r.draw_offer && go.draw_offered) { /* UCCI: "bestmove ... draw" answering "go draw" accepts */
        Verdict *v = &g->rec->verdict;
        v->result = RESULT_DRAW;
        v->reason = END_DRAW_AGREED;
        snprintf(v->text, sizeof v->text, "draw agreed: %s accepted the offer", SIDE_NAME[side]);
        return false;
    }
    Move m;
    XqError err;
    if (!move_parse_legal(&g->pos, r.move, &m, &err)) {
        char why[96];
        snprintf(why, sizeof why, "'%.20s' (%.60s)", r.raw, err.msg);
        game_lose(g, side, END_ILLEGAL_MOVE, "played an illegal move ", why);
        return false;
    }
    game_push(g, m);
    /* Otherwise "draw" offers a draw, or claims one the move reaches: a rule
     * draw ends the game at the next adjudication anyway; an offer goes to
     * the opponent with its next go (UCCI engines only). */
    g->offer[side] = r.draw_offer;
    return !game_score_adjudication(g, side, &r);
}

/* Plays one game. */
void game_play(const GameSetup *setup, GameRecord *rec)
{
    GameState *g = calloc(1, sizeof *g);
    memset(rec, 0, sizeof *rec);
    for (int s = RED; s <= BLACK; s++)
        snprintf(rec->names[s], sizeof rec->names[s], "%s", setup->engine[s]->name);
    if (!g) {
        rec->verdict.result = RESULT_NONE;
        snprintf(rec->verdict.text, sizeof rec->verdict.text, "out of memory");
        return;
    }
    g->setup = setup;
    g->rec = rec;
    XqError err;
    if (!pos_from_fen(&g->pos, setup->fen, &err)) {
        snprintf(rec->verdict.text, sizeof rec->verdict.text, "bad FEN: %.140s", err.msg);
        free(g);
        return;
    }
    pos_to_fen(&g->pos, rec->start_fen, sizeof rec->start_fen);
    if (strcmp(setup->fen, START_FEN) == 0)
        snprintf(rec->start_fen, sizeof rec->start_fen, "%s", START_FEN);
    snprintf(g->irrev_fen, sizeof g->irrev_fen, "%s", rec->start_fen);
    for (int i = 0; i < setup->open_count; i++) {
        Move m;
        if (!move_parse_legal(&g->pos, setup->open_moves[i], &m, &err)) {
            snprintf(rec->verdict.text, sizeof rec->verdict.text, "bad opening: %.140s", err.msg);
            free(g);
            return;
        }
        game_push(g, m);
    }
    rec->open_count = rec->count;
    g->clock[RED] = g->clock[BLACK] = setup->tc->base_ms;
    int max_plies = setup->adj->max_plies > 0 && setup->adj->max_plies < GAME_PLIES_MAX
                        ? setup->adj->max_plies : GAME_PLIES_MAX;
    if (game_start_engines(g)) {
        while (!adjudicate_position(&g->pos, max_plies, setup->adj->rules, &rec->verdict) &&
               !adjudicate_tablebase(&g->pos, setup->adj->tb, setup->adj->rules, &rec->verdict) && game_step(g))
            ;
    }
    EndReason why = rec->verdict.reason;
    bool unresponsive = why == END_HANG || why == END_TIME || why == END_CRASH || why == END_START_FAILURE;
    int culprit = rec->verdict.result == RESULT_RED_WINS ? BLACK : RED;
    for (int s = RED; s <= BLACK; s++)
        if (g->started[s])
            engine_quit(&g->eng[s], unresponsive && s == culprit);
    free(g);
}
