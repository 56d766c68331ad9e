/*
 * protocol_parse.c - one UCI-family input line to a Command, without side
 * effects.
 *
 * UCI and UCCI share this grammar because GUIs mix them (docs/protocol.md
 * section 0): it accepts the union of their syntax and the mixtures GUIs send:
 * `setoption <name> [<value>]` and `setoption name <N> [value <V>]`,
 * bare `fen ...` / `startpos ...`, `go` keywords of both dialects in any
 * order, FEN tails such as "- - 0 1", "--" or gmchess's doubled tail.
 */
#include "protocol_parse.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "protocol_tok.h"

enum {
    GO_DEPTH_MAX = 127,   /* MAX_PLY - 1 */
    GO_MATE_MAX = 63,
    GO_PERFT_MAX = 10,
    GO_MOVESTOGO_MAX = 100000,
};
static const int64_t GO_TIME_MIN = -1000000000LL;      /* some GUIs send a negative clock when flagging */
static const int64_t GO_TIME_MAX = 1000000000000LL;    /* about 30 years in ms */
static const int64_t GO_NODES_MAX = INT64_MAX / 4;

/* Records a parse error (the first one wins). */
static void set_error(Command *cmd, const char *fmt, ...)
{
    if (cmd->error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd->error, sizeof cmd->error, fmt, ap);
    va_end(ap);
}

/* Is the token all digits? */
static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/*
 * Parses `{fen <FEN> | startpos} [moves m...]` from token i. The FEN keeps the
 * board, the side and the first two counters; placeholders and repeated tails
 * are dropped.
 */
static void parse_position_args(Command *cmd, int i)
{
    if (i >= cmd->n_tok) {
        set_error(cmd, "position: expected 'fen' or 'startpos'");
        return;
    }
    int end = i + 1;
    if (str_ieq(cmd->tok[i], "startpos")) {
        cmd->startpos = true;
    } else if (str_ieq(cmd->tok[i], "fen")) {
        int from = i + 1;
        while (end < cmd->n_tok && !str_ieq(cmd->tok[end], "moves"))
            end++;
        if (from >= end) {
            set_error(cmd, "position: 'fen' without a FEN");
            return;
        }
        /* board, side, then at most two numbers */
        int keep[4], n_keep = 0, numbers = 0;
        keep[n_keep++] = from;
        if (from + 1 < end)
            keep[n_keep++] = from + 1;
        for (int k = from + 2; k < end && numbers < 2; k++)
            if (all_digits(cmd->tok[k])) {
                keep[n_keep++] = k;
                numbers++;
            }
        size_t n = 1;
        for (int k = 0; k < n_keep; k++)
            n += strlen(cmd->tok[keep[k]]) + 1;
        cmd->fen = malloc(n);
        if (!cmd->fen) {
            set_error(cmd, "out of memory");
            return;
        }
        cmd->fen[0] = '\0';
        for (int k = 0; k < n_keep; k++) {
            if (k)
                strcat(cmd->fen, " ");
            strcat(cmd->fen, cmd->tok[keep[k]]);
        }
    } else {
        set_error(cmd, "position: expected 'fen' or 'startpos', got '%.40s'", cmd->tok[i]);
        return;
    }
    if (end < cmd->n_tok && str_ieq(cmd->tok[end], "moves")) {
        cmd->moves_at = end + 1;
        cmd->n_moves = cmd->n_tok - end - 1;
    } else if (end < cmd->n_tok) {
        set_error(cmd, "position: unexpected '%.40s' (expected 'moves')", cmd->tok[end]);
    }
}

/* The text of line after token k and the one blank that ends it, as typed (inner, leading and trailing blanks
 * kept), with only the line's end ('\r', '\n') trimmed; a new string, "" when nothing follows. */
static char *rest_after(const Command *cmd, const char *line, int k)
{
    size_t at = (size_t)(cmd->tok[k] - cmd->buf) + strlen(cmd->tok[k]); /* buf mirrors line byte for byte */
    if (line[at])
        at++; /* the one separator */
    size_t len = strlen(line + at);
    while (len > 0 && (line[at + len - 1] == '\r' || line[at + len - 1] == '\n'))
        len--;
    char *s = malloc(len + 1);
    if (s) {
        memcpy(s, line + at, len);
        s[len] = '\0';
    }
    return s;
}

