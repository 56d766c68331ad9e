/* web.c - the browser build's entry points: protocol lines in, one call each, lines out on stdout. */
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

/* Runs `judge ARGS` (args split at spaces, as a shell would split unquoted words); its line, or its error
 * line "error: ...", on stdout. Returns judge's exit status (0, or 2 after an error). */
WEB_EXPORT int jj_judge(const char *args)
{
    static const char SPACES[] = " \t\r\n";
    enum { EXIT_ERROR = 2 };
    tables_init();
    const char *text = args ? args : "";
    size_t len = strlen(text), words = 1; /* argv[0] = "judge" */
    for (size_t i = 0; i < len; i++)
        words += !strchr(SPACES, text[i]) && (i == 0 || strchr(SPACES, text[i - 1]));
    char *copy = malloc(len + 1);
    char **argv = malloc((words + 1) * sizeof *argv);
    if (!copy || !argv) {
        free(copy);
        free(argv);
        printf("error: out of memory\n");
        return EXIT_ERROR;
    }
    memcpy(copy, text, len + 1);
    int argc = 0;
    argv[argc++] = "judge";
    for (char *word = strtok(copy, SPACES); word; word = strtok(NULL, SPACES))
        argv[argc++] = word;
    argv[argc] = NULL;
    int status = cli_judge(argc, argv, stdout, stdout);
    fflush(stdout);
    free(argv);
    free(copy);
    return status;
}
