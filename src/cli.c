/* cli.c - command-line subcommands. */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "move.h"
#include "perft.h"
#include "platform.h"

enum { PERFT_MAX_DEPTH = 12, FEN_ARG_MAX = 512 };

/* Prints one divide line. */
static void print_divide(void *ctx, Move m, uint64_t nodes)
{
    char text[MOVE_TEXT];
    fprintf((FILE *)ctx, "%s: %" PRIu64 "\n", move_to_text(m, text), nodes);
}

/* Joins argv[from..argc) with spaces into buf; false if it does not fit. */
static bool join_args(int argc, char **argv, int from, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = from; i < argc; i++) {
        size_t len = strlen(argv[i]);
        if (n + len + 2 > size)
            return false;
        if (n)
            buf[n++] = ' ';
        memcpy(buf + n, argv[i], len + 1);
        n += len;
    }
    return true;
}

/* perft D [FEN]: argv[0] is "perft". */
int cli_perft(int argc, char **argv, FILE *out, FILE *err)
{
    char *end;
    if (argc < 2) {
        fprintf(err, "usage: jiangjun perft DEPTH [FEN]\n");
        return 2;
    }
    long depth = strtol(argv[1], &end, 10);
    if (*end || end == argv[1] || depth < 1 || depth > PERFT_MAX_DEPTH) {
        fprintf(err, "error: perft depth must be a number from 1 to %d\n", PERFT_MAX_DEPTH);
        return 2;
    }
    char fen[FEN_ARG_MAX];
    if (argc > 2 ? !join_args(argc, argv, 2, fen, sizeof fen) : !join_args(1, (char *[]){ (char *)START_FEN }, 0, fen, sizeof fen)) {
        fprintf(err, "error: FEN too long\n");
        return 2;
    }
    static Position pos;
    XqError e;
    if (!pos_from_fen(&pos, fen, &e)) {
        fprintf(err, "error: %s\n", e.msg);
        return 2;
    }
    int64_t t0 = now_us();
    uint64_t total = perft_divide(&pos, (int)depth, print_divide, out);
    int64_t us = now_us() - t0;
    fprintf(out, "\nNodes searched: %" PRIu64 "\n", total);
    fprintf(err, "time %.3f s, %.0f nodes/s\n", us / 1e6, us > 0 ? total * 1e6 / us : 0.0);
    return 0;
}
