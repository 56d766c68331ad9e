/*
 * protocol.c - the UCCI / UCI / UCI-ranks-1-10 adapter: handshake, options,
 * position and go commands, and reading bestmove and scores.
 */
#include "engine_client.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/platform.h"
#include "board/position.h"

enum { POSITION_CMD_MAX = 32768, REPLY_LINE_MAX = PROC_LINE_MAX };

/* Parses a protocol name. */
bool protocol_parse(const char *text, Protocol *out)
{
    if (strcmp(text, "ucci") == 0)
        *out = PROTO_UCCI;
    else if (strcmp(text, "uci") == 0)
        *out = PROTO_UCI;
    else if (strcmp(text, "uci10") == 0)
        *out = PROTO_UCI10;
    else
        return false;
    return true;
}

/* Name of a protocol. */
const char *protocol_name(Protocol p)
{
    return p == PROTO_UCCI ? "ucci" : p == PROTO_UCI ? "uci" : "uci10";
}

/* Converts 0-9 ranks to 1-10 ranks. */
char *move_to_uci10(const char *iccs, char *out, size_t size)
{
    if (strlen(iccs) != 4) {
        snprintf(out, size, "%s", iccs);
        return out;
    }
    if (snprintf(out, size, "%c%d%c%d", iccs[0], iccs[1] - '0' + 1, iccs[2], iccs[3] - '0' + 1) < 0)
        out[0] = '\0';
    return out;
}

/* Reads one square of ranks 1-10 text; returns characters used or 0. */
static int parse_sq10(const char *s, char *file, char *rank)
{
    if (s[0] < 'a' || s[0] > 'i' || !isdigit((unsigned char)s[1]))
        return 0;
    int r = s[1] - '0', used = 2;
    if (isdigit((unsigned char)s[2]) && r == 1 && s[2] == '0') {
        r = 10;
        used = 3;
    }
    if (r < 1 || r > 10)
        return 0;
    *file = s[0];
    *rank = (char)('0' + r - 1);
    return used;
}

/* Converts 1-10 ranks to 0-9 ranks. */
bool move_from_uci10(const char *text, char out[MOVE_TEXT_MAX])
{
    char f1, r1, f2, r2;
    int a = parse_sq10(text, &f1, &r1);
    if (!a)
        return false;
    int b = parse_sq10(text + a, &f2, &r2);
    if (!b || text[a + b] != '\0')
        return false;
    out[0] = f1; out[1] = r1; out[2] = f2; out[3] = r2; out[4] = '\0';
    return true;
}

/* Waits for a line equal to `want` (first word); false on timeout or EOF. */
static bool wait_for(Engine *e, const char *want, int64_t deadline, char *msg, size_t msg_size,
                     bool *saw_millisec)
{
    char line[REPLY_LINE_MAX];
    size_t n = strlen(want);
    for (;;) {
        ProcRead r = proc_read_line(&e->proc, line, sizeof line, deadline);
        if (r == PROC_TIMEOUT) {
            snprintf(msg, msg_size, "%s: no '%s' in time", e->cfg->name, want);
            return false;
        }
        if (r == PROC_EOF) {
            char how[64];
            proc_wait_exit(&e->proc, STOP_GRACE_MS);
            proc_describe_exit(&e->proc, how, sizeof how);
            snprintf(msg, msg_size, "%s: %s while waiting for '%s'", e->cfg->name, how, want);
            return false;
        }
        if (saw_millisec && strncmp(line, "option", 6) == 0 && strstr(line, "usemillisec"))
            *saw_millisec = true;
        if (strncmp(line, want, n) == 0 && (line[n] == '\0' || isspace((unsigned char)line[n])))
            return true;
    }
}

/* Starts the engine and does the handshake. */
bool engine_start(Engine *e, const EngineConfig *cfg, const ProcLog *log, int64_t timeout_ms,
                  char *msg, size_t msg_size)
{
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    if (!proc_start(&e->proc, cfg->cmd, cfg->dir[0] ? cfg->dir : NULL, cfg->name, log, msg, msg_size))
        return false;
    int64_t deadline = now_ms() + timeout_ms;
    bool ms = false;
    if (cfg->proto == PROTO_UCCI) {
        proc_send(&e->proc, "ucci");
        if (!wait_for(e, "ucciok", deadline, msg, msg_size, &ms))
            return false;
        e->millisec = ms;
        if (ms)
            proc_send(&e->proc, "setoption usemillisec true");
    } else {
        proc_send(&e->proc, "uci");
        if (!wait_for(e, "uciok", deadline, msg, msg_size, NULL))
            return false;
        if (cfg->proto == PROTO_UCI10)
            proc_send(&e->proc, "setoption name UCI_Variant value xiangqi");
    }
    char line[2 * OPTION_TEXT_MAX + 32];
    for (int i = 0; i < cfg->option_count; i++) {
        const EngineOption *o = &cfg->options[i];
        if (cfg->proto == PROTO_UCCI)
            snprintf(line, sizeof line, "setoption %s%s%s", o->name, o->value[0] ? " " : "", o->value);
        else if (o->value[0])
            snprintf(line, sizeof line, "setoption name %s value %s", o->name, o->value);
        else
            snprintf(line, sizeof line, "setoption name %s", o->name);
        proc_send(&e->proc, line);
    }
    proc_send(&e->proc, "isready");
    return wait_for(e, "readyok", deadline, msg, msg_size, NULL);
}

