/*
 * protocol_cecp.c - the XBoard protocol (CECP v2) front-end, chosen by the
 * `xboard` line: commands, the game state and the searches it runs.
 *
 * The engine's root is the game (engine_play / engine_undo); the engine plays
 * engine_side or neither (force mode), or analyzes. Searches are of three
 * kinds: thinking on the engine's move (lines that may not disturb it wait:
 * ping, memory, cores, option), pondering on a guessed reply (the guess is
 * played onto the game; the real move either hits it, or the ponder search
 * is dropped and the guess taken back) and analysis (restarted after every
 * change of the game). A command that changes the game or the engine's side
 * drops any search first, and its result with it. Moves are ICCS text,
 * which is what XBoard 4.9 sends and expects for xiangqi (ranks 0-9).
 *
 * Errors take the protocol's forms: "Illegal move: M" (nothing changed),
 * "Error (reason): command", "tellusererror ..." for a refused position.
 */
#include "protocol_cecp.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "base/platform.h"
#include "protocol_cecp_out.h"
#include "protocol_options.h"
#include "protocol_out.h"
#include "protocol_session.h"
#include "protocol_tok.h"

enum {
    MS_PER_SECOND = 1000,
    MS_PER_MINUTE = 60 * 1000,
    MS_PER_CS = 10,          /* time and otim count centiseconds */
    ECHO_MAX = 40,           /* at most this much of a bad command is echoed */
    REST_MAX = 1024,         /* the longest argument text kept (setboard, option) */
    LEVEL_MPS_MAX = 10000,
    LEVEL_MINUTES_MAX = 100000,
};

/* The commands. */
typedef enum CecpCmd {
    C_XBOARD, C_PROTOVER, C_ACCEPTED, C_REJECTED, C_NEW, C_VARIANT, C_FORCE, C_GO, C_PLAYOTHER, C_WHITE, C_BLACK,
    C_USERMOVE, C_MOVE_NOW, C_PING, C_DRAW, C_RESULT, C_SETBOARD, C_EDIT, C_HINT, C_BK, C_UNDO, C_REMOVE, C_HARD,
    C_EASY, C_POST, C_NOPOST, C_ANALYZE, C_EXIT, C_STATUS, C_COMPUTER, C_IGNORED, C_LEVEL, C_ST, C_SD, C_TIME,
    C_OTIM, C_MEMORY, C_CORES, C_OPTION, C_EGTPATH, C_QUIT, C_UCI, C_UCCI
} CecpCmd;

enum {
    F_ABORT = 1,   /* drops any search first (changes the game, the side played or the mode) */
    F_SETTING = 2, /* waits while the engine thinks on its move; drops a ponder search or analysis */
    F_WAIT = 4,    /* waits while the engine thinks on its move (ping: pong after the move) */
};

typedef struct CecpDef {
    const char *word;
    CecpCmd cmd;
    int flags;
} CecpDef;