/* Parses `setoption` in either form: UCI "name <N...> [value <V>]" or UCCI "<name> [<V>]"; V is the rest of
 * the line as typed (rest_after), so that a file name with two spaces, a tab or a trailing blank survives. */
static void parse_setoption(Command *cmd, const char *line)
{
    int i = 1;
    if (i >= cmd->n_tok) {
        set_error(cmd, "setoption: no option name");
        return;
    }
    if (str_ieq(cmd->tok[i], "name") && i + 1 < cmd->n_tok) {
        int v = i + 1;
        while (v < cmd->n_tok && !str_ieq(cmd->tok[v], "value"))
            v++;
        cmd->opt_name = tokens_join(cmd->tok, i + 1, v);
        if (v < cmd->n_tok)
            cmd->opt_value = rest_after(cmd, line, v);
    } else {
        cmd->opt_name = tokens_join(cmd->tok, i, i + 1);
        if (i + 1 < cmd->n_tok) /* tolerate "setoption hashsize value 64" too */
            cmd->opt_value = rest_after(cmd, line, str_ieq(cmd->tok[i + 1], "value") && i + 2 < cmd->n_tok ? i + 1 : i);
    }
    if (!cmd->opt_name || !cmd->opt_name[0])
        set_error(cmd, "setoption: no option name");
}

/* Reads the number after keyword tok[*i] into *out with a range check; advances *i. */
static void go_number(Command *cmd, int *i, int64_t min, int64_t max, int64_t *out)
{
    const char *kw = cmd->tok[*i];
    if (*i + 1 >= cmd->n_tok) {
        set_error(cmd, "go: '%s' needs a number", kw);
        return;
    }
    const char *v = cmd->tok[++*i];
    if (!parse_i64(v, min, max, out))
        set_error(cmd, "go: bad value '%.40s' for '%s' (allowed %lld..%lld)", v, kw, (long long)min,
                  (long long)max);
}

/* Like go_number for int fields. */
static void go_int(Command *cmd, int *i, int64_t min, int64_t max, int *out)
{
    int64_t v = *out;
    go_number(cmd, i, min, max, &v);
    *out = (int)v;
}

/* Parses the keywords of `go` in any order. */
static void parse_go(Command *cmd)
{
    GoArgs *g = &cmd->go;
    g->depth = g->mate = g->movestogo = g->perft = ABSENT;
    g->nodes = g->movetime = g->time = g->increment = g->opptime = g->oppincrement = ABSENT;
    g->wtime = g->btime = g->winc = g->binc = ABSENT;
    int oppmtg = 0;
    for (int i = 1; i < cmd->n_tok && !cmd->error[0]; i++) {
        const char *t = cmd->tok[i];
        if (str_ieq(t, "ponder")) g->ponder = true;
        else if (str_ieq(t, "draw")) g->draw = true;
        else if (str_ieq(t, "infinite")) g->infinite = true;
        else if (str_ieq(t, "depth") && i + 1 < cmd->n_tok && str_ieq(cmd->tok[i + 1], "infinite")) {
            g->infinite = true; /* UCCI writes the mode "depth <d> | infinite": `go depth infinite` */
            i++;
        } else if (str_ieq(t, "depth")) go_int(cmd, &i, 0, GO_DEPTH_MAX, &g->depth);
        else if (str_ieq(t, "mate")) go_int(cmd, &i, 1, GO_MATE_MAX, &g->mate);
        else if (str_ieq(t, "perft")) go_int(cmd, &i, 1, GO_PERFT_MAX, &g->perft);
        else if (str_ieq(t, "movestogo")) go_int(cmd, &i, 0, GO_MOVESTOGO_MAX, &g->movestogo);
        else if (str_ieq(t, "oppmovestogo")) go_int(cmd, &i, 0, GO_MOVESTOGO_MAX, &oppmtg);
        else if (str_ieq(t, "nodes")) go_number(cmd, &i, 1, GO_NODES_MAX, &g->nodes);
        else if (str_ieq(t, "movetime")) go_number(cmd, &i, 0, GO_TIME_MAX, &g->movetime);
        else if (str_ieq(t, "time")) go_number(cmd, &i, GO_TIME_MIN, GO_TIME_MAX, &g->time);
        else if (str_ieq(t, "increment")) go_number(cmd, &i, GO_TIME_MIN, GO_TIME_MAX, &g->increment);
        else if (str_ieq(t, "opptime")) go_number(cmd, &i, GO_TIME_MIN, GO_TIME_MAX, &g->opptime);
        else if (str_ieq(t, "oppincrement")) go_number(cmd, &i, GO_TIME_MIN, GO_TIME_MAX, &g->oppincrement);
        else if (str_ieq(t, "wtime")) go_number(cmd, &i, GO_TIME_MIN, GO_TIME_MAX, &g->wtime);
        else if (str_ieq(t, "btime")) go_number(cmd, &i, GO_TIME_MIN, GO_TIME_MAX, &g->btime);
        else if (str_ieq(t, "winc")) go_number(cmd, &i, GO_TIME_MIN, GO_TIME_MAX, &g->winc);
        else if (str_ieq(t, "binc")) go_number(cmd, &i, GO_TIME_MIN, GO_TIME_MAX, &g->binc);
        else if (str_ieq(t, "searchmoves")) {
            Move m;
            g->searchmoves_at = i + 1;
            g->n_searchmoves = 0; /* a repeated keyword: the last list wins, as for every keyword */
            while (i + 1 < cmd->n_tok && strlen(cmd->tok[i + 1]) == 4 && move_from_text(cmd->tok[i + 1], &m)) {
                i++;
                g->n_searchmoves++;
            }
        }
        else if (g->n_unknown++ == 0)
            g->unknown_at = i; /* ignored (GUIs add their own keywords), and said so when the search starts */
    }
    if (g->perft != ABSENT)
        cmd->type = CMD_PERFT;
}

