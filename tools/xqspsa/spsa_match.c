/* spsa_match.c - an SPSA iteration's games through the xqmatch program (spsa_match.h). */
#define _POSIX_C_SOURCE 200809L
#include "spsa_match.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "book/book_move.h"

enum {
    OPENING_LINE_MAX = 4096,
    OPTION_ARG_MAX = SPSA_NAME_MAX + 32,
    ARGS_FIXED = 16, /* the program, two -engine name=..., the limit, openings, rounds, concurrency, -quiet, NULL */
    ARGS_MAX = ARGS_FIXED + 2 * (SETTING_LIST_MAX + SPSA_PARAMS_MAX) + SETTING_LIST_MAX,
    EXEC_FAILED = 127, /* the child's exit status when xqmatch could not be run */
    OUTPUT_TAIL = 600, /* bytes of xqmatch's output quoted when it fails */
};

static const uint64_t OPENINGS_SALT = 0x6f70656e696e6773ULL; /* the openings' order: its own stream of the seed */

/* Reads the openings' lines (blank and comment lines dropped) into m; false with msg. */
static bool read_openings(SpsaMatch *m, const char *path, char *msg, size_t msg_size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, msg_size, "%s: %s", path, strerror(errno));
        return false;
    }
    char line[OPENING_LINE_MAX];
    int cap = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *text = line + strspn(line, " \t");
        if (!*text || *text == '#')
            continue;
        if (m->opening_count == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(m->opening, sizeof *grown * (size_t)cap);
            ok = grown != NULL;
            m->opening = ok ? grown : m->opening;
        }
        if (ok && (m->opening[m->opening_count] = strdup(text)) != NULL)
            m->opening_count++;
        else
            ok = false;
    }
    fclose(f);
    if (!ok)
        snprintf(msg, msg_size, "out of memory reading %s", path);
    else if (m->opening_count == 0)
        snprintf(msg, msg_size, "%s: no opening in it", path);
    return ok && m->opening_count > 0;
}

/* Shuffles the openings by the session's seed (Fisher-Yates). */
static void order_openings(SpsaMatch *m, uint64_t seed)
{
    uint64_t rng = seed ^ OPENINGS_SALT;
    for (int i = m->opening_count - 1; i > 0; i--) {
        int j = (int)(book_random(&rng) % (uint64_t)(i + 1));
        char *t = m->opening[i];
        m->opening[i] = m->opening[j];
        m->opening[j] = t;
    }
}

/* Prepares a session's iterations. */
bool spsa_match_init(SpsaMatch *m, const SpsaSettings *set, const char *state_path, const char *self_dir, char *msg,
                     size_t msg_size)
{
    memset(m, 0, sizeof *m);
    m->set = set;
    if (set->xqmatch[0])
        snprintf(m->xqmatch, sizeof m->xqmatch, "%s", set->xqmatch);
    else if (self_dir && snprintf(m->xqmatch, sizeof m->xqmatch, "%s/xqmatch", self_dir) < (int)sizeof m->xqmatch
             && access(m->xqmatch, X_OK) == 0)
        ; /* built beside xqspsa (build/tools/), or installed beside it */
    else
        snprintf(m->xqmatch, sizeof m->xqmatch, "xqmatch"); /* from PATH */
    if (snprintf(m->openings_path, sizeof m->openings_path, "%s.openings", state_path)
        >= (int)sizeof m->openings_path) {
        snprintf(msg, msg_size, "state path too long");
        return false;
    }
    if (!set->openings[0])
        return true;
    if (!read_openings(m, set->openings, msg, msg_size)) {
        spsa_match_free(m);
        return false;
    }
    order_openings(m, set->seed);
    return true;
}

/* Frees the openings and removes the iteration's opening file. */
void spsa_match_free(SpsaMatch *m)
{
    for (int i = 0; i < m->opening_count; i++)
        free(m->opening[i]);
    free(m->opening);
    m->opening = NULL;
    m->opening_count = 0;
    if (m->openings_path[0])
        remove(m->openings_path);
}

/* Writes the openings of pairs first..first+pairs-1 (one a pair: xqmatch plays each twice, colours swapped). */
static bool write_openings(const SpsaMatch *m, int64_t first, int pairs, char *msg, size_t msg_size)
{
    FILE *f = fopen(m->openings_path, "w");
    if (!f) {
        snprintf(msg, msg_size, "%s: %s", m->openings_path, strerror(errno));
        return false;
    }
    for (int j = 0; j < pairs; j++)
        fprintf(f, "%s\n", m->opening[(first + j) % m->opening_count]);
    if (fclose(f) != 0) {
        snprintf(msg, msg_size, "%s: %s", m->openings_path, strerror(errno));
        return false;
    }
    return true;
}

/* The arguments of one -engine: its name, the session's engine settings, the options' values. */
static int engine_args(const SpsaMatch *m, const Spsa *s, const char *name, const int *values,
                       char (*option)[OPTION_ARG_MAX], char **argv, int argc)
{
    argv[argc++] = "-engine";
    argv[argc++] = (char *)name;
    for (int i = 0; i < m->set->engine_count; i++)
        argv[argc++] = (char *)m->set->engine[i];
    for (int i = 0; i < s->count; i++) {
        snprintf(option[i], OPTION_ARG_MAX, "option.%s=%d", s->param[i].name, values[i]);
        argv[argc++] = option[i];
    }
    return argc;
}

/* Appends text to the growing buffer *buf (length *len, capacity *cap); false when out of memory. */
static bool buf_append(char **buf, size_t *len, size_t *cap, const char *text, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t want = (*len + n + 1) * 2;
        char *grown = realloc(*buf, want);
        if (!grown)
            return false;
        *buf = grown;
        *cap = want;
    }
    memcpy(*buf + *len, text, n);
    *len += n;
    (*buf)[*len] = '\0';
    return true;
}

