/*
 * protocol.c - the session loop: the reader/deferred-command loop over the
 * dialects' front-ends, switching front-ends when a handshake word asks
 * (what they share about a game is protocol_session.c).
 *
 * Threads: the reader thread (input.c) queues lines; this thread hands each
 * to the current front-end, which runs it now or has it deferred while the
 * front-end is busy (a search runs that the line may not disturb); deferred
 * lines run, in order, once it is not. The search thread reports through the
 * callbacks below, which store the result and wake this thread; the
 * front-end's search_done then runs here, after the join. End of input means
 * quit, after a search that ends by itself has finished.
 */
#include "protocol.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "protocol_cecp.h"
#include "protocol_cecp_out.h"
#include "protocol_options.h"
#include "protocol_out.h"
#include "protocol_session.h"
#include "protocol_ucci.h"
#include "protocol_uci.h"

enum {
    DEFERRED_MAX = 4096, /* lines that may wait behind a search; more are dropped, saying so */
};

/* One deferred line and whether it starts a search when it runs. */
typedef struct DeferredLine {
    char *line;
    bool search;
} DeferredLine;

/* Lines waiting for the front-end to be free (protocol thread only). */
typedef struct Deferred {
    DeferredLine *item;
    int head, count, cap;
    int searches;       /* deferred lines that start a search: a stop/ponderhit behind one is meant for it */
} Deferred;

/* Appends a line to the deferred list (takes ownership). */
static void deferred_push(Deferred *d, char *line, bool search)
{
    if (d->head + d->count == d->cap) {
        if (d->head > 0) {
            memmove(d->item, d->item + d->head, (size_t)d->count * sizeof *d->item);
            d->head = 0;
        } else {
            int cap = d->cap ? d->cap * 2 : 16;
            DeferredLine *bigger = realloc(d->item, (size_t)cap * sizeof *bigger);
            if (!bigger) {
                free(line); /* out of memory: drop rather than die */
                return;
            }
            d->item = bigger;
            d->cap = cap;
        }
    }
    d->item[d->head + d->count++] = (DeferredLine){ line, search };
    d->searches += search;
}

/* Takes the oldest deferred line. */
static char *deferred_pop(Deferred *d)
{
    DeferredLine *it = &d->item[d->head++];
    d->count--;
    d->searches -= it->search;
    return it->line;
}

/* Puts back the line deferred_pop just took (it still waits, first in line). */
static void deferred_unpop(Deferred *d, char *line, bool search)
{
    d->item[--d->head] = (DeferredLine){ line, search };
    d->count++;
    d->searches += search;
}

/* Frees the lines still deferred (the session ends without running them) and the list. */
static void deferred_free(Deferred *d)
{
    while (d->count > 0)
        free(deferred_pop(d));
    free(d->item);
}

/* The front-end of a dialect. */
static const Frontend *frontend_of(Dialect d)
{
    return d == DIALECT_CECP ? &FRONTEND_CECP : d == DIALECT_UCCI ? &FRONTEND_UCCI : &FRONTEND_UCI;
}

/* Chooses a front-end and lets it print its handshake. */
static void proto_select(Proto *p, const Frontend *fe)
{
    p->fe = fe;
    if (fe->enter)
        fe->enter(p);
}

/* Switches dialects when the line just handled was a handshake word. */
static void switch_if_pending(Proto *p)
{
    if (p->switch_pending) {
        p->switch_pending = false;
        proto_select(p, frontend_of(p->switch_to));
    }
}

/* Handles one input line (takes ownership): now, or deferred behind the running search; then switches
 * dialects when the line was a handshake word. */
static void dispatch(Proto *p, Deferred *d, char *line, bool was_deferred)
{
    LineContext ctx = { was_deferred, d->searches };
    LineOutcome o = p->fe->line(p, line, &ctx);
    switch_if_pending(p);
    if (o == LINE_DONE) {
        free(line);
    } else if (d->count >= DEFERRED_MAX) {
        out_info_string(p, "error: %d lines already wait for the search to end; dropped '%.40s'", DEFERRED_MAX, line);
        free(line);
    } else {
        deferred_push(d, line, o == LINE_DEFER_SEARCH);
    }
}


/* While a search runs, offers the oldest deferred line to the front-end once more: a stop, ponderhit or probe
 * that waited behind a deferred go is meant for the search that go has just started, and must reach it (else
 * a `go infinite` or `go ponder` queued with its `stop` or `ponderhit` would search forever). True if the line
 * ran; false if it still waits, first in line. */