/* Maps the command word to a type. */
static CmdType command_type(const char *w)
{
    static const struct { const char *word; CmdType type; } WORDS[] = {
        { "uci", CMD_UCI }, { "ucci", CMD_UCCI }, { "ucicyclone", CMD_UCI }, { "xboard", CMD_XBOARD },
        { "isready", CMD_ISREADY },
        { "setoption", CMD_SETOPTION }, { "ucinewgame", CMD_NEWGAME }, { "uccinewgame", CMD_NEWGAME },
        { "uxinewgame", CMD_NEWGAME }, { "newgame", CMD_NEWGAME }, { "position", CMD_POSITION },
        { "fen", CMD_POSITION }, { "startpos", CMD_POSITION }, { "banmoves", CMD_BANMOVES }, { "go", CMD_GO },
        { "ponderhit", CMD_PONDERHIT }, { "stop", CMD_STOP }, { "probe", CMD_PROBE }, { "quit", CMD_QUIT },
        { "exit", CMD_QUIT }, { "d", CMD_DISPLAY },
    };
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
        if (str_ieq(w, WORDS[i].word))
            return WORDS[i].type;
    return CMD_UNKNOWN;
}

/* Parses one line into cmd. */
void protocol_parse(const char *line, Command *cmd)
{
    memset(cmd, 0, sizeof *cmd);
    if (!tokens_split(line, &cmd->buf, &cmd->tok, &cmd->n_tok)) {
        cmd->type = CMD_UNKNOWN;
        set_error(cmd, "out of memory");
        return;
    }
    if (cmd->n_tok == 0) {
        cmd->type = CMD_EMPTY;
        return;
    }
    cmd->type = command_type(cmd->tok[0]);
    switch (cmd->type) {
    case CMD_POSITION:
    case CMD_PROBE:
        /* bare "fen ..." / "startpos ..." start at token 0 */
        parse_position_args(cmd, str_ieq(cmd->tok[0], "position") || cmd->type == CMD_PROBE ? 1 : 0);
        break;
    case CMD_SETOPTION: parse_setoption(cmd, line); break;
    case CMD_GO: parse_go(cmd); break;
    case CMD_PONDERHIT: cmd->ponderhit_draw = cmd->n_tok > 1 && str_ieq(cmd->tok[1], "draw"); break;
    case CMD_BANMOVES:
        cmd->ban_at = 1;
        cmd->n_ban = cmd->n_tok - 1;
        break;
    default: break;
    }
}

/* Frees what protocol_parse allocated. */
void command_free(Command *cmd)
{
    free(cmd->buf);
    free(cmd->tok);
    free(cmd->fen);
    free(cmd->opt_name);
    free(cmd->opt_value);
    memset(cmd, 0, sizeof *cmd);
}