static const CecpDef COMMANDS[] = {
    { "xboard", C_XBOARD, 0 }, { "protover", C_PROTOVER, 0 }, { "accepted", C_ACCEPTED, 0 },
    { "rejected", C_REJECTED, 0 }, { "new", C_NEW, F_ABORT }, { "variant", C_VARIANT, F_ABORT },
    { "force", C_FORCE, F_ABORT }, { "go", C_GO, 0 }, { "playother", C_PLAYOTHER, F_ABORT },
    { "white", C_WHITE, F_ABORT }, { "black", C_BLACK, F_ABORT }, { "usermove", C_USERMOVE, 0 },
    { "?", C_MOVE_NOW, 0 }, { "ping", C_PING, F_WAIT }, { "draw", C_DRAW, 0 }, { "result", C_RESULT, F_ABORT },
    { "setboard", C_SETBOARD, F_ABORT }, { "edit", C_EDIT, 0 }, { "hint", C_HINT, 0 }, { "bk", C_BK, 0 },
    { "undo", C_UNDO, F_ABORT }, { "remove", C_REMOVE, F_ABORT }, { "hard", C_HARD, 0 }, { "easy", C_EASY, 0 },
    { "post", C_POST, 0 }, { "nopost", C_NOPOST, 0 }, { "analyze", C_ANALYZE, F_ABORT },
    { "exit", C_EXIT, F_ABORT }, { ".", C_STATUS, 0 }, { "computer", C_COMPUTER, 0 }, { "name", C_IGNORED, 0 },
    { "rating", C_IGNORED, 0 }, { "ics", C_IGNORED, 0 }, { "random", C_IGNORED, 0 }, { "level", C_LEVEL, 0 },
    { "st", C_ST, 0 }, { "sd", C_SD, 0 }, { "time", C_TIME, 0 }, { "otim", C_OTIM, 0 },
    { "memory", C_MEMORY, F_SETTING }, { "cores", C_CORES, F_SETTING }, { "option", C_OPTION, F_SETTING },
    { "egtpath", C_EGTPATH, F_SETTING },
    { "quit", C_QUIT, F_ABORT }, { "uci", C_UCI, F_ABORT }, { "ucicyclone", C_UCI, F_ABORT },
    { "ucci", C_UCCI, F_ABORT },
};

/* The command of a word, or NULL. */
static const CecpDef *find_command(const char *word)
{
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(word, COMMANDS[i].word) == 0)
            return &COMMANDS[i];
    return NULL;
}

/* Does the text read as a coordinate move ("h2e2"), legal or not? */
static bool looks_like_move(const char *text)
{
    Move m;
    return strlen(text) == MOVE_TEXT - 1 && move_from_text(text, &m);
}

/* Copies the raw text after the command word (spaces inside kept, ends trimmed) into out. */
static void rest_of_line(const char *line, char *out, size_t size)
{
    while (isspace((unsigned char)*line))
        line++;
    while (*line && !isspace((unsigned char)*line))
        line++;
    while (isspace((unsigned char)*line))
        line++;
    snprintf(out, size, "%s", line);
    size_t n = strlen(out);
    while (n > 0 && isspace((unsigned char)out[n - 1]))
        out[--n] = '\0';
}

/* Starts a search of the given kind. */
static void start_search(Proto *p, EngineGo *g, CecpSearch kind)
{
    Cecp *c = &p->cecp;
    if (p->lim.max_nodes)
        g->nodes = p->lim.max_nodes;
    p->search_fe = &FRONTEND_CECP;
    c->search = kind;
    atomic_store(&c->all_lines, kind == CECP_ANALYZE);
    c->discard = false;
    c->think_start_ms = now_ms();
    if (!engine_go(p->engine, g)) {
        c->search = CECP_IDLE;
        cecp_message(p, engine_in_caller(p->engine) ? "error: " PROTO_ONE_THREAD_GO
                                                    : "error: cannot start the search thread");
    }
}

/* Does the level give no time at all (`level 0 0 0`)? Then no clock limits a move: sd does, or `?`. */
static bool level_untimed(const Cecp *c) { return c->base_ms == 0 && c->inc_ms == 0; }

/* Fills the engine's clock for one move from level/st and the last time command (clock < 0: the base). */
static void fill_clock(const Proto *p, TimeInput *t, int64_t clock)
{
    const Cecp *c = &p->cecp;
    if (c->st_ms > 0) {
        t->movetime_ms = c->st_ms;
        return;
    }
    if (level_untimed(c))
        return; /* no clock: the search runs to sd's depth, or until `?` */
    t->time_ms = clock >= 0 ? clock : c->base_ms;
    t->inc_ms = c->inc_ms;
    if (c->mps > 0)
        t->movestogo = tm_level_movestogo(c->mps, engine_root(p->engine)->fullmove - c->level_move);
}

