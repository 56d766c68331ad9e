/*
 * protocol_ucci.c - the UCCI front-end: its handshake and option lines, its
 * info and bestmove lines, pophash, and how notices are written. Commands
 * are the UCI family's (protocol_parse.c, protocol_exec.c).
 *
 * UCCI scores are bare integers (no "cp"), mates as ElephantEye writes them
 * (+-(10000 - plies)), rule bans just inside (+-(9900 - plies)). No line
 * carries the words gmchess takes for game results (draw, resign) unless the
 * engine means them.
 */
#include "protocol_ucci.h"

#include <inttypes.h>
#include <string.h>

#include "board/move.h"
#include "engine/version.h"
#include "protocol_exec.h"
#include "protocol_options.h"
#include "protocol_out.h"
#include "protocol_session.h"
#include "protocol_ucci_out.h"



/* A notice: "info string ...", masked. */
static void ucci_message(Proto *p, const char *text)
{
    char buf[LINE_MAX_OUT - 16];
    snprintf(buf, sizeof buf, "%s", text);
    static const char *const GMCHESS_RESULTS[] = { "draw", "resign", NULL }; /* gmchess takes them as results */
    out_mask_words(buf, GMCHESS_RESULTS);
    out_line(&p->out, "info string %s", buf);
}

/* Prints the UCCI option lines ("option hashsize type spin min 1 max ... default 16"). */
static void ucci_options(Proto *p)
{
    for (int i = 0; i < OPT_COUNT; i++) {
        OptView v;
        if (!opt_view(i, DIALECT_UCCI, &v))
            continue;
        char line[512];
        size_t n = 0;
        out_append(line, sizeof line, &n, "option %s type %s", v.name, v.type);
        if (strcmp(v.type, "spin") == 0) {
            out_append(line, sizeof line, &n, " min %lld max %lld default %lld", (long long)v.min, (long long)v.max,
                       (long long)v.def);
        } else if (strcmp(v.type, "combo") == 0) {
            opt_append_vars(&v, line, sizeof line, &n);
            out_append(line, sizeof line, &n, " default %s", v.def_text);
        } else if (strcmp(v.type, "button") != 0) {
            out_append(line, sizeof line, &n, " default %s", v.def_text);
        }
        out_line(&p->out, "%s", line);
    }
}

/* The handshake: id lines, options, ucciok. */
static void ucci_enter(Proto *p)
{
    out_line(&p->out, "id name %s", version_engine_name());
    out_line(&p->out, "id copyright 2026 " ENGINE_AUTHOR);
    out_line(&p->out, "id author " ENGINE_AUTHOR);
    out_line(&p->out, "id user unknown");
    ucci_options(p);
    out_line(&p->out, "ucciok");
}

/* Search-thread callback: "info depth d score s pv ..." and "info time t nodes n nps v [tbhits h]". */
static void ucci_report(Proto *p, const Position *root, const SearchReport *r)
{
    (void)root;
    char pv[LINE_MAX_OUT / 2];
    out_pv_text(r, pv, sizeof pv);
    int64_t t = r->time_ms > 0 ? r->time_ms : 0;
    uint64_t nps = t > 0 ? r->nodes * 1000 / (uint64_t)t : r->nodes * 1000;
    /* exactly "info depth d score s pv ..." first: some GUIs parse it by position (MultiPV adds
     * "multipv k" before the pv, only when more than one line was asked for) */
    char line_no[24] = "";
    if (p->value[OPT_MULTIPV] > 1)
        snprintf(line_no, sizeof line_no, " multipv %d", r->multipv);
    if (r->bound == BOUND_EXACT && r->pv_len > 0)
        out_line(&p->out, "info depth %d score %d%s pv%s", r->depth, score_to_ucci(r->score), line_no, pv);
    if (r->tbhits) /* tablebase probes that answered (only with tables loaded) */
        out_line(&p->out, "info time %" PRId64 " nodes %" PRIu64 " nps %" PRIu64 " tbhits %" PRIu64, t, r->nodes, nps,
                 r->tbhits);
    else
        out_line(&p->out, "info time %" PRId64 " nodes %" PRIu64 " nps %" PRIu64, t, r->nodes, nps);
}

/* Search-thread callback: a book move, as ElephantEye reports one: "info depth 0 score W pv M" per book move. */
static void ucci_book(Proto *p, const BookMove *moves, int n, Move chosen)
{
    (void)chosen;
    for (int i = 0; i < n; i++) {
        char m[MOVE_TEXT];
        out_line(&p->out, "info depth 0 score %u pv %s", (unsigned)moves[i].weight, move_to_text(moves[i].move, m));
    }
}

/* Search-thread callback: bestmove [ponder] [draw|resign], or nobestmove. */
static void ucci_bestmove(Proto *p, const EngineResult *res)
{
    char best[MOVE_TEXT], ponder[MOVE_TEXT];
    if (res->best == MOVE_NONE) {
        out_line(&p->out, "nobestmove");
        return;
    }
    char tail[32] = "";
    bool hopeless = proto_resign_due(p, res);
    /* accept an offered draw unless we stand better; claim a rule draw the move reaches */
    if ((res->draw_offered && proto_draw_acceptable(res)) || res->rule_draw) /* includes hopeless */
        snprintf(tail, sizeof tail, " draw");
    else if (hopeless && res->ponder != MOVE_NONE)
        snprintf(tail, sizeof tail, " resign"); /* never a bare 3-field bestmove line */
    if (res->ponder != MOVE_NONE)
        out_line(&p->out, "bestmove %s ponder %s%s", move_to_text(res->best, best), move_to_text(res->ponder, ponder),
                 tail);
    else
        out_line(&p->out, "bestmove %s%s", move_to_text(res->best, best), tail);
}


const Frontend FRONTEND_UCCI = {
    .dialect = DIALECT_UCCI,
    .line = ucix_line,
    .busy = ucix_busy,
    .enter = ucci_enter,
    .message = ucci_message,
    .report = ucci_report,
    .currmove = out_currmove,
    .bestmove = ucci_bestmove,
    .book = ucci_book,
    .search_done = NULL,
    .no_move = "nobestmove",
    .idle_stop = "nobestmove",
    .bye = "bye",
    .depth0_no_search = true,
};
