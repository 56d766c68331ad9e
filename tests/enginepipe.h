/*
 * enginepipe.h - drives the real jiangjun binary through pipes for the
 * protocol tests (POSIX only: fork, exec, poll), and checks that every move
 * it prints is legal in the position the test tracks alongside it.
 */
#ifndef XQ_ENGINEPIPE_H
#define XQ_ENGINEPIPE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "board/position.h"

enum { EP_LINE_MAX = 8192, EP_BUF = 1 << 16 };

/* The protocol tests' time bounds check behaviour (an answer comes; a timed search ends on its own, without a
 * stop), not speed: a bound is the time the engine is allowed plus EP_LOAD_SLACK_MS, what a loaded 2-core
 * machine under ThreadSanitizer may add (stalls of 642 ms were recorded, bench/STRESS.md). That the hard
 * limit stays inside the clock is test_timeman's (deterministic) check; the real latencies are measured by
 * bench/latency.py (figures in bench/results/latency.md). */
enum { EP_LOAD_SLACK_MS = 3000 };

typedef struct EnginePipe {
    pid_t pid;
    int to_fd, from_fd;
    char buf[EP_BUF];
    size_t len;
    bool eof;
    char last[EP_LINE_MAX];      /* the last line read */
    char transcript[1 << 18];    /* everything read, for whole-output checks */
    size_t t_len;
} EnginePipe;

/* Starts the engine (killed by SIGALRM after two minutes); fails the test if it cannot. */
void ep_start(EnginePipe *ep);
/* Starts the engine with a given lifetime in seconds (long runs such as the soak test). */
void ep_start_for(EnginePipe *ep, int lifetime_s);
/* Starts the engine with its address space capped at address_space_mb (RLIMIT_AS: larger allocations fail;
 * not under a sanitizer, whose shadow memory needs terabytes of address space). */
void ep_start_capped(EnginePipe *ep, size_t address_space_mb);
/* XBoard's opening of a CECP dialog (two lines) and the feature line that ends the engine's answer. */
#define EP_CECP_HELLO "xboard\nprotover 2"
#define EP_CECP_OK "feature done=1"

/* Allocates and starts an engine (as ep_start), sends hello (a line, or lines separated by '\n') and waits
 * up to timeout_ms for a line starting with ok; fails the test if it cannot. The dialogs' usual opening:
 * "ucci"/"ucciok", "uci"/"uciok", EP_CECP_HELLO/EP_CECP_OK. */
EnginePipe *ep_open(const char *hello, const char *ok, int timeout_ms);
/* Sends quit, waits for a line starting with bye (unless bye is NULL), checks that the engine exits with
 * status 0 within timeout_ms, and frees ep (from ep_open or malloc). */
void ep_close(EnginePipe *ep, const char *bye, int timeout_ms);
/* Sends one line (a newline is added). */
void ep_send(EnginePipe *ep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sends raw bytes. */
void ep_send_raw(EnginePipe *ep, const void *data, size_t len);
/* Reads one line within timeout_ms into ep->last; false on timeout or EOF. */
bool ep_read_line(EnginePipe *ep, int timeout_ms);
/* Reads lines until one starts with prefix (returns true, line in ep->last) or the timeout passes. */
bool ep_expect(EnginePipe *ep, const char *prefix, int timeout_ms);
/* Like ep_expect, but fails the test when not found. */
void ep_must(EnginePipe *ep, const char *prefix, int timeout_ms);
/* Sends isready and collects every line before its readyok into out (truncated to size); fails the
 * test if no readyok comes within timeout_ms. */
void ep_reply(EnginePipe *ep, char *out, size_t size, int timeout_ms);
/* The same with another sync command and its answer (CECP: "ping 7", "pong 7"). */
void ep_reply_to(EnginePipe *ep, const char *sync, const char *answer, char *out, size_t size, int timeout_ms);
/* True if no line starting with prefix arrives within ms (other lines are consumed). */
bool ep_quiet_for(EnginePipe *ep, const char *prefix, int ms);
/* Closes stdin, waits for exit (killing after timeout_ms); returns the exit status or -1. */
int ep_finish(EnginePipe *ep, int timeout_ms);
/* Milliseconds from a monotonic clock. */
int64_t ep_now_ms(void);
/* Did the answer come within allowed_ms (the time the engine may take) plus EP_LOAD_SLACK_MS of t0? */
bool ep_within(int64_t t0_ms, int allowed_ms);

/* Checks "bestmove X [ponder Y] ..." (or nobestmove/(none) when allowed) against pos; fails the test if illegal. */
void ep_check_bestmove(const char *line, Position *pos, bool none_ok);
/* Checks the pv of an "info ... pv ..." line against pos (no-op without pv). */
void ep_check_pv(const char *line, Position *pos);
/* Reads until bestmove/nobestmove, checking every PV; returns true if one arrived in time. */
bool ep_wait_bestmove(EnginePipe *ep, Position *pos, int timeout_ms);

#endif