/* Thinks on the engine's move. */
static void think(Proto *p)
{
    if (!engine_position_ok(p->engine)) {
        cecp_message(p, "error: no valid position (a setboard was refused): send new or setboard");
        return;
    }
    EngineGo g;
    memset(&g, 0, sizeof g);
    tm_input_init(&g.time);
    g.depth = p->cecp.sd;
    g.draw_offered = p->cecp.draw_offered; /* an offer is answered with a searched score, never from the book */
    fill_clock(p, &g.time, p->cecp.time_ms);
    start_search(p, &g, CECP_THINK);
}

/* Starts the analysis of the game as it stands (analyze mode). */
static void analyze_start(Proto *p)
{
    if (!engine_position_ok(p->engine))
        return;
    EngineGo g;
    memset(&g, 0, sizeof g);
    tm_input_init(&g.time);
    g.infinite = true;
    start_search(p, &g, CECP_ANALYZE);
}

/* After the engine's move: ponders on the guessed reply when pondering is on (hard). */
static void ponder_start(Proto *p, Move guess)
{
    Cecp *c = &p->cecp;
    char text[MOVE_TEXT];
    if (!p->value[OPT_PONDER] || p->eof || c->engine_side == CECP_NONE || c->analyze
        || !engine_play_move(p->engine, guess))
        return;
    out_line(&p->out, "Hint: %s", move_to_text(guess, text));
    EngineGo g;
    memset(&g, 0, sizeof g);
    tm_input_init(&g.time);
    g.depth = c->sd;
    g.ponder = true;
    fill_clock(p, &g.time, c->time_ms);
    c->guess = guess;
    start_search(p, &g, CECP_PONDER);
    if (c->search == CECP_IDLE) {
        engine_undo(p->engine);
        c->guess = MOVE_NONE;
    }
}

/* Claims a decisive result of the rules (the side `loser` lost); false when it is left to the GUI. */
static bool claim(Proto *p, RulesVerdict v, const RulesReport *r)
{
    Cecp *c = &p->cecp;
    int loser = v == RULES_RED_LOSES ? RED : BLACK;
    char why[96];
    cecp_reason(r, loser, engine_root(p->engine)->in_check, why, sizeof why);
    /* XBoard (-testClaims) verifies an engine's win claims against an engine only for mates: a win by a
     * repetition rule would be taken as a false claim and lost; it adjudicates repetitions itself */
    if (r->reason != REASON_NO_LEGAL_MOVE && loser != c->engine_side && c->computer) {
        out_info_string(p, "%s: not claimed (against an engine XBoard verifies only mates)", why);
        return false;
    }
    out_line(&p->out, "%s {%s}", loser == RED ? "0-1" : "1-0", why);
    c->engine_side = CECP_NONE;
    return true;
}

/* Claims what the rules say about the game now, if the engine plays it; true when the game is over. */
static bool claim_status(Proto *p)
{
    RulesReport r;
    if (p->cecp.engine_side == CECP_NONE || p->cecp.analyze)
        return false;
    RulesVerdict v = engine_game_status(p->engine, &r);
    if (v == RULES_DRAW)
        out_line(&p->out, "offer draw"); /* a claim: XBoard grants it where the draw can be claimed */
    return v != RULES_ONGOING && v != RULES_DRAW && claim(p, v, &r);
}

/* The engine's move is found: resign, or [offer draw,] play it, claim what it ends, ponder. */
static void play_result(Proto *p, const EngineResult *res)
{
    Cecp *c = &p->cecp;
    char text[MOVE_TEXT];
    bool offered = c->draw_offered;
    c->draw_offered = false;
    if (res->best == MOVE_NONE) { /* mated or stalemated: the loss is claimed */
        if (!claim_status(p))
            cecp_message(p, "error: no move to play");
        return;
    }
    if (proto_resign_due(p, res)) {
        out_line(&p->out, "resign");
        c->engine_side = CECP_NONE;
        return;
    }
    if (!engine_play_move(p->engine, res->best)) {
        cecp_message(p, "error: the search found no legal move");
        return;
    }
    int64_t used = now_ms() - c->think_start_ms;
    if (c->time_ms >= 0)
        c->time_ms = (c->time_ms > used ? c->time_ms - used : 0) + c->inc_ms;
    RulesReport r;
    RulesVerdict v = engine_game_status(p->engine, &r);
    bool accept = offered && !res->book && proto_draw_acceptable(res);
    if (accept || v == RULES_DRAW)
        out_line(&p->out, "offer draw"); /* before the move: accepts the offer, or claims the draw the move reaches */
    out_line(&p->out, "move %s", move_to_text(res->best, text));
    if (v != RULES_ONGOING && v != RULES_DRAW && claim(p, v, &r))
        return;
    ponder_start(p, res->ponder);
}

