/*
 * engine_proc.c - child process handling for engines: fork/exec with pipes,
 * line I/O with poll() deadlines, and a clean (or forced) stop.
 */
#define _GNU_SOURCE /* pipe2 with O_CLOEXEC, so no engine inherits another's pipes */
#include "engine_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/platform.h"

enum { WAIT_STEP_MS = 5 };

/* Creates a pipe whose ends are closed on exec. */
static int make_pipe(int fds[2])
{
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

/* Appends one transcript line if a transcript is kept. */
static void proc_log_line(const EngineProc *p, const char *dir, const char *line)
{
    if (!p->log || !p->log->file)
        return;
    if (p->log->mutex)
        pthread_mutex_lock((pthread_mutex_t *)p->log->mutex);
    fprintf(p->log->file, "%lld %s#%d %s %s\n", (long long)now_ms(), p->name, p->log_id, dir, line);
    fflush(p->log->file);
    if (p->log->mutex)
        pthread_mutex_unlock((pthread_mutex_t *)p->log->mutex);
}

/* Starts the engine process. */
bool proc_start(EngineProc *p, const char *command, const char *dir, const char *name,
                const ProcLog *log, char *msg, size_t msg_size)
{
    /* an engine that exits (or never starts) closes its pipe: a write to it must fail (proc_send's false), not
     * kill the tool; process-wide, set before any engine can be written to */
    signal(SIGPIPE, SIG_IGN);
    memset(p, 0, sizeof *p);
    p->to_fd = p->from_fd = -1;
    p->exit_status = -1;
    p->log = log;
    snprintf(p->name, sizeof p->name, "%s", name ? name : "engine");
    char shell_cmd[PROC_LINE_MAX];
    if (snprintf(shell_cmd, sizeof shell_cmd, "exec %s", command) >= (int)sizeof shell_cmd) {
        snprintf(msg, msg_size, "engine command too long");
        return false;
    }
    int in[2], out[2];
    if (make_pipe(in) != 0) {
        snprintf(msg, msg_size, "pipe: %s", strerror(errno));
        return false;
    }
    if (make_pipe(out) != 0) {
        snprintf(msg, msg_size, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return false;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(msg, msg_size, "fork: %s", strerror(errno));
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        return false;
    }
    if (pid == 0) {
        /* Child: only async-signal-safe calls until exec. */
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, STDERR_FILENO);
        if (dir && dir[0] && chdir(dir) != 0)
            _exit(126);
        execl("/bin/sh", "sh", "-c", shell_cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->pid = pid;
    p->log_id = (int)pid;
    p->to_fd = in[1];
    p->from_fd = out[0];
    proc_log_line(p, "**", command);
    return true;
}

/* Writes a whole buffer, retrying on partial writes. */
static bool write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* Sends one line to the engine. */
bool proc_send(EngineProc *p, const char *line)
{
    if (p->to_fd < 0)
        return false;
    proc_log_line(p, "<", line);
    return write_all(p->to_fd, line, strlen(line)) && write_all(p->to_fd, "\n", 1);
}

/* Takes one complete line out of the buffer if there is one. */
static bool take_line(EngineProc *p, char *out, size_t size)
{
    char *nl = memchr(p->buf, '\n', p->len);
    size_t line_len;
    size_t consumed;
    if (nl) {
        line_len = (size_t)(nl - p->buf);
        consumed = line_len + 1;
    } else if (p->len == sizeof p->buf || (p->eof && p->len > 0)) {
        line_len = p->len; /* overlong line or last unterminated line */
        consumed = p->len;
    } else {
        return false;
    }
    if (line_len > 0 && p->buf[line_len - 1] == '\r')
        line_len--;
    size_t copy = line_len < size - 1 ? line_len : size - 1;
    memcpy(out, p->buf, copy);
    out[copy] = '\0';
    memmove(p->buf, p->buf + consumed, p->len - consumed);
    p->len -= consumed;
    proc_log_line(p, ">", out);
    return true;
}

/* Reads a line with a deadline. */
ProcRead proc_read_line(EngineProc *p, char *out, size_t size, int64_t deadline_ms)
{
    for (;;) {
        if (take_line(p, out, size))
            return PROC_LINE;
        if (p->eof || p->from_fd < 0)
            return PROC_EOF;
        int64_t left = deadline_ms - now_ms();
        if (left <= 0)
            return PROC_TIMEOUT;
        struct pollfd pfd = { .fd = p->from_fd, .events = POLLIN, .revents = 0 };
        int r = poll(&pfd, 1, left > 1000000 ? 1000000 : (int)left);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            p->eof = true;
            continue;
        }
        if (r == 0)
            continue;
        ssize_t got = read(p->from_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            p->eof = true;
        } else if (got == 0) {
            p->eof = true;
        } else {
            p->len += (size_t)got;
        }
    }
}

/* Reaps the child without blocking. */
bool proc_exited(EngineProc *p)
{
    if (p->pid <= 0)
        return true;
    if (p->exit_status >= 0)
        return true;
    int status;
    pid_t r = waitpid(p->pid, &status, WNOHANG);
    if (r == p->pid) {
        p->exit_status = status;
        return true;
    }
    return r < 0;
}

/* Waits up to ms for the process to exit. */
bool proc_wait_exit(EngineProc *p, int ms)
{
    int64_t end = now_ms() + ms;
    for (;;) {
        if (proc_exited(p))
            return true;
        if (now_ms() >= end)
            return false;
        struct timespec ts = { 0, WAIT_STEP_MS * 1000000L };
        nanosleep(&ts, NULL);
    }
}

/* Human-readable exit description. */
void proc_describe_exit(const EngineProc *p, char *out, size_t size)
{
    if (p->exit_status < 0)
        snprintf(out, size, "closed its output");
    else if (WIFSIGNALED(p->exit_status))
        snprintf(out, size, "killed by signal %d", WTERMSIG(p->exit_status));
    else if (WIFEXITED(p->exit_status))
        snprintf(out, size, "exited with status %d", WEXITSTATUS(p->exit_status));
    else
        snprintf(out, size, "ended (status %d)", p->exit_status);
}

/* Stops the engine, politely first. */
void proc_stop(EngineProc *p, bool send_quit)
{
    if (p->pid > 0) {
        if (send_quit && p->exit_status < 0)
            proc_send(p, "quit");
        if (p->to_fd >= 0) {
            close(p->to_fd);
            p->to_fd = -1;
        }
        if (!proc_wait_exit(p, send_quit ? PROC_QUIT_WAIT_MS : 0)) {
            kill(p->pid, SIGKILL);
            int status;
            if (waitpid(p->pid, &status, 0) == p->pid)
                p->exit_status = status;
        }
        proc_log_line(p, "**", "stopped");
        p->pid = 0;
    }
    if (p->to_fd >= 0)
        close(p->to_fd);
    if (p->from_fd >= 0)
        close(p->from_fd);
    p->to_fd = p->from_fd = -1;
}
