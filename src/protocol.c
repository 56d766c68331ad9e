/*
 * protocol.c - the protocol loop and the executor of parsed commands.
 *
 * Threads: the reader thread (input.c) queues lines; this thread executes
 * them; the search thread prints info/bestmove through callbacks and then
 * wakes this thread. While a search runs, isready is answered at once, and
 * stop/ponderhit/probe/quit too unless a deferred `go` waits (then they are
 * meant for that search); everything else is deferred and executed, in
 * order, after the bestmove.
 * With `setoption batch true` (UCCI) every line waits for the search.
 * End of input means quit, after a search that ends by itself has finished.
 */
#include "protocol.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "move.h"
#include "perft.h"
#include "protocol_int.h"

enum { MS_PER_SECOND = 1000 };

/* Lines waiting for the search to finish (protocol thread only). */
typedef struct Deferred {
    char **line;
    int head, count, cap;
    int gos;            /* deferred go commands: a stop/ponderhit behind one is meant for it */
} Deferred;

/* Appends a line to the deferred list (takes ownership). */
static void deferred_push(Deferred *d, char *line)
{
    if (d->head + d->count == d->cap) {
        if (d->head > 0) {
            memmove(d->line, d->line + d->head, (size_t)d->count * sizeof *d->line);
            d->head = 0;
        } else {
            int cap = d->cap ? d->cap * 2 : 16;
            char **bigger = realloc(d->line, (size_t)cap * sizeof *bigger);
            if (!bigger) {
                free(line); /* out of memory: drop rather than die */
                return;
            }
            d->line = bigger;
            d->cap = cap;
        }
    }
    d->line[d->head + d->count++] = line;
}

/* Takes the oldest deferred line. */
static char *deferred_pop(Deferred *d)
{
    d->count--;
    return d->line[d->head++];
}

/* Prints "no move" in the current dialect (a go that cannot search). */
static void print_no_move(Proto *p)
{
    out_line(&p->out, p->dialect == DIALECT_UCCI ? "nobestmove" : "bestmove (none)");
}

/* A clock value from the GUI in ms, clamped to [0, TM_CLOCK_MAX_MS] (a flagging GUI sends negative ones). */
static int64_t clock_ms(int64_t v) { return v < 0 ? 0 : (v > TM_CLOCK_MAX_MS ? TM_CLOCK_MAX_MS : v); }

/* Converts a UCCI clock value to milliseconds (seconds unless usemillisec), clamped like clock_ms. */
static int64_t ucci_ms(const Proto *p, int64_t v)
{
    if (p->value[OPT_USEMILLISEC])
        return clock_ms(v);
    return v > TM_CLOCK_MAX_MS / MS_PER_SECOND ? TM_CLOCK_MAX_MS : clock_ms(v * MS_PER_SECOND);
}

