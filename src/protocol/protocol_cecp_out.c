/*
 * protocol_cecp_out.c - what the CECP front-end writes: the feature lines of
 * the handshake (the options as `feature option=`), thinking output, notices,
 * and the reasons of results.
 *
 * XBoard reads engine lines loosely (backend.c, HandleMachineMove): a line
 * starting "White" or "Black", or holding "Draw", ends the game, and an
 * "Error" line holding "draw" turns off draw offers. So free text is written
 * lower case, with "draw" masked, and "# " comments are written only while
 * feature debug=1 stands (XBoard then ignores them). Its lines are read into
 * buffers of 512 bytes: thinking output stays below that.
 */
#include "protocol_cecp_out.h"

#include <inttypes.h>
#include <string.h>

#include "engine/engine.h"
#include "board/move.h"
#include "engine/version.h"
#include "protocol_options.h"
#include "protocol_out.h"

enum {
    CECP_MATE = 100000,      /* "mate in N moves" is 100000 + N */
    CECP_BAN_CP = 19999,     /* a rule win/loss shown as a huge centipawn score */
    CECP_LINE_MAX = 480,     /* below XBoard's MSG_SIZ (512) */
    CECP_PV_MAX = 320,       /* PV text in a thinking line */
    CS_PER_MS = 10,          /* thinking output counts centiseconds */
    LEVEL_DEFAULT_MPS = 40,  /* before any level: 40 moves in 5 minutes, XBoard's default */
    LEVEL_DEFAULT_MS = 5 * 60 * 1000,
};


/* Initialises the CECP state: force mode, default level, post off. */
void cecp_init(Cecp *c)
{
    memset(c, 0, sizeof *c);
    c->engine_side = CECP_NONE;
    c->comments = true;
    atomic_init(&c->post, false);
    atomic_init(&c->all_lines, false);
    c->mps = LEVEL_DEFAULT_MPS;
    c->base_ms = LEVEL_DEFAULT_MS;
    c->level_move = 1;
    c->time_ms = c->otim_ms = -1;
}

/* A notice as "# text" (only while XBoard ignores such lines), an error as "tellusererror text". */
void cecp_message(Proto *p, const char *text)
{
    static const char ERROR_PREFIX[] = "error: ";
    char buf[CECP_LINE_MAX];
    bool error = strncmp(text, ERROR_PREFIX, sizeof ERROR_PREFIX - 1) == 0;
    snprintf(buf, sizeof buf, "%s", error ? text + sizeof ERROR_PREFIX - 1 : text);
    static const char *const XBOARD_ACTS_ON[] = { "draw", NULL }; /* XBoard acts on the word in free text */
    out_mask_words(buf, XBOARD_ACTS_ON);
    if (error)
        out_line(&p->out, "tellusererror %s", buf);
    else if (p->cecp.comments)
        out_line(&p->out, "# %s", buf);
}

/* Prints one `feature option="..."` line per option CECP shows. */
static void cecp_options(Proto *p)
{
    for (int i = 0; i < OPT_COUNT; i++) {
        OptView v;
        if (!opt_view(i, DIALECT_CECP, &v))
            continue;
        char line[CECP_LINE_MAX];
        size_t n = 0;
        out_append(line, sizeof line, &n, "feature option=\"%s ", v.name);
        if (strcmp(v.type, "spin") == 0) {
            out_append(line, sizeof line, &n, "-spin %lld %lld %lld", (long long)v.def, (long long)v.min,
                       (long long)v.max);
        } else if (strcmp(v.type, "check") == 0) {
            out_append(line, sizeof line, &n, "-check %d", v.def ? 1 : 0);
        } else if (strcmp(v.type, "combo") == 0) {
            out_append(line, sizeof line, &n, "-combo");
            for (int k = 0; v.vars[k]; k++)
                out_append(line, sizeof line, &n, "%s%s%s", k ? " /// " : " ",
                           strcmp(v.vars[k], v.def_text) == 0 ? "*" : "", v.vars[k]);
        } else if (strcmp(v.type, "string") == 0) {
            out_append(line, sizeof line, &n, "%s %s", strstr(v.name, "File") ? "-file" : "-string", v.def_text);
        } else {
            out_append(line, sizeof line, &n, "-button");
        }
        out_append(line, sizeof line, &n, "\"");
        out_line(&p->out, "%s", line);
    }
}

/* The handshake after `protover`: done=0, the features, the options, done=1. */
void cecp_features(Proto *p)
{
    out_line(&p->out, "feature done=0");
    out_line(&p->out, "feature myname=\"%s\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 "
                      "playother=1 colors=0 san=0 time=1 draw=1 analyze=1 reuse=1 sigint=0 sigterm=0",
             version_engine_name());
    out_line(&p->out, "feature memory=1 smp=%d debug=1 nps=0 pause=0 ics=0 name=0 exclude=0 setscore=0 egt=\"xiangqi\"",
             ENGINE_THREADS_MAX > 1);
    cecp_options(p);
    out_line(&p->out, "feature done=1");
}