/* Protocol thread, after the search was joined: plays a thinking result; takes a ponder guess back. */
static void cecp_search_done(Proto *p)
{
    Cecp *c = &p->cecp;
    CecpSearch kind = c->search;
    bool discard = c->discard;
    c->search = CECP_IDLE;
    c->discard = false;
    if (kind == CECP_PONDER) { /* a ponder search ends only when dropped: the guess was not played */
        engine_undo(p->engine);
        c->guess = MOVE_NONE;
        return;
    }
    if (kind == CECP_THINK && !discard)
        play_result(p, &p->result);
}

/* Drops the running search and its result (the game, the side or the mode changes). */
static void drop_search(Proto *p)
{
    if (!engine_searching(p->engine))
        return;
    p->cecp.discard = true;
    engine_stop(p->engine);
    engine_wait(p->engine);
    input_wait_wake(&p->input); /* the search's wake, still queued: this thread has not taken it */
    cecp_search_done(p);
}

/* A move for the game (usermove M, or a bare move): a ponder hit, or played and answered. */
static void user_move(Proto *p, const char *text)
{
    Cecp *c = &p->cecp;
    Move m;
    XqError err;
    char shown[ECHO_MAX + 1];
    snprintf(shown, sizeof shown, "%s", text);
    if (c->search == CECP_THINK) {
        out_line(&p->out, "Error (the engine is on move): usermove %s", shown);
        return;
    }
    if (c->search == CECP_PONDER && looks_like_move(text) && move_from_text(text, &m) && m == c->guess) {
        engine_ponderhit(p->engine, false); /* the guess is the game's move: thinking from now */
        c->search = CECP_THINK;
        c->think_start_ms = now_ms();
        c->guess = MOVE_NONE;
        if (claim_status(p))
            drop_search(p); /* the opponent's move ended the game */
        return;
    }
    drop_search(p);
    if (!engine_play(p->engine, text, NULL, &err)) {
        if (!engine_position_ok(p->engine))
            out_line(&p->out, "Illegal move (no valid position): %s", shown);
        else
            out_line(&p->out, "Illegal move: %s", shown);
        return;
    }
    if (!claim_status(p) && c->engine_side == engine_root(p->engine)->side && !c->analyze)
        think(p);
}

/* Parses "N" (seconds or minutes: decimal digits with at most one '.', then the end, ':' or '+') into ms with a
 * unit; false if malformed. strtod alone would take hex ("0x10" is 16) and exponents ("1e3"). */
static bool parse_duration(const char *s, int64_t unit_ms, int64_t max_units, int64_t *out_ms)
{
    size_t len = strspn(s, "0123456789.");
    const char *dot = memchr(s, '.', len);
    if (len == 0 || (dot && memchr(dot + 1, '.', len - (size_t)(dot + 1 - s))) || (len == 1 && dot))
        return false; /* nothing, two dots, or a lone '.' */
    const char *end = s + len;
    double v = strtod(s, NULL); /* the prefix checked above is all strtod reads: decimal only */
    if (!(v >= 0 && v <= (double)max_units) || !(*end == '\0' || *end == ':' || *end == '+'))
        return false;
    *out_ms = (int64_t)(v * (double)unit_ms + 0.5);
    return true;
}

