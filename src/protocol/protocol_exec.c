/*
 * protocol_exec.c - the executor of parsed UCI-family commands, shared by
 * the UCI and UCCI front-ends (GUIs mix the two dialects' commands; what
 * differs, the front-end's Frontend says: its no-move and idle-stop answers,
 * its goodbye, what `go depth 0` means).
 *
 * While a search runs, isready and quit are answered at once, and stop/
 * ponderhit/probe too unless a deferred `go` waits (then they are meant for
 * that search, and reach the running one too, which might otherwise hold
 * that go back forever); everything else is deferred and executed, in order,
 * after the search. With `setoption batch true` (UCCI) every line waits for the search.
 */
#include "protocol_exec.h"

#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "protocol_options.h"
#include "protocol_out.h"
#include "protocol_parse.h"
#include "protocol_session.h"
#include "protocol_ucci_out.h"

enum { MS_PER_SECOND = 1000 };

/* Prints "no move" in the current dialect (a go that cannot search). */
static void print_no_move(Proto *p) { out_line(&p->out, "%s", p->fe->no_move); }

/* A clock value from the GUI in ms, clamped to [0, TM_CLOCK_MAX_MS] (a flagging GUI sends negative ones). */
static int64_t clock_ms(int64_t v) { return v < 0 ? 0 : (v > TM_CLOCK_MAX_MS ? TM_CLOCK_MAX_MS : v); }

/* Converts a UCCI clock value to milliseconds (seconds unless usemillisec), clamped like clock_ms. */
static int64_t ucci_ms(const Proto *p, int64_t v)
{
    if (p->value[OPT_USEMILLISEC])
        return clock_ms(v);
    return v > TM_CLOCK_MAX_MS / MS_PER_SECOND ? TM_CLOCK_MAX_MS : clock_ms(v * MS_PER_SECOND);
}

/* Turns GoArgs into an EngineGo for the root; bad and repeated searchmoves are dropped with a message. */
static void build_go(Proto *p, const Command *c, EngineGo *g)
{
    const GoArgs *a = &c->go;
    const Position *root = engine_root(p->engine);
    memset(g, 0, sizeof *g);
    tm_input_init(&g->time);
    if (a->depth == 0)
        g->depth = p->fe->depth0_no_search ? -1 : 1; /* UCCI depth 0: no search, nobestmove */
    else if (a->depth > 0)
        g->depth = a->depth;
    g->nodes = a->nodes > 0 ? (uint64_t)a->nodes : 0;
    g->mate = a->mate > 0 ? a->mate : 0;
    g->ponder = a->ponder;
    g->draw_offered = a->draw;
    if (a->time != ABSENT) {
        g->time.time_ms = ucci_ms(p, a->time);
        g->time.inc_ms = a->increment != ABSENT ? ucci_ms(p, a->increment) : 0;
    } else if (a->wtime != ABSENT || a->btime != ABSENT) {
        int64_t own = root->side == RED ? a->wtime : a->btime, inc = root->side == RED ? a->winc : a->binc;
        if (own != ABSENT) {
            g->time.time_ms = clock_ms(own);
            g->time.inc_ms = inc != ABSENT ? clock_ms(inc) : 0;
        }
    }
    if (a->movestogo > 0)
        g->time.movestogo = a->movestogo;
    if (a->movetime != ABSENT)
        g->time.movetime_ms = clock_ms(a->movetime);
    bool limited = g->depth != 0 || g->nodes || g->mate || tm_is_timed(&g->time);
    /* a go without any limit (UCI's bare go, UCCI's unknown modes) searches until stop */
    g->infinite = a->infinite || !limited;
    if (p->lim.max_nodes && (!g->nodes || g->nodes > p->lim.max_nodes))
        g->nodes = p->lim.max_nodes;
    /* the GUI's list may be any length: keep each legal move once (at most MAX_MOVES), say what was dropped */
    int illegal = 0, repeated = 0;
    XqError first;
    for (int i = 0; i < a->n_searchmoves && engine_position_ok(p->engine); i++) {
        Move m;
        XqError err;
        if (!engine_parse_root_move(p->engine, c->tok[a->searchmoves_at + i], &m, &err)) {
            if (illegal++ == 0)
                first = err;
        } else if (move_listed(g->searchmoves, g->n_searchmoves, m) || g->n_searchmoves >= MAX_MOVES) {
            repeated++; /* distinct legal moves never fill MAX_MOVES: the bound only guards the array */
        } else {
            g->searchmoves[g->n_searchmoves++] = m;
        }
    }
    if (illegal == 1)
        out_info_string(p, "error: searchmoves: %s (ignored)", first.msg);
    else if (illegal > 1)
        out_info_string(p, "error: searchmoves: %s and %d more ignored", first.msg, illegal - 1);
    if (repeated)
        out_info_string(p, "searchmoves: %d repeated moves ignored", repeated);
}

