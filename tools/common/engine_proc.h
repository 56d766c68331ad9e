/*
 * engine_proc.h - an engine as a child process: start it with pipes, send
 * lines, read lines with a deadline, and stop it (POSIX only).
 */
#ifndef XQM_ENGINE_PROC_H
#define XQM_ENGINE_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

enum {
    PROC_LINE_MAX = 8192,   /* longest engine output line kept (longer ones are cut) */
    PROC_BUF_SIZE = 16384,  /* read buffer */
    PROC_QUIT_WAIT_MS = 1000, /* grace time after "quit" before SIGKILL */
};

/* What a read attempt produced. */
typedef enum ProcRead { PROC_LINE, PROC_TIMEOUT, PROC_EOF } ProcRead;

/* Optional transcript of everything sent and received (shared, locked by the caller's mutex). */
typedef struct ProcLog {
    FILE *file;
    void *mutex;  /* pthread_mutex_t *, or NULL */
} ProcLog;

/* One running engine process. */
typedef struct EngineProc {
    pid_t pid;            /* 0 when not running */
    int to_fd;            /* engine's stdin */
    int from_fd;          /* engine's stdout */
    char buf[PROC_BUF_SIZE];
    size_t len;           /* bytes buffered in buf */
    bool eof;
    int exit_status;      /* waitpid status once reaped, -1 before */
    char name[64];        /* for the transcript */
    int log_id;           /* the process id, kept after exit: the transcript's name#id tells games apart */
    const ProcLog *log;
} EngineProc;

/* Starts `command` through /bin/sh in directory `dir` (NULL = current); false with msg on failure. Ignores SIGPIPE
 * for the whole process, so that a write to an engine that has exited fails instead of killing the caller. */
bool proc_start(EngineProc *p, const char *command, const char *dir, const char *name,
                const ProcLog *log, char *msg, size_t msg_size);
/* Sends one line (a newline is appended); false if the engine's stdin is closed. */
bool proc_send(EngineProc *p, const char *line);
/* Reads one line into out before the monotonic deadline (ms, from now_ms()); never blocks past it. */
ProcRead proc_read_line(EngineProc *p, char *out, size_t size, int64_t deadline_ms);
/* Has the process exited? Reaps it if so (non-blocking). */
bool proc_exited(EngineProc *p);
/* Describes how the process ended ("exited with status 1", "killed by signal 11"). */
void proc_describe_exit(const EngineProc *p, char *out, size_t size);
/* Sends "quit", waits a little, then kills and reaps the process; safe to call twice. */
void proc_stop(EngineProc *p, bool send_quit);
/* Wait for the process to exit for up to ms milliseconds (reaping it); true if it did. */
bool proc_wait_exit(EngineProc *p, int ms);

#endif
