/*
 * web.h - the entry points of the browser's one-thread wasm build (XQ_WASM_THREADS=OFF): a protocol session
 * fed one line per call, and the `judge` subcommand; their output goes to stdout (Emscripten's print, a call
 * per line). web/jiangjun-worker.js drives them from a Web Worker.
 */
#ifndef XQ_WEB_H
#define XQ_WEB_H

#include "protocol/protocol.h"

/* Opens a session (UCI until a handshake word such as `ucci` says otherwise); NULL when memory runs out. */
ProtocolSession *jj_open(void);
/* Runs one protocol line to its end (a finite search included); 1 while the session lives, 0 after quit. */
int jj_command(ProtocolSession *s, const char *line);
/* Quits and frees the session (NULL is ignored). */
void jj_close(ProtocolSession *s);
/* The rules' verdict on a game: `jiangjun judge ARGS` ([--rules NAME] FEN [moves]), its one line on stdout (an
 * error as "error: ..."); returns its exit status. */
int jj_judge(const char *args);

#endif