/* Runs argv (searched in PATH when it has no '/'), its stdout and stderr collected into *out (malloc'd);
 * *status is its wait status. False with msg when it could not be started. */
static bool run_capture(char *const argv[], char **out, int *status, char *msg, size_t msg_size)
{
    int fds[2];
    *out = NULL;
    if (pipe(fds) != 0) {
        snprintf(msg, msg_size, "pipe: %s", strerror(errno));
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(msg, msg_size, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        _exit(EXEC_FAILED);
    }
    close(fds[1]);
    size_t len = 0, cap = 0;
    char chunk[4096];
    bool ok = true;
    for (;;) {
        ssize_t n = read(fds[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        ok &= buf_append(out, &len, &cap, chunk, (size_t)n);
    }
    close(fds[0]);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    if (ok && !*out)
        ok = buf_append(out, &len, &cap, "", 0);
    if (!ok) {
        free(*out);
        *out = NULL;
        snprintf(msg, msg_size, "out of memory reading xqmatch's output");
    }
    return ok;
}

/* Counts the abnormal endings of an xqmatch "endings:" line into note. */
static void note_abnormal(const char *endings, char *note, size_t size)
{
    static const char *const ABNORMAL[] = { "illegal move", "crash", "hang", "time forfeit", "no move" };
    size_t n = 0;
    note[0] = '\0';
    for (size_t i = 0; i < sizeof ABNORMAL / sizeof ABNORMAL[0]; i++) {
        const char *at = strstr(endings, ABNORMAL[i]);
        if (at && at[strlen(ABNORMAL[i])] == ' ' && n < size) {
            int count = atoi(at + strlen(ABNORMAL[i]) + 1);
            int w = snprintf(note + n, size - n, "%s%s %d", n ? ", " : "", ABNORMAL[i], count);
            n += w > 0 ? (size_t)w : 0;
        }
    }
}

/* Reads the result of the iteration's pairs from xqmatch's summary. */
bool spsa_match_parse(const char *output, int pairs, SpsaGames *out, char *msg, size_t msg_size)
{
    static const char SUMMARY[] = "\nplus vs minus: ";
    memset(out, 0, sizeof *out);
    const char *at = strstr(output, SUMMARY);
    int games = 0;
    if (!at
        || sscanf(at + strlen(SUMMARY), "%d games, W %d L %d D %d", &games, &out->wins, &out->losses, &out->draws)
               != 4) {
        snprintf(msg, msg_size, "xqmatch printed no result");
        return false;
    }
    const char *endings = strstr(at, "\n  endings:");
    char line[512] = "";
    if (endings)
        snprintf(line, sizeof line, "%.*s", (int)strcspn(endings + 1, "\n"), endings + 1);
    if (strstr(line, "start failure") || strstr(output, "could not be played")) {
        snprintf(msg, msg_size, "an engine did not start (xqmatch: %s)",
                 line[0] ? line + 2 : "a game could not be played");
        return false;
    }
    if (games != 2 * pairs || out->wins + out->losses + out->draws != games) {
        snprintf(msg, msg_size, "xqmatch played %d games of %d", games, 2 * pairs);
        return false;
    }
    note_abnormal(line, out->note, sizeof out->note);
    return true;
}

/* Plays the iteration's pairs with xqmatch. */
bool spsa_match_play(void *ctx, const Spsa *s, const SpsaProbe *probe, int pairs, SpsaGames *out, char *msg,
                     size_t msg_size)
{
    const SpsaMatch *m = ctx;
    const SpsaSettings *set = m->set;
    char option[2][SPSA_PARAMS_MAX][OPTION_ARG_MAX];
    char *argv[ARGS_MAX], limit[24], rounds[24], concurrency[24];
    int argc = 0;
    argv[argc++] = (char *)m->xqmatch;
    argc = engine_args(m, s, "name=plus", probe->plus, option[0], argv, argc);
    argc = engine_args(m, s, "name=minus", probe->minus, option[1], argv, argc);
    snprintf(limit, sizeof limit, "-%s", set->limit);
    snprintf(rounds, sizeof rounds, "%d", pairs);
    snprintf(concurrency, sizeof concurrency, "%d", set->concurrency);
    argv[argc++] = limit;
    argv[argc++] = (char *)set->limit_value;
    if (m->opening_count) {
        if (!write_openings(m, s->iter, pairs, msg, msg_size))
            return false;
        argv[argc++] = "-openings";
        argv[argc++] = (char *)m->openings_path;
    }
    argv[argc++] = "-rounds";
    argv[argc++] = rounds;
    argv[argc++] = "-concurrency";
    argv[argc++] = concurrency;
    argv[argc++] = "-quiet";
    for (int i = 0; i < set->extra_count; i++)
        argv[argc++] = (char *)set->extra[i];
    argv[argc] = NULL;
    char *output;
    int status = 0;
    if (!run_capture(argv, &output, &status, msg, msg_size))
        return false;
    bool ok = false;
    size_t len = strlen(output);
    const char *tail = output + (len > OUTPUT_TAIL ? len - OUTPUT_TAIL : 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == EXEC_FAILED && len == 0)
        snprintf(msg, msg_size, "cannot run %s (give -xqmatch PATH)", m->xqmatch);
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        snprintf(msg, msg_size, "%s failed (%s %d); its last words:\n%s", m->xqmatch,
                 WIFEXITED(status) ? "exit status" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), tail);
    else
        ok = spsa_match_parse(output, pairs, out, msg, msg_size);
    free(output);
    return ok;
}