/* Says which words of a go line were no keyword (ignored: GUIs add their own). */
static void say_unknown_go_words(Proto *p, const Command *c)
{
    const GoArgs *a = &c->go;
    if (a->n_unknown == 1)
        out_info_string(p, "go: '%.40s' ignored (not a go keyword)", c->tok[a->unknown_at]);
    else if (a->n_unknown > 1)
        out_info_string(p, "go: '%.40s' and %d more words ignored (not go keywords)", c->tok[a->unknown_at],
                        a->n_unknown - 1);
}

/* go: starts a search (or answers "no move" when it cannot). */
static void exec_go(Proto *p, const Command *c)
{
    if (c->error[0]) {
        out_info_string(p, "error: %s", c->error);
        print_no_move(p);
        return;
    }
    say_unknown_go_words(p, c);
    if (!engine_position_ok(p->engine)) /* the search answers no move (after stop when infinite) */
        out_info_string(p, "error: go without a valid position (the last position command was refused)");
    EngineGo g;
    build_go(p, c, &g);
    if (engine_in_caller(p->engine) && (g.infinite || g.ponder)) {
        out_info_string(p, "error: %s", PROTO_ONE_THREAD_GO);
        print_no_move(p);
        return;
    }
    p->search_fe = p->fe;
    if (!engine_go(p->engine, &g)) {
        out_info_string(p, "error: cannot start the search thread");
        print_no_move(p);
    }
}

/* go perft N: divide counts of the root on the search thread (stoppable; isready is answered meanwhile). */
static void exec_perft(Proto *p, const Command *c)
{
    if (c->error[0] || !engine_position_ok(p->engine)) {
        out_info_string(p, "error: %s", c->error[0] ? c->error : "perft without a valid position");
        return;
    }
    say_unknown_go_words(p, c);
    int depth = p->lim.max_perft && c->go.perft > p->lim.max_perft ? p->lim.max_perft : c->go.perft;
    p->search_fe = p->fe;
    if (!engine_perft(p->engine, depth))
        out_info_string(p, "error: cannot start the search thread");
}

/* position / bare fen / startpos: all or nothing. */
static void exec_position(Proto *p, const Command *c)
{
    if (c->error[0]) {
        engine_invalidate_position(p->engine);
        out_info_string(p, "error: %s; no valid position until the next good one", c->error);
        return;
    }
    XqError err;
    if (!engine_set_position(p->engine, c->fen, c->tok + c->moves_at, c->n_moves, &err))
        out_info_string(p, "error: %s; no valid position until the next good one", err.msg);
}

/* probe: looks a position up in the hash and answers pophash. */
static void exec_probe(Proto *p, const Command *c)
{
    Position *pos = malloc(sizeof *pos);
    XqError err;
    TTEntry entry;
    if (c->error[0] || !pos) {
        out_info_string(p, "error: %s", c->error[0] ? c->error : "out of memory");
        out_pophash(p, false, NULL);
    } else if (!engine_build_position(c->fen, c->tok + c->moves_at, c->n_moves, pos, &err)) {
        out_info_string(p, "error: %s", err.msg);
        out_pophash(p, false, NULL);
    } else {
        out_pophash(p, engine_probe(p->engine, pos, &entry), &entry);
    }
    free(pos);
}