/* Is m one of the first n moves of list? */
static bool move_listed(const Move *list, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

/* Turns GoArgs into an EngineGo for the root; bad and repeated searchmoves are dropped with a message. */
static void build_go(Proto *p, const Command *c, EngineGo *g)
{
    const GoArgs *a = &c->go;
    const Position *root = engine_root(p->engine);
    memset(g, 0, sizeof *g);
    tm_input_init(&g->time);
    if (a->depth == 0)
        g->depth = p->dialect == DIALECT_UCCI ? -1 : 1; /* UCCI depth 0: no search, nobestmove */
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
        if (!move_parse_legal(p->engine->scratch, c->tok[a->searchmoves_at + i], &m, &err)) {
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

/* go: starts a search (or answers "no move" when it cannot). */
static void exec_go(Proto *p, const Command *c)
{
    if (c->error[0]) {
        out_info_string(p, "error: %s", c->error);
        print_no_move(p);
        return;
    }
    EngineGo g;
    /* searchmoves are matched on a copy of the root (move_parse_legal needs a mutable position) */
    memcpy(p->engine->scratch, engine_root(p->engine), sizeof *p->engine->scratch);
    build_go(p, c, &g);
    p->search_dialect = p->dialect;
    if (!engine_go(p->engine, &g)) {
        out_info_string(p, "error: cannot start the search thread");
        print_no_move(p);
    }
}

/* Prints one perft divide line. */
static void perft_line(void *ctx, Move m, uint64_t nodes)
{
    char text[MOVE_TEXT];
    out_line(&((Proto *)ctx)->out, "%s: %" PRIu64, move_to_text(m, text), nodes);
}

/* go perft N: divide counts of the root, synchronously. */
static void exec_perft(Proto *p, const Command *c)
{
    if (c->error[0] || !engine_position_ok(p->engine)) {
        out_info_string(p, "error: %s", c->error[0] ? c->error : "perft without a valid position");
        return;
    }
    Position *pos = p->engine->scratch;
    memcpy(pos, engine_root(p->engine), sizeof *pos);
    int depth = p->lim.max_perft && c->go.perft > p->lim.max_perft ? p->lim.max_perft : c->go.perft;
    uint64_t total = perft_divide(pos, depth, perft_line, p);
    out_line(&p->out, "%s", "");
    out_line(&p->out, "Nodes searched: %" PRIu64, total);
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

/* Stops the search, prints its bestmove and says goodbye. */
static void exec_quit(Proto *p)
{
    engine_stop(p->engine);
    engine_wait(p->engine);
    if (p->dialect == DIALECT_UCCI)
        out_line(&p->out, "bye");
    p->quit = true;
}

/* Executes a parsed command (the engine is idle unless the command is one allowed during a search). */
static void execute(Proto *p, const Command *c)
{
    Engine *e = p->engine;
    XqError err;
    switch (c->type) {
    case CMD_EMPTY: break;
    case CMD_UCI:
    case CMD_UCCI:
        p->dialect = c->type == CMD_UCCI ? DIALECT_UCCI : DIALECT_UCI;
        out_handshake(p);
        break;
    case CMD_ISREADY: out_line(&p->out, "readyok"); break;
    case CMD_SETOPTION:
        if (c->error[0])
            out_info_string(p, "error: %s", c->error);
        else
            opt_set(p, c->opt_name, c->opt_value);
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
        else if (p->dialect == DIALECT_UCCI)
            out_line(&p->out, "nobestmove"); /* UCCI 3(6): stop when idle */
        break;
    case CMD_PROBE: exec_probe(p, c); break;
    case CMD_QUIT: exec_quit(p); break;
    case CMD_DISPLAY:
        out_board(p, engine_root(e));
        if (!engine_position_ok(e))
            out_info_string(p, "no valid position: the last valid one is shown");
        break;
    case CMD_UNKNOWN: out_info_string(p, "unknown command '%.40s' ignored", c->tok[0]); break;
    }
}

/* Handles one input line (takes ownership): now, or after the running search. */
static void dispatch(Proto *p, Deferred *d, char *line, bool was_deferred)
{
    Command c;
    protocol_parse(line, &c);
    bool is_go = c.type == CMD_GO || c.type == CMD_PERFT, now = true;
    if (was_deferred && is_go)
        d->gos--;
    if (engine_searching(p->engine)) {
        /* stop/ponderhit/quit are for the running search unless a later go waits: then they are for that one */
        bool urgent = c.type == CMD_STOP || c.type == CMD_PONDERHIT || c.type == CMD_PROBE || c.type == CMD_QUIT;
        if (p->value[OPT_BATCH])
            now = false; /* batch: stdin is not read while thinking */
        else
            now = c.type == CMD_ISREADY || c.type == CMD_EMPTY || (urgent && d->gos == 0);
    }
    if (now) {
        execute(p, &c);
        free(line);
    } else {
        if (is_go)
            d->gos++;
        deferred_push(d, line);
    }
    command_free(&c);
}

/* Starts a new game: the engine forgets the old one and the resign count restarts. */
void proto_new_game(Proto *p)
{
    engine_new_game(p->engine);
    atomic_store(&p->hopeless, 0);
}

/* Runs the protocol loop until quit or end of input. */
int protocol_run(FILE *in, FILE *out) { return protocol_run_limited(in, out, NULL); }

/* Frees a session whose reader thread has been joined (or never started). */
static void proto_free(Proto *p)
{
    engine_free(p->engine);
    pthread_mutex_destroy(&p->out.lock);
    free(p);
}

/* Runs the protocol loop until quit or end of input, under the caps of lim. */
int protocol_run_limited(FILE *in, FILE *out, const ProtocolLimits *lim)
{
    /* for stdin, not freed on return: the detached reader thread may use the queue until the process exits */
    Proto *p = calloc(1, sizeof *p);
    if (!p)
        return 1;
    if (lim)
        p->lim = *lim;
    atomic_init(&p->hopeless, 0);
    p->out.f = out;
    pthread_mutex_init(&p->out.lock, NULL);
    p->dialect = DIALECT_UCI;
    EngineCallbacks cb = { out_report, out_bestmove, p, out_currmove };
    p->engine = engine_new(&cb);
    if (!p->engine) {
        out_line(&p->out, "info string error: out of memory");
        proto_free(p);
        return 1;
    }
    opt_init(p);
    if (!input_start(&p->input, in, !p->lim.finite_input)) {
        out_line(&p->out, "info string error: cannot start the input thread");
        proto_free(p);
        return 1;
    }
    Deferred d = { NULL, 0, 0, 0, 0 };
    bool eof = false;
    while (!p->quit) {
        while (!p->quit && !engine_searching(p->engine) && d.count > 0)
            dispatch(p, &d, deferred_pop(&d), true);
        if (p->quit)
            break;
        if (eof) {
            if (!engine_searching(p->engine))
                break;
            if (engine_search_is_open_ended(p->engine))
                engine_stop(p->engine);
            input_wait_wake(&p->input);
            engine_wait(p->engine);
            continue;
        }
        char *line = NULL;
        switch (input_next(&p->input, &line)) {
        case INPUT_WAKE: engine_wait(p->engine); break;
        case INPUT_LINE: dispatch(p, &d, line, false); break;
        case INPUT_OVERLONG: out_info_string(p, "error: input line longer than %d bytes dropped", INPUT_LINE_MAX); break;
        case INPUT_EOF: eof = true; break;
        }
    }
    if (!p->quit)
        exec_quit(p);
    while (d.count > 0)
        free(deferred_pop(&d));
    free(d.line);
    if (p->lim.finite_input) {
        engine_free(p->engine); /* joins the search thread, the last one to wake the queue */
        p->engine = NULL;
        input_finish(&p->input);
        proto_free(p);
    } else {
        engine_free(p->engine);
    }
    return 0;
}
