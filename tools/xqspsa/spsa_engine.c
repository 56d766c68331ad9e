/* spsa_engine.c - the engine's handshake and its options against the session's parameters (spsa_engine.h). */
#define _POSIX_C_SOURCE 200809L
#include "spsa_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/platform.h"
#include "common/engine_client.h"
#include "common/engine_proc.h"

enum { OPTIONS_MAX = 256, LIST_SHOWN = 400 };

/* A spin option the engine offers. */
typedef struct SpinOption {
    char name[SPSA_NAME_MAX];
    long long min, max;
} SpinOption;

/* The engine's settings the check needs (from the KEY=VALUE list). */
typedef struct EngineSpec {
    const char *cmd, *dir;
    Protocol proto;
    int options; /* option.NAME=VALUE settings */
} EngineSpec;

/* Reads cmd=, dir=, proto= and counts option.*; false with msg when cmd= is missing or proto= unknown. */
static bool read_spec(const SpsaSettings *set, EngineSpec *spec, char *msg, size_t msg_size)
{
    memset(spec, 0, sizeof *spec);
    spec->proto = PROTO_UCCI; /* xqmatch's default */
    for (int i = 0; i < set->engine_count; i++) {
        const char *kv = set->engine[i];
        if (strncmp(kv, "cmd=", 4) == 0)
            spec->cmd = kv + 4;
        else if (strncmp(kv, "dir=", 4) == 0)
            spec->dir = kv + 4;
        else if (strncmp(kv, "proto=", 6) == 0 && !protocol_parse(kv + 6, &spec->proto)) {
            snprintf(msg, msg_size, "unknown protocol '%s' (ucci, uci or uci10)", kv + 6);
            return false;
        } else if (strncmp(kv, "option.", 7) == 0)
            spec->options++;
    }
    if (!spec->cmd || !*spec->cmd) {
        snprintf(msg, msg_size, "the engine has no cmd= (-engine cmd=COMMAND proto=uci ...)");
        return false;
    }
    return true;
}

/* Parses a handshake line offering a spin option into *o; false for any other line. */
static bool parse_spin(const char *line, Protocol proto, SpinOption *o)
{
    const char *type = strstr(line, " type spin");
    const char *min = strstr(line, " min "), *max = strstr(line, " max ");
    if (strncmp(line, "option ", 7) != 0 || !type || !min || !max)
        return false;
    const char *name = line + 7;
    if (proto != PROTO_UCCI) {
        if (strncmp(name, "name ", 5) != 0)
            return false;
        name += 5;
    }
    int len = (int)(type - name);
    if (len <= 0 || len >= SPSA_NAME_MAX)
        return false;
    snprintf(o->name, sizeof o->name, "%.*s", len, name);
    o->min = atoll(min + 5);
    o->max = atoll(max + 5);
    return true;
}

/* Runs the handshake and collects the spin options; false with msg when the engine does not answer. */
static bool read_options(const EngineSpec *spec, SpinOption *opts, int *count, char *msg, size_t msg_size)
{
    EngineProc proc;
    char why[256];
    if (!proc_start(&proc, spec->cmd, spec->dir, "xqspsa", NULL, why, sizeof why)) {
        snprintf(msg, msg_size, "the engine '%s' did not start: %s", spec->cmd, why);
        return false;
    }
    const char *ok = spec->proto == PROTO_UCCI ? "ucciok" : "uciok";
    proc_send(&proc, spec->proto == PROTO_UCCI ? "ucci" : "uci");
    int64_t deadline = now_ms() + SPSA_ENGINE_TIMEOUT_MS;
    char line[PROC_LINE_MAX];
    ProcRead r;
    *count = 0;
    while ((r = proc_read_line(&proc, line, sizeof line, deadline)) == PROC_LINE && strcmp(line, ok) != 0)
        if (*count < OPTIONS_MAX && parse_spin(line, spec->proto, &opts[*count]))
            (*count)++;
    if (r != PROC_LINE) {
        char how[128] = "";
        if (r == PROC_EOF && proc_wait_exit(&proc, PROC_QUIT_WAIT_MS))
            proc_describe_exit(&proc, how, sizeof how);
        snprintf(msg, msg_size, "the engine '%s' did not start: %s", spec->cmd,
                 r == PROC_TIMEOUT ? "no answer to the handshake within 10 s"
                 : how[0]          ? how
                                   : "it closed its output");
    }
    proc_stop(&proc, true);
    return r == PROC_LINE;
}

/* Lists the options' names into out (cut short with "..."). */
static void list_names(const SpinOption *opts, int count, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < count && n + 4 < size; i++) {
        int w = snprintf(out + n, size - n, "%s%s", i ? ", " : "", opts[i].name);
        n += w > 0 ? (size_t)w : 0;
    }
    if (n >= size - 1 && size > 4)
        memcpy(out + size - 4, "...", 4);
    if (count == 0)
        snprintf(out, size, "none");
}

/* Checks the engine and its options. */
bool spsa_engine_check(const SpsaSettings *set, const Spsa *s, char *msg, size_t msg_size)
{
    EngineSpec spec;
    if (!read_spec(set, &spec, msg, msg_size))
        return false;
    if (s->count + spec.options > ENGINE_OPTIONS_MAX) {
        snprintf(msg, msg_size, "%d parameters and %d engine options are more than xqmatch's %d options an engine",
                 s->count, spec.options, ENGINE_OPTIONS_MAX);
        return false;
    }
    SpinOption *opts = malloc(sizeof *opts * OPTIONS_MAX);
    int count = 0;
    if (!opts) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    bool ok = read_options(&spec, opts, &count, msg, msg_size);
    for (int i = 0; ok && i < s->count; i++) {
        const SpsaParam *p = &s->param[i];
        const SpinOption *o = NULL;
        for (int k = 0; k < count && !o; k++)
            if (strcasecmp(opts[k].name, p->name) == 0)
                o = &opts[k];
        if (!o) {
            char names[LIST_SHOWN];
            list_names(opts, count, names, sizeof names);
            snprintf(msg, msg_size,
                     "%s is not a spin option of the engine (a normal build has no search options: build with "
                     "-DXQ_TUNE_SEARCH=ON); its spin options: %s",
                     p->name, names);
            ok = false;
        } else if (p->min < (double)o->min || p->max > (double)o->max) {
            snprintf(msg, msg_size, "%s: the range %g..%g reaches outside the engine's %lld..%lld", p->name, p->min,
                     p->max, o->min, o->max);
            ok = false;
        }
    }
    free(opts);
    return ok;
}
