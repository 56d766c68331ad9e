/*
 * web.c - the browser builds' entry points. The one-thread build: a session fed one protocol line per call
 * (jj_open, jj_command, jj_close), every search run inside the call. The threaded build (XQ_WASM_WEB, compiled
 * with -pthread): the engine's own protocol loop on a thread of its own (jj_start), reading the lines pushed
 * by jj_push, its searches on threads of theirs, so `stop` and `go infinite` work. Both: jj_judge. Output goes
 * to stdout (Emscripten's print, a call per line).
 */
#define _GNU_SOURCE /* fopencookie (the pushed lines as a FILE for protocol_run), open_memstream */
#include "web.h"

#include <stdlib.h>
#include <string.h>

#include "board/square.h"
#include "rules/judge.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define WEB_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define WEB_EXPORT
#endif

/* Opens a session on stdout with no thread at all (protocol_open). */
WEB_EXPORT ProtocolSession *jj_open(void)
{
    tables_init();
    return protocol_open(stdout, NULL);
}

/* Runs one line of the session; 0 once it has quit (or when there is none). */
WEB_EXPORT int jj_command(ProtocolSession *s, const char *line) { return s && line && protocol_line(s, line); }

/* Ends the session. */
WEB_EXPORT void jj_close(ProtocolSession *s) { protocol_close(s); }

/* Runs `judge ARGS` (args split at spaces, as a shell would split unquoted words) into memory: returns its
 * output (its line, or its "error: ..." line), for the caller to free; NULL when memory runs out. It prints
 * nothing, so in the threaded build the worker's thread, to which Emscripten hands every write of the search
 * threads, never takes stdout's lock from under them. */
WEB_EXPORT char *jj_judge(const char *args)
{
    static const char SPACES[] = " \t\r\n";
    tables_init();
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return NULL;
    const char *given = args ? args : "";
    size_t len = strlen(given), words = 1; /* argv[0] = "judge" */
    for (size_t i = 0; i < len; i++)
        words += !strchr(SPACES, given[i]) && (i == 0 || strchr(SPACES, given[i - 1]));
    char *copy = malloc(len + 1);
    char **argv = malloc((words + 1) * sizeof *argv);
    if (copy && argv) {
        memcpy(copy, given, len + 1);
        int argc = 0;
        argv[argc++] = "judge";
        char *rest = NULL;
        for (char *word = strtok_r(copy, SPACES, &rest); word; word = strtok_r(NULL, SPACES, &rest))
            argv[argc++] = word;
        argv[argc] = NULL;
        cli_judge(argc, argv, out, out);
    } else {
        fprintf(out, "error: out of memory\n");
    }
    free(argv);
    free(copy);
    fclose(out);
    return text;
}

#ifdef __EMSCRIPTEN_PTHREADS__
#include <pthread.h>

/* The threaded build's input: lines pushed by the page (jj_push), read by protocol_run through a FILE. */
struct WebLines {
    pthread_mutex_t lock;
    pthread_cond_t more;
    char *buf;      /* bytes pushed and not yet read */
    size_t len, cap;
    FILE *in;       /* reads buf, waiting while it is empty */
};

/* The FILE's read: waits for pushed bytes and takes up to size of them. */
static ssize_t lines_read(void *cookie, char *out, size_t size)
{
    WebLines *q = cookie;
    pthread_mutex_lock(&q->lock);
    while (q->len == 0)
        pthread_cond_wait(&q->more, &q->lock);
    size_t n = q->len < size ? q->len : size;
    memcpy(out, q->buf, n);
    memmove(q->buf, q->buf + n, q->len - n);
    q->len -= n;
    pthread_mutex_unlock(&q->lock);
    return (ssize_t)n;
}

/* The protocol thread: the engine's loop on the pushed lines until quit. */
static void *lines_main(void *arg)
{
    WebLines *q = arg;
    protocol_run(q->in, stdout);
    return NULL;
}

/* Starts the protocol loop on a thread of its own; NULL when memory or threads run out. */
WEB_EXPORT WebLines *jj_start(void)
{
    tables_init();
    WebLines *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->more, NULL);
    q->in = fopencookie(q, "r", (cookie_io_functions_t){ .read = lines_read });
    pthread_t thread;
    if (!q->in || pthread_create(&thread, NULL, lines_main, q) != 0) {
        if (q->in)
            fclose(q->in);
        free(q);
        return NULL;
    }
    pthread_detach(thread); /* the session outlives no page: it ends with quit or with the page */
    return q;
}

/* Pushes one line (a newline is added) for the protocol loop; 0 when memory runs out (the line is dropped). */
WEB_EXPORT int jj_push(WebLines *q, const char *line)
{
    if (!q || !line)
        return 0;
    size_t n = strlen(line);
    pthread_mutex_lock(&q->lock);
    if (q->len + n + 1 > q->cap) {
        size_t cap = (q->len + n + 1) * 2;
        char *grown = realloc(q->buf, cap);
        if (!grown) {
            pthread_mutex_unlock(&q->lock);
            return 0;
        }
        q->buf = grown;
        q->cap = cap;
    }
    memcpy(q->buf + q->len, line, n);
    q->buf[q->len + n] = '\n';
    q->len += n + 1;
    pthread_cond_signal(&q->more);
    pthread_mutex_unlock(&q->lock);
    return 1;
}
#endif