/* Executes a parsed command (the engine is idle unless the command is one allowed during a search). */
static void execute(Proto *p, const Command *c)
{
    Engine *e = p->engine;
    XqError err;
    switch (c->type) {
    case CMD_EMPTY: break;
    case CMD_UCI: proto_switch(p, DIALECT_UCI); break;
    case CMD_UCCI: proto_switch(p, DIALECT_UCCI); break;
    case CMD_XBOARD: proto_switch(p, DIALECT_CECP); break;
    case CMD_ISREADY: out_line(&p->out, "readyok"); break;
    case CMD_SETOPTION:
        if (c->error[0])
            out_info_string(p, "error: %s", c->error);
        else if (!opt_set(p, c->opt_name, c->opt_value))
            out_info_string(p, "unknown option '%.40s' ignored", c->opt_name);
        break;
    case CMD_NEWGAME: proto_new_game(p); break;
    case CMD_POSITION: exec_position(p, c); break;
    case CMD_BANMOVES:
        if (!engine_set_banmoves(e, c->tok + c->ban_at, c->n_ban, &err))
            out_info_string(p, "error: banmoves: %s; kept the previous bans", err.msg);
        else if (c->n_ban > e->n_banned) /* the engine keeps each move once */
            out_info_string(p, "banmoves: %d repeated moves ignored", c->n_ban - e->n_banned);
        break;
    case CMD_GO: exec_go(p, c); break;
    case CMD_PERFT: exec_perft(p, c); break;
    case CMD_PONDERHIT: engine_ponderhit(e, c->ponderhit_draw); break;
    case CMD_STOP:
        if (engine_searching(e))
            engine_stop(e);
        else if (p->fe->idle_stop)
            out_line(&p->out, "%s", p->fe->idle_stop); /* UCCI 3(6): stop when idle */
        break;
    case CMD_PROBE: exec_probe(p, c); break;
    case CMD_QUIT: proto_quit(p); break;
    case CMD_DISPLAY:
        out_board(p, engine_root(e));
        if (!engine_position_ok(e))
            out_info_string(p, "no valid position: the last valid one is shown");
        break;
    case CMD_UNKNOWN: out_info_string(p, "unknown command '%.40s' ignored", c->tok[0]); break;
    }
}

/* Is a UCI-family search running (lines other than the urgent ones wait for it)? */
bool ucix_busy(Proto *p) { return engine_searching(p->engine); }

/* Handles one UCI-family line: now, or deferred behind the running search. */
LineOutcome ucix_line(Proto *p, const char *line, const LineContext *ctx)
{
    Command c;
    protocol_parse(line, &c);
    bool is_go = c.type == CMD_GO || c.type == CMD_PERFT, now = true;
    if (engine_searching(p->engine)) {
        /* stop/ponderhit/probe are for the running search unless a later go waits: then they are for that one;
         * quit ends the session at once whatever waits (behind a search that never ends it never would) */
        bool urgent = c.type == CMD_STOP || c.type == CMD_PONDERHIT || c.type == CMD_PROBE;
        if (p->value[OPT_BATCH])
            now = false; /* batch: stdin is not read while thinking */
        else
            now = c.type == CMD_ISREADY || c.type == CMD_EMPTY || c.type == CMD_QUIT
               || (urgent && ctx->deferred_searches == 0);
        /* ...and also reach the running search: one that waits for them (infinite, ponder) or may never end
         * (go depth 60, go mate) would hold that go back forever, and this line with it */
        if (!now && !p->value[OPT_BATCH] && (c.type == CMD_STOP || c.type == CMD_PONDERHIT))
            execute(p, &c);
    }
    if (now)
        execute(p, &c);
    command_free(&c);
    return now ? LINE_DONE : is_go ? LINE_DEFER_SEARCH : LINE_DEFER;
}
