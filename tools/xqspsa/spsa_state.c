/* spsa_state.c - the session's state file (spsa_state.h). */
#define _POSIX_C_SOURCE 200809L /* fsync, fileno */
#include "spsa_state.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spsa_config.h"

#define STATE_MAGIC "xqspsa-state 1"

enum { STATE_LINE_MAX = 2048, STATE_PATH_MAX = 4096 };

/* The keys every state has (their bit in a mask of keys seen). */
enum {
    SEEN_LIMIT = 1 << 0,
    SEEN_CONCURRENCY = 1 << 1,
    SEEN_BATCH = 1 << 2,
    SEEN_SEED = 1 << 3,
    SEEN_PAIRS = 1 << 4,
    SEEN_ALPHA = 1 << 5,
    SEEN_GAMMA = 1 << 6,
    SEEN_A = 1 << 7,
    SEEN_ITER = 1 << 8,
    SEEN_ITERATIONS = 1 << 9,
    SEEN_WINS = 1 << 10,
    SEEN_LOSSES = 1 << 11,
    SEEN_DRAWS = 1 << 12,
    SEEN_RNG = 1 << 13,
    SEEN_ALL = (1 << 14) - 1,
};

/* Does any text value hold a line break (it could not be read back)? */
static bool settings_have_break(const SpsaSettings *set)
{
    bool found = strpbrk(set->openings, "\r\n") || strpbrk(set->xqmatch, "\r\n") || strpbrk(set->config, "\r\n")
                 || strpbrk(set->limit_value, "\r\n");
    for (int i = 0; i < set->engine_count; i++)
        found |= strpbrk(set->engine[i], "\r\n") != NULL;
    for (int i = 0; i < set->extra_count; i++)
        found |= strpbrk(set->extra[i], "\r\n") != NULL;
    return found;
}

/* Writes the state's lines to f. */
static void state_write(FILE *f, const SpsaRun *run)
{
    const SpsaSettings *set = &run->set;
    const Spsa *s = &run->spsa;
    fprintf(f,
            STATE_MAGIC "\n# an xqspsa session, written after every iteration; continue it with xqspsa -resume FILE\n");
    if (set->config[0])
        fprintf(f, "config %s\n", set->config);
    for (int i = 0; i < set->engine_count; i++)
        fprintf(f, "engine %s\n", set->engine[i]);
    fprintf(f, "limit %s %s\n", set->limit, set->limit_value);
    if (set->openings[0])
        fprintf(f, "openings %s\n", set->openings);
    fprintf(f, "concurrency %d\nbatch %d\nseed %" PRIu64 "\n", set->concurrency, set->batch, set->seed);
    if (set->xqmatch[0])
        fprintf(f, "xqmatch %s\n", set->xqmatch);
    for (int i = 0; i < set->extra_count; i++)
        fprintf(f, "arg %s\n", set->extra[i]);
    fprintf(f, "pairs_total %" PRId64 "\nalpha %.17g\ngamma %.17g\nA %.17g\n", s->pairs_total, s->alpha, s->gamma,
            s->big_a);
    fprintf(f, "iter %" PRId64 "\niterations %" PRId64 "\nwins %" PRId64 "\nlosses %" PRId64 "\ndraws %" PRId64 "\n",
            s->iter, s->iterations, s->wins, s->losses, s->draws);
    fprintf(f, "rng %" PRIu64 "\n", s->rng);
    for (int i = 0; i < s->count; i++) {
        const SpsaParam *p = &s->param[i];
        fprintf(f, "param %s %.17g %.17g %.17g %.17g %.17g %.17g\n", p->name, p->start, p->min, p->max, p->c_end,
                p->r_end, p->theta);
    }
}

/* Writes the state to path.tmp, then renames it over path. */
bool spsa_state_save(const char *path, const SpsaRun *run, char *msg, size_t msg_size)
{
    if (settings_have_break(&run->set)) {
        snprintf(msg, msg_size, "a setting holds a line break; the state could not be read back");
        return false;
    }
    char tmp[STATE_PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        snprintf(msg, msg_size, "state path too long");
        return false;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(msg, msg_size, "%s: %s", tmp, strerror(errno));
        return false;
    }
    state_write(f, run);
    bool ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
    int err = errno;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(msg, msg_size, "%s: %s", ok ? path : tmp, strerror(ok ? errno : err));
        remove(tmp);
        return false;
    }
    return true;
}

