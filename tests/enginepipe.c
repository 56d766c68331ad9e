/* enginepipe.c - the engine under test behind pipes (see enginepipe.h). */
#define _POSIX_C_SOURCE 200809L
#include "enginepipe.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "board/move.h"

enum { EP_FD_SCAN = 1024, EP_ENGINE_LIFETIME_S = 120, EP_MB_SHIFT = 20 };

/* Milliseconds from a monotonic clock. */
int64_t ep_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Within the time allowed plus the load slack of t0? */
bool ep_within(int64_t t0_ms, int allowed_ms) { return ep_now_ms() - t0_ms < (int64_t)allowed_ms + EP_LOAD_SLACK_MS; }

/* Starts the engine; it dies after lifetime_s seconds; with address_space_mb > 0 its address space is
 * capped there (RLIMIT_AS), so that any larger allocation fails. */
static void ep_spawn(EnginePipe *ep, int lifetime_s, size_t address_space_mb)
{
    int in[2], out[2];
    memset(ep, 0, sizeof *ep);
    signal(SIGPIPE, SIG_IGN);
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    ep->pid = fork();
    assert_true(ep->pid >= 0);
    if (ep->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        /* nothing else of the test's may stay open in the engine (other engines' pipes) */
        for (int fd = 3; fd < EP_FD_SCAN; fd++)
            close(fd);
        alarm((unsigned)lifetime_s); /* a hung engine dies instead of hanging the test run */
        if (address_space_mb) {
            struct rlimit lim = { (rlim_t)address_space_mb << EP_MB_SHIFT, (rlim_t)address_space_mb << EP_MB_SHIFT };
            if (setrlimit(RLIMIT_AS, &lim) != 0)
                _exit(127);
        }
        execl(JIANGJUN_BIN, JIANGJUN_BIN, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    ep->to_fd = in[1];
    ep->from_fd = out[0];
}

/* Starts the engine with the default lifetime. */
void ep_start(EnginePipe *ep) { ep_spawn(ep, EP_ENGINE_LIFETIME_S, 0); }

/* Starts the engine; it dies after lifetime_s seconds. */
void ep_start_for(EnginePipe *ep, int lifetime_s) { ep_spawn(ep, lifetime_s, 0); }

/* Starts the engine with its address space capped at address_space_mb. */
void ep_start_capped(EnginePipe *ep, size_t address_space_mb) { ep_spawn(ep, EP_ENGINE_LIFETIME_S, address_space_mb); }

/* Allocates, starts and greets an engine. */
EnginePipe *ep_open(const char *hello, const char *ok, int timeout_ms)
{
    EnginePipe *ep = malloc(sizeof *ep);
    assert_non_null(ep);
    ep_start(ep);
    ep_send(ep, "%s", hello);
    ep_must(ep, ok, timeout_ms);
    return ep;
}

/* Quits an engine, checks a clean exit and frees it. */
void ep_close(EnginePipe *ep, const char *bye, int timeout_ms)
{
    ep_send(ep, "quit");
    if (bye)
        ep_must(ep, bye, timeout_ms);
    assert_int_equal(ep_finish(ep, timeout_ms), 0);
    free(ep);
}

/* Sends raw bytes. */
void ep_send_raw(EnginePipe *ep, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(ep->to_fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        assert_true(w > 0);
        p += w;
        len -= (size_t)w;
    }
}

/* Sends one line. */
void ep_send(EnginePipe *ep, const char *fmt, ...)
{
    char line[EP_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && n < (int)sizeof line - 1);
    line[n++] = '\n';
    ep_send_raw(ep, line, (size_t)n);
}

/* Takes one complete line out of the buffer if there is one. */
static bool take_line(EnginePipe *ep)
{
    char *nl = memchr(ep->buf, '\n', ep->len);
    if (!nl)
        return false;
    size_t n = (size_t)(nl - ep->buf);
    size_t copy = n < EP_LINE_MAX - 1 ? n : EP_LINE_MAX - 1;
    memcpy(ep->last, ep->buf, copy);
    ep->last[copy] = '\0';
    if (ep->t_len + n + 2 < sizeof ep->transcript) {
        memcpy(ep->transcript + ep->t_len, ep->buf, n + 1);
        ep->t_len += n + 1;
        ep->transcript[ep->t_len] = '\0';
    }
    memmove(ep->buf, nl + 1, ep->len - n - 1);
    ep->len -= n + 1;
    return true;
}

/* Reads one line within timeout_ms. */
bool ep_read_line(EnginePipe *ep, int timeout_ms)
{
    int64_t deadline = ep_now_ms() + timeout_ms;
    for (;;) {
        if (take_line(ep))
            return true;
        if (ep->eof)
            return false;
        int64_t left = deadline - ep_now_ms();
        if (left <= 0)
            return false;
        struct pollfd pfd = { ep->from_fd, POLLIN, 0 };
        int r = poll(&pfd, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        ssize_t got = read(ep->from_fd, ep->buf + ep->len, sizeof ep->buf - ep->len - 1);
        if (got <= 0)
            ep->eof = true;
        else
            ep->len += (size_t)got;
    }
}

/* Reads until a line starts with prefix. */
bool ep_expect(EnginePipe *ep, const char *prefix, int timeout_ms)
{
    int64_t deadline = ep_now_ms() + timeout_ms;
    while (ep_read_line(ep, (int)(deadline - ep_now_ms() > 0 ? deadline - ep_now_ms() : 0)))
        if (strncmp(ep->last, prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

/* Like ep_expect, failing the test when not found. */
void ep_must(EnginePipe *ep, const char *prefix, int timeout_ms)
{
    if (!ep_expect(ep, prefix, timeout_ms)) {
        fprintf(stderr, "---- transcript ----\n%s---- end ----\n", ep->transcript);
        fail_msg("expected '%s' within %d ms", prefix, timeout_ms);
    }
}

/* Sends isready and collects the lines before its readyok. */
void ep_reply(EnginePipe *ep, char *out, size_t size, int timeout_ms)
{
    ep_reply_to(ep, "isready", "readyok", out, size, timeout_ms);
}

/* Sends a sync command and collects the lines before its answer. */
void ep_reply_to(EnginePipe *ep, const char *sync, const char *answer, char *out, size_t size, int timeout_ms)
{
    size_t n = 0;
    out[0] = '\0';
    ep_send(ep, "%s", sync);
    int64_t deadline = ep_now_ms() + timeout_ms;
    while (ep_read_line(ep, (int)(deadline - ep_now_ms() > 0 ? deadline - ep_now_ms() : 0))) {
        if (strcmp(ep->last, answer) == 0)
            return;
        int w = snprintf(out + n, size - n, "%s\n", ep->last);
        if (w > 0)
            n = n + (size_t)w < size ? n + (size_t)w : size - 1;
    }
    fprintf(stderr, "---- transcript ----\n%s---- end ----\n", ep->transcript);
    fail_msg("no '%s' within %d ms", answer, timeout_ms);
}

/* True if no line starting with prefix arrives within ms. */
bool ep_quiet_for(EnginePipe *ep, const char *prefix, int ms)
{
    return !ep_expect(ep, prefix, ms);
}

/* Closes stdin and waits for the engine to exit. */
int ep_finish(EnginePipe *ep, int timeout_ms)
{
    close(ep->to_fd);
    int64_t deadline = ep_now_ms() + timeout_ms;
    int status;
    for (;;) {
        while (ep_read_line(ep, 0))
            ;
        pid_t r = waitpid(ep->pid, &status, WNOHANG);
        if (r == ep->pid)
            break;
        if (ep_now_ms() > deadline) {
            kill(ep->pid, SIGKILL);
            waitpid(ep->pid, &status, 0);
            close(ep->from_fd);
            return -1;
        }
        ep_read_line(ep, 10);
    }
    while (ep_read_line(ep, 50))
        ;
    close(ep->from_fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Finds the token after `key` in line (copies up to 15 chars); false if absent. */
static bool token_after(const char *line, const char *key, char *out)
{
    size_t k = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL; p += k) {
        if ((p == line || p[-1] == ' ') && p[k] == ' ') {
            sscanf(p + k + 1, "%15s", out);
            return true;
        }
    }
    return false;
}

/* Checks a bestmove line against pos. */
void ep_check_bestmove(const char *line, Position *pos, bool none_ok)
{
    if (strcmp(line, "nobestmove") == 0 || strcmp(line, "bestmove (none)") == 0) {
        if (!none_ok)
            fail_msg("unexpected '%s'", line);
        return;
    }
    char best[16] = "", ponder[16] = "";
    assert_true(token_after(line, "bestmove", best));
    Move m, r;
    XqError err;
    if (!move_parse_legal(pos, best, &m, &err))
        fail_msg("engine played an illegal move: '%s' (%s)", line, err.msg);
    if (token_after(line, "ponder", ponder)) {
        pos_make(pos, m);
        bool ok = move_parse_legal(pos, ponder, &r, &err);
        pos_unmake(pos);
        if (!ok)
            fail_msg("illegal ponder move: '%s' (%s)", line, err.msg);
    }
    /* no dangling third field (VinXiangQi) unless it is draw/resign after a ponder move */
    int fields = 0;
    for (const char *p = line; *p;) {
        while (*p == ' ')
            p++;
        if (*p)
            fields++;
        while (*p && *p != ' ')
            p++;
    }
    assert_true(fields == 2 || fields >= 4 || strstr(line, " draw") || strstr(line, " resign"));
}

/* Checks the pv of an info line against pos (and that no line carries an empty one). */
void ep_check_pv(const char *line, Position *pos)
{
    size_t len = strlen(line);
    if (len >= 3 && strcmp(line + len - 3, " pv") == 0)
        fail_msg("empty pv in '%s'", line);
    const char *p = strstr(line, " pv ");
    if (!p)
        return;
    p += 4;
    int made = 0;
    char text[16];
    int n;
    while (sscanf(p, "%15s%n", text, &n) == 1) {
        Move m;
        XqError err;
        if (!move_parse_legal(pos, text, &m, &err))
            fail_msg("illegal PV move %s in '%s'", text, line);
        pos_make(pos, m);
        made++;
        p += n;
    }
    while (made--)
        pos_unmake(pos);
}

/* Reads until bestmove, checking every PV. */
bool ep_wait_bestmove(EnginePipe *ep, Position *pos, int timeout_ms)
{
    int64_t deadline = ep_now_ms() + timeout_ms;
    while (ep_read_line(ep, (int)(deadline - ep_now_ms() > 0 ? deadline - ep_now_ms() : 0))) {
        if (strncmp(ep->last, "info ", 5) == 0)
            ep_check_pv(ep->last, pos);
        if (strncmp(ep->last, "bestmove", 8) == 0 || strcmp(ep->last, "nobestmove") == 0) {
            ep_check_bestmove(ep->last, pos, true);
            return true;
        }
    }
    return false;
}
