/*
 * protocol.h - UCCI, the xiangqi UCI dialect (Pikafish's "UCI-Cyclone") and
 * the XBoard protocol (CECP v2) in one engine.
 *
 * protocol_run reads lines and hands each to the front-end of the dialect
 * chosen by the last handshake word (`uci`, `ucci`, `xboard`): protocol_uci.c,
 * protocol_ucci.c and protocol_cecp.c over the engine facade (engine.h); protocol_int.h says how
 * the modules divide the work. protocol_parse turns one UCI-family line into
 * a Command without side effects: tokens split on any whitespace (tabs,
 * double spaces, '\r'), command words and keywords case-insensitive, numbers
 * range-checked.
 */
#ifndef XQ_PROTOCOL_H
#define XQ_PROTOCOL_H

#include <stdbool.h>
#include <stdio.h>

#include "proto.h"

/* Runs the protocol loop on in/out until quit or end of input; returns an exit status. */
int protocol_run(FILE *in, FILE *out);

/* protocol_run under caps (lim may be NULL: none, stdin-like input). */
int protocol_run_limited(FILE *in, FILE *out, const ProtocolLimits *lim);

/* A session whose lines come from the caller, one call each, with no thread at all (the browser's wasm). */
typedef struct ProtocolSession ProtocolSession;

/* Opens a session writing to out under the caps of lim (NULL: none; one search thread in any case): no reader
 * thread, every search and perft runs inside protocol_line, and a go that waits for stop gets an error. NULL
 * when memory runs out. */
ProtocolSession *protocol_open(FILE *out, const ProtocolLimits *lim);
/* Runs one line (no newline needed; a newline inside counts as a space) to its end, a search included: the
 * output has been written when it returns. False once the session has quit (the line was ignored). */
bool protocol_line(ProtocolSession *s, const char *line);
/* Quits the session if it has not (the dialect's goodbye) and frees it; NULL is ignored. */
void protocol_close(ProtocolSession *s);

#endif