/* Parses a whole unsigned number. */
static bool parse_u64(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || *text == '-')
        return false;
    *out = v;
    return true;
}

/* Copies value into a text setting; false if it does not fit. */
static bool set_text(char *dst, size_t size, const char *value) { return snprintf(dst, size, "%s", value) < (int)size; }

/* Reads `param NAME start min max c_end r_end theta` into s. */
static bool read_param(Spsa *s, const char *value, char *why, size_t why_size)
{
    enum { PARAM_TOKENS = 7 };
    if (s->count == SPSA_PARAMS_MAX) {
        snprintf(why, why_size, "more than %d parameters", SPSA_PARAMS_MAX);
        return false;
    }
    int tokens = 0;
    for (const char *c = value; *c; c++)
        tokens += *c != ' ' && (c == value || c[-1] == ' ');
    const char *last = strrchr(value, ' ');
    char inputs[STATE_LINE_MAX];
    if (tokens != PARAM_TOKENS || strchr(value, ',') || !last
        || snprintf(inputs, sizeof inputs, "%.*s", (int)(last - value), value) >= (int)sizeof inputs) {
        snprintf(why, why_size, "want 'param NAME start min max c_end r_end theta'");
        return false;
    }
    SpsaParam *p = &s->param[s->count];
    if (spsa_config_line(inputs, p, why, why_size) != 1)
        return false;
    if (!spsa_parse_real(last + 1, &p->theta) || p->theta < p->min || p->theta > p->max) {
        snprintf(why, why_size, "%s: theta '%.40s' is not a number within min and max", p->name, last + 1);
        return false;
    }
    for (int i = 0; i < s->count; i++)
        if (strcmp(s->param[i].name, p->name) == 0) {
            snprintf(why, why_size, "%s is given twice", p->name);
            return false;
        }
    s->count++;
    return true;
}