static bool dispatch_first_while_busy(Proto *p, Deferred *d)
{
    const bool search = d->item[d->head].search;
    char *line = deferred_pop(d);
    LineContext ctx = { true, 0 }; /* no deferred search comes before the first line */
    LineOutcome o = p->fe->line(p, line, &ctx);
    if (o != LINE_DONE) {
        deferred_unpop(d, line, search);
        return false;
    }
    switch_if_pending(p);
    free(line);
    return true;
}

/* Search-thread callback: one progress report, in the dialect of the search. */
static void proto_report(void *ctx, const Position *root, const SearchReport *r)
{
    Proto *p = ctx;
    p->search_fe->report(p, root, r);
}

/* Search-thread callback: the root move being searched, where the search's dialect shows it. */
static void proto_currmove(void *ctx, Move move, int number)
{
    Proto *p = ctx;
    if (p->search_fe->currmove)
        p->search_fe->currmove(p, move, number);
}

/* Search-thread callback: a go answered from the book (before its bestmove), in the dialect of the search. */
static void proto_book(void *ctx, const Position *root, const BookMove *moves, int n, Move chosen)
{
    (void)root;
    Proto *p = ctx;
    if (p->search_fe->book)
        p->search_fe->book(p, moves, n, chosen);
}

/*
 * Search-thread callback: stores the result, wakes the protocol thread, then lets the front-end print.
 * Waking first matters: the wake is queued before any line the GUI sends in reply to a printed
 * result, so that line finds the engine idle (the protocol thread joins this thread on the wake,
 * which waits for the print).
 */
static void proto_bestmove(void *ctx, const EngineResult *res)
{
    Proto *p = ctx;
    p->result = *res;
    input_wake(&p->input);
    if (p->search_fe->bestmove)
        p->search_fe->bestmove(p, res);
}

/* Search-thread callback of engine_perft: one root move's count ("h2e2: 1234"). */
static void proto_perft_move(void *ctx, Move move, uint64_t nodes)
{
    Proto *p = ctx;
    char text[MOVE_TEXT];
    out_line(&p->out, "%s: %" PRIu64, move_to_text(move, text), nodes);
}

/* Search-thread callback of engine_perft: wakes the protocol thread, then prints the total, or after a stop
 * says that the count is partial (so that no reader takes it for the total). */
static void proto_perft_done(void *ctx, uint64_t nodes, bool complete)
{
    Proto *p = ctx;
    input_wake(&p->input);
    if (!complete) {
        char text[LINE_MAX_OUT / 2];
        snprintf(text, sizeof text, "perft stopped: %" PRIu64 " leaves counted before the stop, not the total", nodes);
        p->search_fe->message(p, text);
        return;
    }
    out_line(&p->out, "%s", "");
    out_line(&p->out, "Nodes searched: %" PRIu64, nodes);
}

/* Joins the finished search and lets its front-end act on the result (protocol thread). */
static void search_finished(Proto *p)
{
    engine_wait(p->engine);
    if (p->search_fe && p->search_fe->search_done)
        p->search_fe->search_done(p);
}

/* Runs the protocol loop until quit or end of input. */
int protocol_run(FILE *in, FILE *out) { return protocol_run_limited(in, out, NULL); }

/* Frees a session whose reader thread has been joined, never started, or is the caller. */
static void proto_free(Proto *p)
{
    engine_free(p->engine);
    pthread_mutex_destroy(&p->out.lock);
    free(p);
}

/* proto_free with the signature input_release takes. */
static void proto_free_any(void *p) { proto_free(p); }

/* A new session writing to out under the caps of lim (NULL: none), its engine made; NULL (said on out) if
 * memory runs out. The input queue is the caller's to start. */
static Proto *proto_new(FILE *out, const ProtocolLimits *lim)
{
    Proto *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (lim)
        p->lim = *lim;
    atomic_init(&p->hopeless, 0);
    p->out.f = out;
    pthread_mutex_init(&p->out.lock, NULL);
    p->fe = p->search_fe = &FRONTEND_UCI;
    cecp_init(&p->cecp);
    EngineCallbacks cb = { proto_report, proto_bestmove, p, proto_currmove, proto_book, proto_perft_move,
                           proto_perft_done };
    p->engine = engine_new(&cb);
    if (!p->engine) {
        out_line(&p->out, "info string error: out of memory");
        proto_free(p);
        return NULL;
    }
    opt_init(p);
    return p;
}

