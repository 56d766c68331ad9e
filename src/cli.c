/* cli.c - the engine's command line: usage, --help, --version, perft. */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bench.h"
#include "base/datafile.h"
#include "board/move.h"
#include "board/perft.h"
#include "base/platform.h"
#include "rules/rules.h"
#include "engine/version.h"

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
    if (argc > 2 ? !join_args(argc, argv, 2, fen, sizeof fen)
                 : !join_args(1, (char *[]){ (char *)START_FEN }, 0, fen, sizeof fen)) {
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

/* The engine's usage. */
void cli_usage(FILE *out)
{
    fprintf(out,
            "%s, a xiangqi (Chinese chess) engine.\n"
            "\n"
            "usage: jiangjun                   the engine: protocol commands on stdin, answers on stdout\n"
            "       jiangjun perft DEPTH [FEN]\n"
            "           leaf nodes of the legal move tree to DEPTH (1-%d) per root move, then the total\n"
            "       jiangjun bench [DEPTH [THREADS]] [-movetime MS] [-eval hce|nnue|FILE]\n"
            "           searches the bench positions (default depth %d, 1 thread) and prints\n"
            "           \"Nodes searched: N\" (the build's signature) and the speed\n"
            "       jiangjun judge [--rules NAME] [--explain] \"<FEN>\" [MOVE...]\n"
            "           replays the ICCS moves (h2e2) and prints the rules' verdict: 1-0, 0-1, 1/2-1/2 or *\n"
            "           (NAME: %s; default %s)\n"
            "       jiangjun tb gen SIG... -dir DIR [-threads N] [-forward]\n"
            "           generates endgame tablebases (SIG: red's pieces - black's, e.g. KR-K, KH-KA, KR-KAAEE, KR-KH)\n"
            "       jiangjun tb probe \"<FEN>\" [-dir DIR]    prints \"wdl win|draw|loss dtm N\" or \"error: ...\"\n"
            "           (without -dir: the starter set in tb/ beside the executable or in ../share/jiangjun/tb)\n"
            "       jiangjun tb info FILE                   a table's header and counts\n"
            "       jiangjun --help | -h | help    this text\n"
            "       jiangjun --version             version, git revision, SIMD kernels, built-in net\n"
            "\n"
            "Protocols: the handshake word a GUI sends first picks the dialect (a later one switches):\n"
            "  ucci     UCCI (XiangQi Wizard, ElephantEye's GUIs)\n"
            "  uci      UCI in Pikafish's xiangqi dialect, ranks 0-9 (BHGUI, Sharkchess, VinXiangQi, TCHESS)\n"
            "  xboard   CECP, the XBoard/WinBoard protocol v2 (variant xiangqi)\n"
            "\n"
            "Nets and books: the evaluation net and the opening book are built in (EvalFile and BookFile\n"
            "<embedded>). A file named by UCCI evalfile / bookfiles, UCI and CECP EvalFile / BookFile, or\n"
            "bench -eval is opened as given (relative to the working directory); a relative name not found\n"
            "there is looked for in\n",
            version_engine_name(), PERFT_MAX_DEPTH, BENCH_DEFAULT_DEPTH, rules_names_text(), rules_default()->name);
    char exe_dir[DATAFILE_PATH_MAX], dir[DATAFILE_PATH_MAX];
    bool known = platform_exe_dir(exe_dir, sizeof exe_dir);
    for (int i = 0; i < DATAFILE_DIRS; i++)
        if (known && datafile_dir(exe_dir, i, dir, sizeof dir))
            fprintf(out, "  %s\n", dir);
    if (!known)
        fprintf(out, "  the executable's directory and its " DATAFILE_SHARE "\n");
    fprintf(out, "(installed packages put the nets and books that are not built in into share/jiangjun).\n"
                 "Manual: man 6 jiangjun; README.md.\n");
}

/* --help / -h / help, --version. */
bool cli_common_arg(const char *arg, FILE *out)
{
    if (version_is_help(arg)) {
        cli_usage(out);
        return true;
    }
    if (version_is_version(arg)) {
        version_print(out, NULL);
        return true;
    }
    return false;
}
