/* web.c - the browser build's entry points: protocol lines in, one call each, lines out on stdout. */
#include "web.h"

#include "board/square.h"

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