/* Starts a new game. */
bool engine_new_game(Engine *e, int64_t timeout_ms, char *msg, size_t msg_size)
{
    proc_send(&e->proc, e->cfg->proto == PROTO_UCCI ? "setoption newgame" : "ucinewgame");
    proc_send(&e->proc, "isready");
    return wait_for(e, "readyok", now_ms() + timeout_ms, msg, msg_size, NULL);
}

/* Appends text to a command buffer (silently truncating at the end). */
static void cmd_append(char *buf, size_t size, size_t *len, const char *text)
{
    int n = snprintf(buf + *len, size - *len, "%s", text);
    if (n > 0)
        *len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

/* Writes the `position` command for this engine's protocol. */
static void build_position(const Engine *e, const GameMoves *gm, char *buf, size_t size)
{
    size_t len = 0;
    int first;
    const char *fen;
    if (e->cfg->proto == PROTO_UCCI) {
        fen = gm->irrev_fen;
        first = gm->irrev_index;
    } else {
        fen = gm->start_fen;
        first = 0;
    }
    if (strcmp(fen, START_FEN) == 0) {
        cmd_append(buf, size, &len, "position startpos");
    } else {
        cmd_append(buf, size, &len, "position fen ");
        cmd_append(buf, size, &len, fen);
    }
    if (first < gm->count)
        cmd_append(buf, size, &len, " moves");
    for (int i = first; i < gm->count; i++) {
        char conv[MOVE_TEXT_MAX + 2];
        cmd_append(buf, size, &len, " ");
        if (e->cfg->proto == PROTO_UCI10)
            cmd_append(buf, size, &len, move_to_uci10(gm->moves[i], conv, sizeof conv));
        else
            cmd_append(buf, size, &len, gm->moves[i]);
    }
}

/* Converts a time for a UCCI engine (ms, or whole seconds if it never asked for ms). */
static long long ucci_time(const Engine *e, int64_t ms)
{
    if (ms < 0)
        ms = 0;
    return e->millisec ? (long long)ms : (long long)(ms / 1000);
}

/* Writes the `go` command. */
static void build_go(const Engine *e, const GoParams *go, char *buf, size_t size)
{
    bool ucci = e->cfg->proto == PROTO_UCCI;
    const char *go_word = ucci && go->draw_offered ? "go draw" : "go"; /* UCCI: go [draw] <limits> */
    switch (go->kind) {
    case GO_DEPTH:
        snprintf(buf, size, "%s depth %d", go_word, go->depth);
        return;
    case GO_NODES:
        snprintf(buf, size, "%s nodes %lld", go_word, (long long)go->nodes);
        return;
    case GO_MOVETIME:
        /* UCCI has no movetime; "time T movestogo 1" asks for one move in T. */
        if (ucci)
            snprintf(buf, size, "%s time %lld movestogo 1", go_word, ucci_time(e, go->movetime));
        else
            snprintf(buf, size, "go movetime %lld", (long long)go->movetime);
        return;
    case GO_CLOCK:
        break;
    }
    if (ucci) {
        if (go->movestogo > 0)
            snprintf(buf, size, "%s time %lld movestogo %d opptime %lld oppmovestogo %d", go_word,
                     ucci_time(e, go->own_ms), go->movestogo, ucci_time(e, go->opp_ms), go->opp_movestogo);
        else
            snprintf(buf, size, "%s time %lld increment %lld opptime %lld oppincrement %lld", go_word,
                     ucci_time(e, go->own_ms), ucci_time(e, go->own_inc), ucci_time(e, go->opp_ms),
                     ucci_time(e, go->opp_inc));
        return;
    }
    int64_t wt = go->side == RED ? go->own_ms : go->opp_ms;
    int64_t bt = go->side == RED ? go->opp_ms : go->own_ms;
    int64_t wi = go->side == RED ? go->own_inc : go->opp_inc;
    int64_t bi = go->side == RED ? go->opp_inc : go->own_inc;
    int n = snprintf(buf, size, "go wtime %lld btime %lld", (long long)(wt > 0 ? wt : 1), (long long)(bt > 0 ? bt : 1));
    if (n > 0 && (size_t)n < size && (wi > 0 || bi > 0))
        n += snprintf(buf + n, size - (size_t)n, " winc %lld binc %lld", (long long)wi, (long long)bi);
    if (n > 0 && (size_t)n < size && go->movestogo > 0)
        snprintf(buf + n, size - (size_t)n, " movestogo %d", go->movestogo);
}

/* Parses the score of an info line. */
bool protocol_parse_score(const char *line, int *score, int *depth)
{
    const char *s = strstr(line, " score ");
    const char *d = strstr(line, " depth ");
    if (d && depth)
        *depth = atoi(d + 7);
    if (!s)
        return false;
    s += 7;
    if (strncmp(s, "cp ", 3) == 0) {
        *score = atoi(s + 3);
    } else if (strncmp(s, "mate ", 5) == 0) {
        int m = atoi(s + 5);
        *score = m > 0 ? SCORE_MATE - m : m < 0 ? -SCORE_MATE - m : -SCORE_MATE;
    } else if (*s == '-' || isdigit((unsigned char)*s)) {
        *score = atoi(s);
    } else {
        return false;
    }
    return true;
}

/* Parses a bestmove line into the reply. */
static void parse_bestmove(const Engine *e, char *line, EngineReply *reply)
{
    char *save = NULL;
    strtok_r(line, " \t", &save); /* "bestmove" */
    char *mv = strtok_r(NULL, " \t", &save);
    if (!mv || strcmp(mv, "(none)") == 0 || strcmp(mv, "null") == 0 || strcmp(mv, "0000") == 0 ||
        strcmp(mv, "none") == 0) {
        reply->kind = REPLY_NOMOVE;
        return;
    }
    reply->kind = REPLY_MOVE;
    snprintf(reply->raw, sizeof reply->raw, "%s", mv);
    if (e->cfg->proto == PROTO_UCI10) {
        if (!move_from_uci10(mv, reply->move))
            snprintf(reply->move, sizeof reply->move, "%.7s", mv);
    } else {
        snprintf(reply->move, sizeof reply->move, "%.7s", mv);
    }
    for (char *t = strtok_r(NULL, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (strcmp(t, "resign") == 0)
            reply->resign = true;
        else if (strcmp(t, "draw") == 0)
            reply->draw_offer = true;
    }
}

/* Sends position and go, and waits for the answer. */
void engine_think(Engine *e, const GameMoves *gm, const GoParams *go, int64_t deadline_ms, EngineReply *reply)
{
    memset(reply, 0, sizeof *reply);
    char *cmd = malloc(POSITION_CMD_MAX);
    if (!cmd) {
        reply->kind = REPLY_CRASH;
        snprintf(reply->detail, sizeof reply->detail, "out of memory");
        return;
    }
    build_position(e, gm, cmd, POSITION_CMD_MAX);
    proc_send(&e->proc, cmd);
    build_go(e, go, cmd, POSITION_CMD_MAX);
    int64_t start = now_ms();
    bool sent = proc_send(&e->proc, cmd);
    free(cmd);
    char line[REPLY_LINE_MAX];
    for (;;) {
        ProcRead r = sent ? proc_read_line(&e->proc, line, sizeof line, deadline_ms) : PROC_EOF;
        reply->elapsed_ms = now_ms() - start;
        if (r == PROC_TIMEOUT) {
            reply->kind = REPLY_TIMEOUT;
            snprintf(reply->detail, sizeof reply->detail, "no move after %lld ms", (long long)reply->elapsed_ms);
            proc_send(&e->proc, "stop");
            return;
        }
        if (r == PROC_EOF) {
            char how[64];
            proc_wait_exit(&e->proc, STOP_GRACE_MS);
            proc_describe_exit(&e->proc, how, sizeof how);
            reply->kind = REPLY_CRASH;
            snprintf(reply->detail, sizeof reply->detail, "engine %s", how);
            return;
        }
        if (strncmp(line, "info", 4) == 0) {
            int sc;
            if (protocol_parse_score(line, &sc, &reply->depth)) {
                reply->score = sc;
                reply->has_score = true;
            }
        } else if (strcmp(line, "nobestmove") == 0) {
            reply->kind = REPLY_NOMOVE;
            return;
        } else if (strncmp(line, "bestmove", 8) == 0 && (line[8] == ' ' || line[8] == '\0')) {
            parse_bestmove(e, line, reply);
            return;
        }
    }
}

/* Quits or kills the engine. */
void engine_quit(Engine *e, bool kill_now)
{
    proc_stop(&e->proc, !kill_now);
}
