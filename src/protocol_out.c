/*
 * protocol_out.c - everything the engine writes: the handshake, info and
 * bestmove lines of both dialects, the board for `d`, pophash.
 *
 * UCCI scores are bare integers (no "cp"), mates as ElephantEye writes them
 * (+-(10000 - plies)), rule bans just inside (+-(9900 - plies)); UCI scores
 * are "cp N" or "mate M" in moves. Every line is written whole under a lock
 * and flushed, and stays below 1000 bytes (UCI2WB's buffer).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "move.h"
#include "protocol_int.h"
#include "wdl.h"

enum {
    UCCI_MATE = 10000,     /* ElephantEye's MATE_VALUE */
    UCCI_BAN = 9900,       /* ElephantEye's BAN_VALUE */
    UCCI_EVAL_MAX = 9799,  /* ordinary scores stay below the ban band */
    UCI_BAN_CP = 19999,    /* a rule win/loss shown as a huge centipawn score */
    LINE_MAX_OUT = 1000,
    RESIGN_SCORE = 1500,   /* resign below -this ... */
    RESIGN_DEPTH = 8,      /* ... once the search has seen this deep ... */
    RESIGN_STREAK = 3,     /* ... in this many searches in a row (a mate found resigns at once) */
    DRAW_ACCEPT_SCORE = 10,/* accept an offered draw when we stand no better than this */
};

#define ENGINE_NAME "Jiangjun"
#define ENGINE_AUTHOR "the Jiangjun developers"

/* Writes one formatted line and flushes. */
void out_line(Output *out, const char *fmt, ...)
{
    char buf[LINE_MAX_OUT + 24];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&out->lock);
    fputs(buf, out->f);
    fputc('\n', out->f);
    fflush(out->f);
    pthread_mutex_unlock(&out->lock);
}

/* Masks the words gmchess takes as game results (draw, resign) in free text. */
static void mask_game_words(char *s)
{
    static const char *const WORDS[] = { "draw", "resign" };
    for (char *c = s; *c; c++)
        for (int w = 0; w < 2; w++) {
            size_t n = strlen(WORDS[w]), k = 0;
            while (k < n && c[k] && (c[k] | 0x20) == WORDS[w][k])
                k++;
            if (k == n)
                c[1] = '*'; /* "d*aw", "r*sign"; also covers "nobestmove"-free text */
        }
}

/* Prints an "info string ..." line. */
void out_info_string(Proto *p, const char *fmt, ...)
{
    char buf[LINE_MAX_OUT - 16];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (p->dialect == DIALECT_UCCI)
        mask_game_words(buf);
    out_line(&p->out, "info string %s", buf);
}

/* Prints the handshake block of the current dialect. */
void out_handshake(Proto *p)
{
    out_line(&p->out, "id name " ENGINE_NAME);
    if (p->dialect == DIALECT_UCCI) {
        out_line(&p->out, "id copyright 2026 " ENGINE_AUTHOR);
        out_line(&p->out, "id author " ENGINE_AUTHOR);
        out_line(&p->out, "id user unknown");
    } else {
        out_line(&p->out, "id author " ENGINE_AUTHOR);
    }
    opt_print(p);
    out_line(&p->out, p->dialect == DIALECT_UCCI ? "ucciok" : "uciok");
}

/* Converts an engine score to the UCCI convention. */
int score_to_ucci(int s)
{
    int sign = s < 0 ? -1 : 1, a = s < 0 ? -s : s;
    if (score_is_mate(s))
        return sign * (UCCI_MATE - (SCORE_MATE - a));
    if (score_is_ban(s))
        return sign * (UCCI_BAN - (SCORE_BAN - a));
    return a > UCCI_EVAL_MAX ? sign * UCCI_EVAL_MAX : s;
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

/* Appends " m1 m2 ..." for a PV into buf. */
static void pv_text(const SearchReport *r, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->pv_len && n + MOVE_TEXT + 1 < size; i++) {
        char m[MOVE_TEXT];
        buf[n++] = ' ';
        memcpy(buf + n, move_to_text(r->pv[i], m), MOVE_TEXT);
        n += MOVE_TEXT - 1;
    }
}

/* Search-thread callback: one progress report. */
void out_report(void *ctx, const Position *root, const SearchReport *r)
{
    Proto *p = ctx;
    char pv[LINE_MAX_OUT / 2];
    pv_text(r, pv, sizeof pv);
    int64_t t = r->time_ms > 0 ? r->time_ms : 0;
    uint64_t nps = t > 0 ? r->nodes * 1000 / (uint64_t)t : r->nodes * 1000;
    if (p->search_dialect == DIALECT_UCCI) {
        /* exactly "info depth d score s pv ..." first: some GUIs parse it by position (MultiPV adds
         * "multipv k" before the pv, only when more than one line was asked for) */
        char line_no[24] = "";
        if (p->value[OPT_MULTIPV] > 1)
            snprintf(line_no, sizeof line_no, " multipv %d", r->multipv);
        if (r->bound == BOUND_EXACT && r->pv_len > 0)
            out_line(&p->out, "info depth %d score %d%s pv%s", r->depth, score_to_ucci(r->score), line_no, pv);
        out_line(&p->out, "info time %" PRId64 " nodes %" PRIu64 " nps %" PRIu64, t, r->nodes, nps);
        return;
    }
    char score[32], wdl[40] = "";
    score_uci(r->score, score, sizeof score);
    const char *bound = r->bound == BOUND_LOWER ? " lowerbound" : r->bound == BOUND_UPPER ? " upperbound" : "";
    if (p->value[OPT_SHOW_WDL]) {
        Wdl w = wdl_from_score(r->score, wdl_material(root));
        snprintf(wdl, sizeof wdl, " wdl %d %d %d", w.win, w.draw, w.loss);
    }
    out_line(&p->out,
             "info depth %d seldepth %d multipv %d score %s%s%s nodes %" PRIu64 " nps %" PRIu64
             " hashfull %d tbhits 0 time %" PRId64 " pv%s",
             r->depth, r->seldepth, r->multipv, score, bound, wdl, r->nodes, nps, r->hashfull, t, pv);
}

