/*
 * web.h - the entry points of the browser's wasm builds: the one-thread build (XQ_WASM_THREADS=OFF) takes a
 * protocol session fed one line per call; the threaded one (XQ_WASM_THREADS=ON with XQ_WASM_WEB=ON, for pages
 * served with COOP/COEP headers) runs the protocol loop on a thread of its own, fed by pushed lines. Both have
 * the `judge` subcommand (its line returned). Protocol output goes to stdout (Emscripten's print, a call per
 * line).
 * web/jiangjun-worker.js drives them from a Web Worker.
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
/* The rules' verdict on a game: `jiangjun judge ARGS` ([--rules NAME] FEN [moves]); returns its output, one
 * line (an error as "error: ..."), for the caller to free (NULL when memory runs out). Prints nothing. */
char *jj_judge(const char *args);

/* The threaded build's session: the engine's protocol loop reading the lines pushed to it. */
typedef struct WebLines WebLines;
/* Starts the protocol loop (protocol_run) on a thread of its own; NULL when memory or threads run out. */
WebLines *jj_start(void);
/* Pushes one protocol line to the loop (answered on stdout as the loop gets to it); 0 if memory ran out. */
int jj_push(WebLines *q, const char *line);

#endif