/* Runs the protocol loop until quit or end of input, under the caps of lim. */
int protocol_run_limited(FILE *in, FILE *out, const ProtocolLimits *lim)
{
    /* for stdin the reader thread frees the session if it is still blocked on return (input_release) */
    Proto *p = proto_new(out, lim);
    if (!p)
        return 1;
    if (!input_start(&p->input, in)) {
        out_line(&p->out, "info string error: cannot start the input thread");
        proto_free(p);
        return 1;
    }
    Deferred d = { NULL, 0, 0, 0, 0 };
    while (!p->quit) {
        while (!p->quit && d.count > 0) {
            if (!p->fe->busy(p))
                dispatch(p, &d, deferred_pop(&d), true);
            else if (!dispatch_first_while_busy(p, &d))
                break;
        }
        if (p->quit)
            break;
        if (p->eof) {
            if (!engine_searching(p->engine))
                break;
            if (engine_search_is_open_ended(p->engine))
                engine_stop(p->engine);
            input_wait_wake(&p->input);
            search_finished(p);
            continue;
        }
        char *line = NULL;
        switch (input_next(&p->input, &line)) {
        case INPUT_WAKE: search_finished(p); break;
        case INPUT_LINE: dispatch(p, &d, line, false); break;
        case INPUT_OVERLONG:
            out_info_string(p, "error: input line longer than %d bytes dropped", INPUT_LINE_MAX);
            break;
        case INPUT_EOF: p->eof = true; break;
        }
    }
    if (!p->quit)
        proto_quit(p);
    deferred_free(&d);
    engine_free(p->engine); /* joins the search thread, the last one to wake the queue */
    p->engine = NULL;
    if (p->lim.finite_input) {
        input_finish(&p->input);
        proto_free(p);
    } else {
        input_release(&p->input, proto_free_any, p); /* stdin may never end: the reader frees p if so */
    }
    return 0;
}

/* A session fed line by line by its caller (protocol_open). */
struct ProtocolSession {
    Proto *p;
    Deferred d;
};

/* Opens a session without threads: searches run in the caller of protocol_line. */
ProtocolSession *protocol_open(FILE *out, const ProtocolLimits *lim)
{
    ProtocolSession *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    ProtocolLimits one = lim ? *lim : (ProtocolLimits){ 0 };
    one.max_threads = 1; /* helper threads are threads too */
    s->p = proto_new(out, &one);
    if (!s->p) {
        free(s);
        return NULL;
    }
    input_open(&s->p->input);
    engine_set_in_caller(s->p->engine, true);
    return s;
}

/* Ends a search that ran in the caller (its front-end's search_done), then runs the lines it deferred. */
static void session_settle(ProtocolSession *s)
{
    Proto *p = s->p;
    if (engine_searching(p->engine))
        search_finished(p);
    while (!p->quit && !p->fe->busy(p) && s->d.count > 0) {
        dispatch(p, &s->d, deferred_pop(&s->d), true);
        if (engine_searching(p->engine))
            search_finished(p);
    }
}

/* Runs one input line to its end (a search included); false once the session has quit. */
bool protocol_line(ProtocolSession *s, const char *line)
{
    Proto *p = s->p;
    if (p->quit)
        return false;
    size_t n = strlen(line);
    if (n > INPUT_LINE_MAX) {
        out_info_string(p, "error: input line longer than %d bytes dropped", INPUT_LINE_MAX);
        return true;
    }
    char *copy = malloc(n + 1);
    if (!copy) {
        out_info_string(p, "error: out of memory, line dropped");
        return true;
    }
    for (size_t i = 0; i < n; i++) /* as the reader thread does: a line ends at its newline, NUL is a space */
        copy[i] = line[i] == '\n' || line[i] == '\r' ? ' ' : line[i];
    copy[n] = '\0';
    dispatch(p, &s->d, copy, false);
    session_settle(s);
    return !p->quit;
}

/* Quits the session if it has not, and frees it. */
void protocol_close(ProtocolSession *s)
{
    if (!s)
        return;
    Proto *p = s->p;
    if (!p->quit)
        proto_quit(p);
    deferred_free(&s->d);
    engine_free(p->engine);
    p->engine = NULL;
    input_close(&p->input);
    proto_free(p);
    free(s);
}