/* Search-thread callback: the root move being searched, in both dialects. */
void out_currmove(void *ctx, Move move, int number)
{
    Proto *p = ctx;
    char m[MOVE_TEXT];
    out_line(&p->out, "info currmove %s currmovenumber %d", move_to_text(move, m), number);
}

/*
 * Search-thread callback: wakes the protocol thread, then prints bestmove / nobestmove.
 * Waking first matters: the wake is queued before any line the GUI sends in reply to the
 * bestmove, so that line finds the engine idle (the protocol thread joins this thread on
 * the wake, which waits for the print).
 */
void out_bestmove(void *ctx, const EngineResult *res)
{
    Proto *p = ctx;
    char best[MOVE_TEXT], ponder[MOVE_TEXT];
    input_wake(&p->input);
    if (p->search_dialect == DIALECT_UCCI) {
        if (res->best == MOVE_NONE) {
            out_line(&p->out, "nobestmove");
        } else {
            char tail[32] = "";
            bool lost = res->score <= -RESIGN_SCORE && res->depth >= RESIGN_DEPTH && !score_is_ban(res->score);
            int streak = lost ? atomic_fetch_add(&p->hopeless, 1) + 1 : 0;
            if (!lost)
                atomic_store(&p->hopeless, 0);
            bool hopeless = res->score <= -SCORE_MATE_MIN || streak >= RESIGN_STREAK;
            if (res->draw_offered && res->score <= DRAW_ACCEPT_SCORE) /* includes hopeless */
                snprintf(tail, sizeof tail, " draw");
            else if (hopeless && res->ponder != MOVE_NONE)
                snprintf(tail, sizeof tail, " resign"); /* never a bare 3-field bestmove line */
            if (res->ponder != MOVE_NONE)
                out_line(&p->out, "bestmove %s ponder %s%s", move_to_text(res->best, best),
                         move_to_text(res->ponder, ponder), tail);
            else
                out_line(&p->out, "bestmove %s%s", move_to_text(res->best, best), tail);
        }
    } else if (res->best == MOVE_NONE) {
        if (res->searched || engine_position_ok(p->engine))
            out_line(&p->out, "info depth 0 score mate 0");
        out_line(&p->out, "bestmove (none)");
    } else if (res->ponder != MOVE_NONE) {
        out_line(&p->out, "bestmove %s ponder %s", move_to_text(res->best, best), move_to_text(res->ponder, ponder));
    } else {
        out_line(&p->out, "bestmove %s", move_to_text(res->best, best));
    }
}

/* Prints the board, FEN and key of a position. */
void out_board(Proto *p, const Position *pos)
{
    static const char LETTER[PIECE_TYPES] = { 'k', 'a', 'b', 'n', 'r', 'c', 'p' };
    const char *rule = " +---+---+---+---+---+---+---+---+---+";
    out_line(&p->out, "%s", rule);
    for (int rank = RANKS - 1; rank >= 0; rank--) {
        char line[64];
        size_t n = 0;
        line[n++] = ' ';
        for (int file = 0; file < FILES; file++) {
            int id = pos->board[sq_make(file, rank)];
            char c = ' ';
            if (id != EMPTY) {
                c = LETTER[piece_type(id)];
                if (piece_side(id) == RED)
                    c = (char)(c - 'a' + 'A');
            }
            n += (size_t)snprintf(line + n, sizeof line - n, "| %c ", c);
        }
        snprintf(line + n, sizeof line - n, "| %d", rank);
        out_line(&p->out, "%s", line);
        out_line(&p->out, "%s", rule);
    }
    out_line(&p->out, "   a   b   c   d   e   f   g   h   i");
    char fen[FEN_MAX];
    out_line(&p->out, "Fen: %s", pos_to_fen(pos, fen, sizeof fen));
    out_line(&p->out, "Key: %016" PRIX64, pos->key);
    out_line(&p->out, "In check: %s", pos->in_check ? "yes" : "no");
    out_line(&p->out, "History plies: %u", (unsigned)pos->ply);
    out_line(&p->out, "Static eval (side to move): %d (%s)", engine_static_eval(p->engine, pos),
             p->engine->opt.use_nnue ? "network" : "hand-crafted");
}

/* Prints a pophash line for `probe`. */
void out_pophash(Proto *p, bool found, const TTEntry *entry)
{
    if (!found) {
        out_line(&p->out, "pophash");
        return;
    }
    char line[160], m[MOVE_TEXT];
    size_t n = (size_t)snprintf(line, sizeof line, "pophash");
    int bound = entry->gen_bound & 3, score = score_to_ucci(entry->score);
    if (entry->move != MOVE_NONE)
        n += (size_t)snprintf(line + n, sizeof line - n, " bestmove %s", move_to_text(entry->move, m));
    if (bound & BOUND_LOWER)
        n += (size_t)snprintf(line + n, sizeof line - n, " lowerbound %d depth %d", score, entry->depth);
    if (bound & BOUND_UPPER)
        snprintf(line + n, sizeof line - n, " upperbound %d depth %d", score, entry->depth);
    out_line(&p->out, "%s", line);
}