/* level MPS BASE INC: BASE in minutes or minutes:seconds (trailing text ignored), INC in seconds. */
static bool parse_level(Proto *p, char **tok, int n)
{
    int64_t mps, base, secs = 0, inc;
    if (n < 4 || !parse_i64(tok[1], 0, LEVEL_MPS_MAX, &mps)
        || !parse_duration(tok[2], MS_PER_MINUTE, LEVEL_MINUTES_MAX, &base)
        || !parse_duration(tok[3], MS_PER_SECOND, LEVEL_MINUTES_MAX, &inc))
        return false;
    const char *colon = strchr(tok[2], ':');
    if (colon && !parse_duration(colon + 1, MS_PER_SECOND, LEVEL_MINUTES_MAX, &secs))
        return false;
    if (colon) /* "M:SS": whole minutes */
        base = (int64_t)strtol(tok[2], NULL, 10) * MS_PER_MINUTE;
    Cecp *c = &p->cecp;
    c->mps = (int)mps;
    c->base_ms = base + secs > TM_CLOCK_MAX_MS ? TM_CLOCK_MAX_MS : base + secs;
    c->inc_ms = inc > TM_CLOCK_MAX_MS ? TM_CLOCK_MAX_MS : inc;
    c->st_ms = 0;
    c->level_move = engine_root(p->engine)->fullmove;
    c->time_ms = c->otim_ms = -1;
    return true;
}

/* A clock from time / otim (centiseconds, possibly negative) in ms, clamped; false if malformed. */
static bool parse_clock(const char *s, int64_t *out_ms)
{
    int64_t cs;
    if (!parse_i64(s, -TM_CLOCK_MAX_MS, TM_CLOCK_MAX_MS, &cs))
        return false;
    int64_t ms = cs * MS_PER_CS;
    *out_ms = ms < 0 ? 0 : ms > TM_CLOCK_MAX_MS ? TM_CLOCK_MAX_MS : ms;
    return true;
}

/* option NAME[=VALUE]: an engine option as the feature lines named it. */
static void set_option(Proto *p, const char *line)
{
    char rest[REST_MAX];
    rest_of_line(line, rest, sizeof rest);
    char *eq = strchr(rest, '='), *value = NULL;
    if (eq) {
        *eq = '\0';
        value = eq + 1;
    }
    size_t n = strlen(rest);
    while (n > 0 && isspace((unsigned char)rest[n - 1]))
        rest[--n] = '\0';
    if (!rest[0] || !opt_exists(rest)) {
        out_line(&p->out, "Error (unknown option): option %.*s", ECHO_MAX, rest);
        return;
    }
    opt_set(p, rest, value);
}

/* setboard FEN: all or nothing; a refused FEN leaves no valid position until the next new or setboard. */
static void set_board(Proto *p, const char *line)
{
    char fen[REST_MAX];
    XqError err;
    rest_of_line(line, fen, sizeof fen);
    if (!engine_set_position(p->engine, fen[0] ? fen : "", NULL, 0, &err)) {
        out_line(&p->out, "tellusererror Illegal position: %s", err.msg);
        return;
    }
    p->cecp.draw_offered = false;
    p->cecp.level_move = engine_root(p->engine)->fullmove;
}

/* new: the start position, the engine plays black, clocks and depth limit reset. */
static void new_game(Proto *p)
{
    Cecp *c = &p->cecp;
    XqError err;
    proto_new_game(p);
    engine_set_position(p->engine, NULL, NULL, 0, &err);
    c->engine_side = c->analyze ? CECP_NONE : BLACK;
    c->draw_offered = false;
    c->sd = 0;
    c->level_move = 1;
    c->time_ms = c->otim_ms = -1;
}

/* Prints "Error (reason): command" with the command echoed (shortened). */
static void error_reply(Proto *p, const char *reason, char **tok, int n)
{
    out_line(&p->out, "Error (%s): %.*s%s%.*s", reason, ECHO_MAX, tok[0], n > 1 ? " " : "", ECHO_MAX,
             n > 1 ? tok[1] : "");
}

