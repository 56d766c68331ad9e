/*
 * protocol_uci.c - the UCI front-end (the xiangqi dialect of Pikafish,
 * "UCI-Cyclone": ranks 0-9): its handshake and option lines, its info and
 * bestmove lines, and how notices are written. Commands are the UCI
 * family's (protocol_parse.c, protocol_exec.c).
 *
 * Scores are "cp N" or "mate M" in moves; a rule win or loss shows as a
 * centipawn score just below UCI_BAN_CP.
 */
#include "protocol_uci.h"

#include <inttypes.h>
#include <string.h>

#include "board/move.h"
#include "engine/version.h"
#include "eval/wdl.h"
#include "protocol_exec.h"
#include "protocol_options.h"
#include "protocol_out.h"

enum { UCI_BAN_CP = 19999 }; /* a rule win/loss shown as a huge centipawn score */


/* A notice: "info string ...". */
static void uci_message(Proto *p, const char *text) { out_line(&p->out, "info string %s", text); }

/* Prints the UCI option lines ("option name Hash type spin default 16 min 1 max ..."). */
static void uci_options(Proto *p)
{
    for (int i = 0; i < OPT_COUNT; i++) {
        OptView v;
        if (!opt_view(i, DIALECT_UCI, &v))
            continue;
        char line[512];
        size_t n = 0;
        out_append(line, sizeof line, &n, "option name %s type %s", v.name, v.type);
        if (strcmp(v.type, "spin") == 0) {
            out_append(line, sizeof line, &n, " default %lld min %lld max %lld", (long long)v.def, (long long)v.min,
                       (long long)v.max);
        } else if (strcmp(v.type, "combo") == 0) {
            out_append(line, sizeof line, &n, " default %s", v.def_text);
            opt_append_vars(&v, line, sizeof line, &n);
        } else if (strcmp(v.type, "button") != 0) {
            out_append(line, sizeof line, &n, " default %s", v.def_text);
        }
        out_line(&p->out, "%s", line);
    }
}

/* The handshake: id lines, options, uciok. */
static void uci_enter(Proto *p)
{
    out_line(&p->out, "id name %s", version_engine_name());
    out_line(&p->out, "id author " ENGINE_AUTHOR);
    uci_options(p);
    out_line(&p->out, "uciok");
}

/* Writes the UCI score words ("cp N" / "mate M") into buf. */
static void score_uci(int s, char *buf, size_t size)
{
    int sign = s < 0 ? -1 : 1, a = s < 0 ? -s : s;
    if (score_is_mate(s)) {
        int plies = SCORE_MATE - a;
        snprintf(buf, size, "mate %d", sign * ((plies + 1) / 2));
    } else if (score_is_ban(s)) {
        snprintf(buf, size, "cp %d", sign * (UCI_BAN_CP - (SCORE_BAN - a)));
    } else {
        snprintf(buf, size, "cp %d", s);
    }
}

/* Search-thread callback: one Stockfish-style info line. */
static void uci_report(Proto *p, const Position *root, const SearchReport *r)
{
    char pv[LINE_MAX_OUT / 2];
    out_pv_text(r, pv, sizeof pv);
    int64_t t = r->time_ms > 0 ? r->time_ms : 0;
    uint64_t nps = t > 0 ? r->nodes * 1000 / (uint64_t)t : r->nodes * 1000;
    char score[32], wdl[40] = "";
    score_uci(r->score, score, sizeof score);
    const char *bound = r->bound == BOUND_LOWER ? " lowerbound" : r->bound == BOUND_UPPER ? " upperbound" : "";
    if (p->value[OPT_SHOW_WDL]) {
        Wdl w = wdl_from_score(r->score, wdl_material(root));
        snprintf(wdl, sizeof wdl, " wdl %d %d %d", w.win, w.draw, w.loss);
    }
    /* never an empty "pv" (a fail low may have no checked move to show) */
    out_line(&p->out,
             "info depth %d seldepth %d multipv %d score %s%s%s nodes %" PRIu64 " nps %" PRIu64
             " hashfull %d tbhits %" PRIu64 " time %" PRId64 "%s%s",
             r->depth, r->seldepth, r->multipv, score, bound, wdl, r->nodes, nps, r->hashfull, r->tbhits, t,
             r->pv_len > 0 ? " pv" : "", pv);
}

/* Search-thread callback: a book move: "info depth 0 score cp W pv M" per book move (W its weight). */
static void uci_book(Proto *p, const BookMove *moves, int n, Move chosen)
{
    (void)chosen;
    for (int i = 0; i < n; i++) {
        char m[MOVE_TEXT];
        out_line(&p->out, "info depth 0 score cp %u pv %s", (unsigned)moves[i].weight, move_to_text(moves[i].move, m));
    }
}

/* Search-thread callback: bestmove [ponder], or bestmove (none) after "info depth 0 score mate 0". */
static void uci_bestmove(Proto *p, const EngineResult *res)
{
    char best[MOVE_TEXT], ponder[MOVE_TEXT];
    if (res->best == MOVE_NONE) {
        if (res->searched || engine_position_ok(p->engine))
            out_line(&p->out, "info depth 0 score mate 0");
        out_line(&p->out, "bestmove (none)");
    } else if (res->ponder != MOVE_NONE) {
        out_line(&p->out, "bestmove %s ponder %s", move_to_text(res->best, best), move_to_text(res->ponder, ponder));
    } else {
        out_line(&p->out, "bestmove %s", move_to_text(res->best, best));
    }
}

const Frontend FRONTEND_UCI = {
    .dialect = DIALECT_UCI,
    .line = ucix_line,
    .busy = ucix_busy,
    .enter = uci_enter,
    .message = uci_message,
    .report = uci_report,
    .currmove = out_currmove,
    .bestmove = uci_bestmove,
    .book = uci_book,
    .search_done = NULL,
    .no_move = "bestmove (none)",
    .idle_stop = NULL,
    .bye = NULL,
    .depth0_no_search = false,
};
