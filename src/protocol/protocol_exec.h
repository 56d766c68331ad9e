/*
 * protocol_exec.h - the UCI-family line handler, shared by the UCI and UCCI
 * front-ends (GUIs mix the two dialects' commands).
 */
#ifndef XQ_PROTOCOL_EXEC_H
#define XQ_PROTOCOL_EXEC_H

#include <stdbool.h>
#include "proto.h"

/* The UCI-family line handler: runs one line now, or asks the loop to defer it. */
LineOutcome ucix_line(Proto *p, const char *line, const LineContext *ctx);
/* Is a UCI-family search running (lines wait for it)? */
bool ucix_busy(Proto *p);

#endif