/* egtpath TYPE DIR: the tablebases of the type the egt feature named (xiangqi), from DIR (spaces kept). */
static void set_egt_path(Proto *p, const char *line, char **tok, int n)
{
    if (n < 3 || strcmp(tok[1], "xiangqi") != 0) {
        error_reply(p, n < 3 ? "egtpath needs a type and a directory" : "unknown tablebase type", tok, n);
        return;
    }
    char rest[REST_MAX];
    rest_of_line(line, rest, sizeof rest); /* "xiangqi DIR" */
    opt_set_tb_path(p, rest + strlen("xiangqi") + strspn(rest + strlen("xiangqi"), " \t"));
}

/* Runs one command (any search that it may not run beside has been dropped). */
static void run_command(Proto *p, const CecpDef *d, char **tok, int n, const char *line)
{
    Cecp *c = &p->cecp;
    Engine *e = p->engine;
    int64_t v;
    switch (d->cmd) {
    case C_XBOARD: case C_ACCEPTED: case C_IGNORED: case C_STATUS: break;
    case C_PROTOVER: cecp_features(p); break;
    case C_REJECTED:
        if (n > 1 && strcmp(tok[1], "debug") == 0)
            c->comments = false;
        break;
    case C_NEW: new_game(p); break;
    case C_VARIANT:
        if (n < 2 || !str_ieq(tok[1], "xiangqi"))
            error_reply(p, "only xiangqi is played", tok, n);
        break;
    case C_FORCE: case C_RESULT: c->engine_side = CECP_NONE; break;
    case C_GO:
        if (c->search == CECP_THINK)
            break; /* already thinking for the side on move */
        drop_search(p);
        c->analyze = false;
        c->engine_side = engine_root(e)->side;
        think(p);
        break;
    case C_PLAYOTHER: c->analyze = false; c->engine_side = engine_root(e)->side ^ 1; break;
    case C_WHITE: c->engine_side = BLACK; break;
    case C_BLACK: c->engine_side = RED; break;
    case C_USERMOVE:
        if (n < 2)
            error_reply(p, "no move given", tok, n);
        else
            user_move(p, tok[1]);
        break;
    case C_MOVE_NOW:
        if (c->search == CECP_THINK)
            engine_stop(e);
        break;
    case C_PING:
        if (n < 2)
            error_reply(p, "no number given", tok, n);
        else
            out_line(&p->out, "pong %.*s", ECHO_MAX, tok[1]);
        break;
    case C_DRAW: c->draw_offered = true; break;
    case C_SETBOARD: set_board(p, line); break;
    case C_EDIT: error_reply(p, "use setboard", tok, n); break;
    case C_HINT:
        if (c->search == CECP_PONDER && c->guess != MOVE_NONE) {
            char text[MOVE_TEXT];
            out_line(&p->out, "Hint: %s", move_to_text(c->guess, text));
        }
        break;
    case C_BK: cecp_bk(p); break;
    case C_UNDO:
        if (!engine_undo(e))
            error_reply(p, "no move to take back", tok, n);
        break;
    case C_REMOVE:
        if (engine_undo_depth(e) < 2)
            error_reply(p, "fewer than two moves to take back", tok, n);
        else
            engine_undo(e), engine_undo(e);
        break;
    case C_HARD: opt_set(p, "Ponder", "true"); break;
    case C_EASY:
        if (c->search == CECP_PONDER)
            drop_search(p);
        opt_set(p, "Ponder", "false");
        break;
    case C_POST: atomic_store(&c->post, true); break;
    case C_NOPOST: atomic_store(&c->post, false); break;
    case C_ANALYZE: c->analyze = true; c->engine_side = CECP_NONE; break;
    case C_EXIT: c->analyze = false; break;
    case C_COMPUTER: c->computer = true; break;
    case C_LEVEL:
        if (!parse_level(p, tok, n))
            error_reply(p, "bad level, kept the old one", tok, n);
        else if (level_untimed(c))
            cecp_message(p, "level without time: no clock; each move searches to the sd depth, or until '?'");
        break;
    case C_ST:
        if (n < 2 || !parse_duration(tok[1], MS_PER_SECOND, LEVEL_MINUTES_MAX, &v) || v == 0)
            error_reply(p, "bad seconds per move", tok, n);
        else
            c->st_ms = v > TM_CLOCK_MAX_MS ? TM_CLOCK_MAX_MS : v;
        break;
    case C_SD:
        if (n < 2 || !parse_i64(tok[1], 1, INT32_MAX, &v))
            error_reply(p, "bad search limit", tok, n);
        else
            c->sd = v > MAX_PLY - 1 ? MAX_PLY - 1 : (int)v;
        break;
    case C_TIME: case C_OTIM:
        if (n < 2 || !parse_clock(tok[1], &v))
            error_reply(p, "bad clock", tok, n);
        else if (d->cmd == C_TIME)
            c->time_ms = v;
        else
            c->otim_ms = v;
        break;
    case C_MEMORY:
        if (!opt_set_clamped(p, OPT_HASH, n > 1 ? tok[1] : NULL))
            error_reply(p, "bad number of megabytes", tok, n);
        break;
    case C_CORES:
        if (!opt_set_clamped(p, OPT_THREADS, n > 1 ? tok[1] : NULL))
            error_reply(p, "bad number of cores", tok, n);
        break;
    case C_OPTION: set_option(p, line); break;
    case C_EGTPATH: set_egt_path(p, line, tok, n); break;
    case C_QUIT: proto_quit(p); break;
    case C_UCI: proto_switch(p, DIALECT_UCI); break;
    case C_UCCI: proto_switch(p, DIALECT_UCCI); break;
    }
}