/* The score in XBoard's convention: centipawns, mates as +-(100000 + moves). */
static int score_cecp(int s)
{
    int sign = s < 0 ? -1 : 1, a = s < 0 ? -s : s;
    if (score_is_mate(s))
        return sign * (CECP_MATE + (SCORE_MATE - a + 1) / 2);
    if (score_is_ban(s))
        return sign * (CECP_BAN_CP - (SCORE_BAN - a));
    return s;
}

/* Search-thread callback: one thinking line, while post is on; none without a PV. With MultiPV, a game's
 * thinking shows the first line only (XBoard takes the last line for the engine's move and score); the
 * analysis shows them all. */
void cecp_report(Proto *p, const Position *root, const SearchReport *r)
{
    (void)root;
    if (!atomic_load(&p->cecp.post) || r->pv_len == 0 || (r->multipv > 1 && !atomic_load(&p->cecp.all_lines)))
        return;
    char pv[CECP_PV_MAX];
    out_pv_text(r, pv, sizeof pv);
    int64_t t = r->time_ms > 0 ? r->time_ms : 0;
    uint64_t nps = t > 0 ? r->nodes * 1000 / (uint64_t)t : r->nodes * 1000;
    /* a fail low is an upper bound ("?"), a fail high a lower bound ("!") */
    const char *bound = r->bound == BOUND_UPPER ? "?" : r->bound == BOUND_LOWER ? "!" : "";
    /* XBoard's extended thinking line: "ply score time nodes seldepth nps tbhits<TAB>pv" */
    out_line(&p->out, "%d %d %" PRId64 " %" PRIu64 " %d %" PRIu64 " %" PRIu64 "\t%s%s", r->depth,
             score_cecp(r->score), t / CS_PER_MS, r->nodes, r->seldepth, nps, r->tbhits, pv + 1, bound);
}

/* Search-thread callback: one thinking line per book move while post is on ("0 weight 0 0 0 0 0<TAB>move"). */
void cecp_book(Proto *p, const BookMove *moves, int n, Move chosen)
{
    (void)chosen;
    if (!atomic_load(&p->cecp.post))
        return;
    for (int i = 0; i < n; i++) {
        char m[MOVE_TEXT];
        out_line(&p->out, "0 %u 0 0 0 0 0\t%s", (unsigned)moves[i].weight, move_to_text(moves[i].move, m));
    }
}

/* `bk`: the book moves of the game's position, each with its share of the choice, then an empty line. */
void cecp_bk(Proto *p)
{
    BookMove moves[BOOK_MOVES_MAX];
    /* while pondering, the root has the guessed reply played: the user's position is one ply back */
    bool guessed = p->cecp.search == CECP_PONDER && p->cecp.guess != MOVE_NONE;
    int n = engine_book_moves(p->engine, guessed ? 1 : 0, moves);
    unsigned long total = 0;
    for (int i = 0; i < n; i++)
        total += moves[i].weight;
    if (n == 0)
        out_line(&p->out, " %s", engine_position_ok(p->engine) ? "no book move in this position" : "no valid position");
    for (int i = 0; i < n; i++) {
        char m[MOVE_TEXT];
        out_line(&p->out, " %s %lu%% (weight %u)", move_to_text(moves[i].move, m),
                 total ? (100UL * moves[i].weight + total / 2) / total : 0UL, (unsigned)moves[i].weight);
    }
    if (n > 0 && !p->value[OPT_USEBOOK])
        out_line(&p->out, " the book is off (option OwnBook): the engine searches");
    out_line(&p->out, "%s", "");
}

/* Writes why the rules ended the game into buf. */
void cecp_reason(const RulesReport *r, int loser, bool in_check, char *buf, size_t size)
{
    static const char *const SIDE[2] = { "red", "black" };
    const char *who = SIDE[loser];
    switch (r->reason) {
    case REASON_NO_LEGAL_MOVE: snprintf(buf, size, "%s is %s", who, in_check ? "checkmated" : "stalemated"); break;
    case REASON_PERPETUAL_CHECK: snprintf(buf, size, "%s checks perpetually", who); break;
    case REASON_PERPETUAL_CHASE: snprintf(buf, size, "%s chases perpetually", who); break;
    case REASON_PERPETUAL_THREAT: snprintf(buf, size, "%s threatens mate perpetually", who); break;
    case REASON_PERPETUAL_ATTACK: snprintf(buf, size, "%s attacks perpetually", who); break;
    case REASON_DEAD_POSITION: snprintf(buf, size, "dead position"); break;
    case REASON_MUTUAL_CHECK:
    case REASON_MUTUAL_CHASE:
    case REASON_REPETITION: snprintf(buf, size, "repetition"); break;
    case REASON_QUIET_LIMIT: snprintf(buf, size, "60 moves without a capture"); break;
    default: snprintf(buf, size, "%s loses by rule", who); break;
    }
}