/* Reads one `key value` line into run; false with why on an error. *seen collects the keys read. */
static bool read_line(SpsaRun *run, const char *key, const char *value, unsigned *seen, char *why, size_t why_size)
{
    SpsaSettings *set = &run->set;
    Spsa *s = &run->spsa;
    int64_t n = 0;
    bool ok = true;
    if (strcmp(key, "engine") == 0 || strcmp(key, "arg") == 0) {
        bool engine = key[0] == 'e';
        int *count = engine ? &set->engine_count : &set->extra_count;
        char(*list)[SETTING_TEXT_MAX] = engine ? set->engine : set->extra;
        ok = *count < SETTING_LIST_MAX && set_text(list[*count], SETTING_TEXT_MAX, value);
        *count += ok;
    } else if (strcmp(key, "limit") == 0) {
        const char *sp = strchr(value, ' ');
        ok = sp && (size_t)(sp - value) < sizeof set->limit
             && set_text(set->limit_value, sizeof set->limit_value, sp + 1);
        if (ok)
            snprintf(set->limit, sizeof set->limit, "%.*s", (int)(sp - value), value);
        *seen |= SEEN_LIMIT;
    } else if (strcmp(key, "openings") == 0) {
        ok = set_text(set->openings, sizeof set->openings, value);
    } else if (strcmp(key, "xqmatch") == 0) {
        ok = set_text(set->xqmatch, sizeof set->xqmatch, value);
    } else if (strcmp(key, "config") == 0) {
        ok = set_text(set->config, sizeof set->config, value);
    } else if (strcmp(key, "concurrency") == 0 || strcmp(key, "batch") == 0) {
        ok = spsa_parse_int(value, 1, 100000, &n);
        *(key[0] == 'c' ? &set->concurrency : &set->batch) = (int)n;
        *seen |= key[0] == 'c' ? SEEN_CONCURRENCY : SEEN_BATCH;
    } else if (strcmp(key, "seed") == 0 || strcmp(key, "rng") == 0) {
        ok = parse_u64(value, key[0] == 's' ? &set->seed : &s->rng);
        *seen |= key[0] == 's' ? SEEN_SEED : SEEN_RNG;
    } else if (strcmp(key, "alpha") == 0 || strcmp(key, "gamma") == 0 || strcmp(key, "A") == 0) {
        double *d = key[0] == 'a' ? &s->alpha : key[0] == 'g' ? &s->gamma : &s->big_a;
        ok = spsa_parse_real(value, d) && *d >= 0;
        *seen |= key[0] == 'a' ? SEEN_ALPHA : key[0] == 'g' ? SEEN_GAMMA : SEEN_A;
    } else if (strcmp(key, "param") == 0) {
        return read_param(s, value, why, why_size);
    } else {
        static const char *const COUNTS[] = { "pairs_total", "iter", "iterations", "wins", "losses", "draws" };
        static const unsigned BITS[] = { SEEN_PAIRS, SEEN_ITER, SEEN_ITERATIONS, SEEN_WINS, SEEN_LOSSES, SEEN_DRAWS };
        int64_t *const fields[] = { &s->pairs_total, &s->iter, &s->iterations, &s->wins, &s->losses, &s->draws };
        for (size_t i = 0; i < sizeof COUNTS / sizeof COUNTS[0]; i++)
            if (strcmp(key, COUNTS[i]) == 0) {
                *seen |= BITS[i];
                if (!spsa_parse_int(value, 0, INT64_MAX, fields[i])) {
                    snprintf(why, why_size, "bad %.20s '%.40s'", key, value);
                    return false;
                }
                return true;
            }
        snprintf(why, why_size, "unknown key '%.40s'", key);
        return false;
    }
    if (!ok)
        snprintf(why, why_size, "bad %.20s '%.60s'", key, value);
    return ok;
}

/* Checks what no single line can: every key there, the counts consistent. */
static bool state_consistent(const SpsaRun *run, unsigned seen, char *why, size_t why_size)
{
    const Spsa *s = &run->spsa;
    if (seen != SEEN_ALL || run->set.engine_count == 0 || s->count == 0)
        snprintf(why, why_size, "the state is not whole (a key is missing: engine, limit, param, ...)");
    else if (s->pairs_total < 1 || s->iter > s->pairs_total || s->wins + s->losses + s->draws != 2 * s->iter)
        snprintf(why, why_size, "pairs_total, iter and the results do not agree");
    else
        return true;
    return false;
}

/* Reads a state file. */
bool spsa_state_load(const char *path, SpsaRun *run, char *msg, size_t msg_size)
{
    memset(run, 0, sizeof *run);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, msg_size, "%s: %s", path, strerror(errno));
        return false;
    }
    char line[STATE_LINE_MAX], why[256] = "";
    unsigned seen = 0;
    int number = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        number++;
        size_t len = strcspn(line, "\r\n");
        if (!line[len] && !feof(f)) {
            snprintf(why, sizeof why, "line longer than %d bytes", STATE_LINE_MAX - 2);
            ok = false;
            break;
        }
        line[len] = '\0';
        if (number == 1) {
            ok = strcmp(line, STATE_MAGIC) == 0;
            snprintf(why, sizeof why, "not an xqspsa state (its first line is not '" STATE_MAGIC "')");
            continue;
        }
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *sp = strchr(line, ' ');
        if (!sp) {
            snprintf(why, sizeof why, "want 'key value'");
            ok = false;
            break;
        }
        *sp = '\0';
        ok = read_line(run, line, sp + 1, &seen, why, sizeof why);
    }
    fclose(f);
    if (!ok) {
        snprintf(msg, msg_size, "%s:%d: %s", path, number, why);
        return false;
    }
    if (number == 0 || !state_consistent(run, seen, why, sizeof why)) {
        snprintf(msg, msg_size, "%s: %s", path, number == 0 ? "empty file" : why);
        return false;
    }
    spsa_schedule(&run->spsa);
    return true;
}