/* Is the engine thinking on its move (lines that may not disturb it wait)? */
static bool cecp_busy(Proto *p) { return p->cecp.search == CECP_THINK; }

/* Handles one CECP line: waits behind the engine's thinking, or drops a search and runs now. */
static LineOutcome cecp_line(Proto *p, const char *line, const LineContext *ctx)
{
    (void)ctx;
    char *buf, **tok;
    int n;
    if (!tokens_split(line, &buf, &tok, &n) || n == 0) {
        free(buf);
        free(tok);
        return LINE_DONE;
    }
    const CecpDef *d = find_command(tok[0]);
    LineOutcome o = LINE_DONE;
    bool thinking = p->cecp.search == CECP_THINK;
    if (!d && looks_like_move(tok[0])) {
        user_move(p, tok[0]); /* protocol 1, or usermove=1 refused: moves come bare */
    } else if (!d) {
        out_line(&p->out, "Error (unknown command): %.*s", ECHO_MAX, tok[0]);
    } else if (thinking && (d->flags & (F_SETTING | F_WAIT))) {
        o = LINE_DEFER;
    } else {
        if ((d->flags & F_ABORT) || (d->flags & F_SETTING))
            drop_search(p);
        run_command(p, d, tok, n, line);
        /* analysis follows the game: it restarts after anything that dropped it */
        if (p->fe == &FRONTEND_CECP && !p->switch_pending && !p->quit && p->cecp.analyze
            && !engine_searching(p->engine))
            analyze_start(p);
    }
    free(buf);
    free(tok);
    return o;
}

const Frontend FRONTEND_CECP = {
    .dialect = DIALECT_CECP,
    .line = cecp_line,
    .busy = cecp_busy,
    .enter = NULL,
    .message = cecp_message,
    .report = cecp_report,
    .currmove = NULL,
    .bestmove = NULL,
    .book = cecp_book,
    .search_done = cecp_search_done,
    .no_move = NULL,
    .idle_stop = NULL,
    .bye = NULL,
    .depth0_no_search = false,
};
