/*
 * xqbook.c - the opening-book tool: builds .xqb books from PGN games
 * (xqbook_pgn.c) or from Jiangjun's own analysis of a move tree
 * (xqbook_tree.c), merges books, prints a book's moves for a position, and
 * measures the probe time. See tools/xqbook/README.md and
 * books/README.md (the format and the shipped book's recipe).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/book.h"
#include "engine/engine.h"
#include "board/move.h"
#include "common/pgn_read.h"
#include "base/platform.h"
#include "board/square.h"
#include "xqbook_pgn.h"
#include "xqbook_tree.h"
#include "engine/version.h"

enum {
    EXIT_USAGE = 2,
    LINE_MOVES_MAX = 256,
    PGN_DEFAULT_PLIES = 20, PGN_DEFAULT_MIN_GAMES = 2, PGN_DEFAULT_MIN_SCORE = 40,
    TREE_DEFAULT_PLIES = 6, TREE_DEFAULT_DEPTH = 12, TREE_DEFAULT_MARGIN = 20, TREE_DEFAULT_WIDTH = 3,
    TREE_DEFAULT_HASH_MB = 64, TREE_DEFAULT_PROGRESS_S = 10, TREE_HASH_MAX_MB = 4096, DEPTH_MAX = 60,
    MARGIN_MAX = 10000, PROGRESS_MAX_S = 3600,
    BENCH_DEFAULT_PROBES = 200000, BENCH_LINE_PLIES = 40, PERCENT = 100,
};

static const char USAGE[] =
    "usage: xqbook pgn -o OUT.xqb [-plies N] [-min-games N] [-min-score PCT] GAMES.pgn...\n"
    "         counts every move of the first N plies (default 20) of each game with its result for the\n"
    "         mover; keeps a move played in at least -min-games games (default 2) that scored at least\n"
    "         PCT percent (default 40); its weight is 2 per win plus 1 per draw\n"
    "       xqbook analyse -o OUT.xqb [-fen FEN] [-moves \"M M ...\"] [-plies N] [-depth D] [-nodes N]\n"
    "                      [-margin CP] [-width W] [-hash MB] [-eval hce|nnue|FILE] [-progress S]\n"
    "         searches each position of the move tree up to N plies from the root (default 6) to depth D\n"
    "         (default 12), again without the moves found so far, and keeps up to W moves (default 3)\n"
    "         within CP (default 20) of the best; weight 100 for the best, about 50 at the margin\n"
    "       xqbook merge -o OUT.xqb IN.xqb...\n"
    "         one book of several: the weights of a move in several books add up\n"
    "       xqbook show BOOK [-fen FEN] [-moves \"M M ...\"]\n"
    "         the book moves of a position (default: the start) in a .xqb book or ElephantEye's BOOK.DAT\n"
    "       xqbook bench BOOK [-probes N] [-seed S]\n"
    "         probe time along random book lines from the start (microseconds per probe)\n"
    "       xqbook --help | --version\n";

/* Splits a space-separated move list (modified in place) into moves; returns how many. */
static int split_moves(char *list, char **out)
{
    int n = 0;
    for (char *t = strtok(list, " "); t && n < LINE_MOVES_MAX; t = strtok(NULL, " "))
        out[n++] = t;
    return n;
}

/* Parses an integer argument in [min, max]; false (with a message) if it is not one. */
static bool int_arg(const char *name, const char *text, long long min, long long max, long long *out)
{
    char *end;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || v < min || v > max) {
        fprintf(stderr, "error: %s must be a number from %lld to %lld (got '%s')\n", name, min, max, text);
        return false;
    }
    *out = v;
    return true;
}

/* Writes a table as a book and says so. */
static int write_book(const BookTable *t, const char *out, const char *what)
{
    size_t written;
    XqError err;
    if (!book_table_write(t, out, &written, &err)) {
        fprintf(stderr, "error: %s\n", err.msg);
        return EXIT_FAILURE;
    }
    printf("xqbook: wrote %s: %zu book moves (%s)\n", out, written, what);
    return EXIT_SUCCESS;
}

/* pgn: a book from games. */
static int cmd_pgn(int argc, char **argv)
{
    PgnBookOptions opt = { PGN_DEFAULT_PLIES, PGN_DEFAULT_MIN_GAMES, PGN_DEFAULT_MIN_SCORE };
    const char *out = NULL;
    int i = 0;
    long long v;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-o") == 0)
            out = argv[i + 1];
        else if (strcmp(argv[i], "-plies") == 0 && int_arg("-plies", argv[i + 1], 1, PGN_PLIES_MAX, &v))
            opt.max_plies = (int)v;
        else if (strcmp(argv[i], "-min-games") == 0 && int_arg("-min-games", argv[i + 1], 1, INT32_MAX, &v))
            opt.min_games = (int)v;
        else if (strcmp(argv[i], "-min-score") == 0 && int_arg("-min-score", argv[i + 1], 0, PERCENT, &v))
            opt.min_score = (int)v;
        else
            return fputs(USAGE, stderr), EXIT_USAGE;
    }
    if (!out || i >= argc)
        return fputs(USAGE, stderr), EXIT_USAGE;
    BookTable t = { 0 };
    PgnBookStats st = { 0 };
    for (; i < argc; i++)
        if (!pgn_book_read(&t, argv[i], &opt, &st)) {
            fprintf(stderr, "error: cannot read %s (or out of memory)\n", argv[i]);
            book_table_free(&t);
            return EXIT_FAILURE;
        }
    size_t kept = pgn_book_weigh(&t, &opt);
    char what[160];
    snprintf(what, sizeof what, "%ld games, %ld skipped, %ld moves counted, %zu distinct, %zu kept", st.games,
             st.skipped, st.moves, t.n, kept);
    int rc = write_book(&t, out, what);
    book_table_free(&t);
    return rc;
}

/* Chooses the evaluation of -eval: hce, nnue (the built-in net) or a net file (*owned: free it). */
static bool eval_arg(const char *arg, const Network **net, Network **owned)
{
    XqError err;
    if (strcmp(arg, "hce") == 0) {
        *net = NULL;
        return true;
    }
    if (strcmp(arg, "nnue") == 0) {
        *net = nnue_default();
        if (!*net)
            fprintf(stderr, "error: this build has no built-in net (use -eval FILE)\n");
        return *net != NULL;
    }
    *owned = nnue_load_file(arg, NULL, &err);
    if (!*owned) {
        fprintf(stderr, "error: %s\n", err.msg);
        return false;
    }
    *net = *owned;
    return true;
}

/* analyse: a book from the engine's own analysis. */
static int cmd_analyse(int argc, char **argv)
{
    TreeOptions opt = { NULL, NULL, 0, TREE_DEFAULT_PLIES, TREE_DEFAULT_DEPTH, 0, TREE_DEFAULT_MARGIN,
                        TREE_DEFAULT_WIDTH, TREE_DEFAULT_HASH_MB, nnue_default(), stderr, TREE_DEFAULT_PROGRESS_S };
    const char *out = NULL;
    char *moves[LINE_MOVES_MAX];
    Network *owned = NULL;
    long long v = 0;
    bool ok = true;
    for (int i = 0; ok && i < argc; i += 2) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val) {
            ok = false;
        } else if (strcmp(a, "-o") == 0) {
            out = val;
        } else if (strcmp(a, "-fen") == 0) {
            opt.fen = val;
        } else if (strcmp(a, "-moves") == 0) {
            opt.n_moves = split_moves(argv[i + 1], moves);
        } else if (strcmp(a, "-plies") == 0) {
            ok = int_arg(a, val, 1, TREE_PLIES_MAX, &v);
            opt.plies = (int)v;
        } else if (strcmp(a, "-depth") == 0) {
            ok = int_arg(a, val, 1, DEPTH_MAX, &v);
            opt.depth = (int)v;
        } else if (strcmp(a, "-nodes") == 0) {
            ok = int_arg(a, val, 0, INT64_MAX, &v);
            opt.nodes = (uint64_t)v;
        } else if (strcmp(a, "-margin") == 0) {
            ok = int_arg(a, val, 0, MARGIN_MAX, &v);
            opt.margin = (int)v;
        } else if (strcmp(a, "-width") == 0) {
            ok = int_arg(a, val, 1, MAX_MOVES, &v);
            opt.width = (int)v;
        } else if (strcmp(a, "-hash") == 0) {
            ok = int_arg(a, val, 1, TREE_HASH_MAX_MB, &v);
            opt.hash_mb = (int)v;
        } else if (strcmp(a, "-progress") == 0) {
            ok = int_arg(a, val, 1, PROGRESS_MAX_S, &v);
            opt.progress_every_s = (int)v;
        } else if (strcmp(a, "-eval") == 0) {
            ok = eval_arg(val, &opt.net, &owned);
        } else {
            ok = false;
        }
    }
    opt.moves = moves;
    if (!ok || !out) {
        nnue_net_free(owned);
        return fputs(USAGE, stderr), EXIT_USAGE;
    }
    fprintf(stderr, "xqbook: analysing %d plies from %s%s%s at depth %d, margin %d, width %d, %s evaluation\n",
            opt.plies, opt.fen ? opt.fen : "the start position", opt.n_moves ? " after " : "",
            opt.n_moves ? "the given moves" : "", opt.depth, opt.margin, opt.width,
            opt.net ? "network" : "hand-crafted");
    BookTable t = { 0 };
    TreeStats st;
    XqError err;
    int rc = EXIT_FAILURE;
    if (!tree_book_build(&t, &opt, &st, &err)) {
        fprintf(stderr, "error: %s\n", err.msg);
    } else {
        char what[160];
        snprintf(what, sizeof what, "%ld positions analysed, %ld searches, %.1f s", st.positions, st.searches,
                 (double)st.ms / 1000.0);
        rc = write_book(&t, out, what);
    }
    book_table_free(&t);
    nnue_net_free(owned);
    return rc;
}

/* merge: one book of several. */
static int cmd_merge(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[0], "-o") != 0)
        return fputs(USAGE, stderr), EXIT_USAGE;
    BookTable t = { 0 };
    XqError err;
    for (int i = 2; i < argc; i++)
        if (!book_table_add_file(&t, argv[i], &err)) {
            fprintf(stderr, "error: %s: %s\n", argv[i], err.msg);
            book_table_free(&t);
            return EXIT_FAILURE;
        }
    char what[64];
    snprintf(what, sizeof what, "%d books merged", argc - 2);
    int rc = write_book(&t, argv[1], what);
    book_table_free(&t);
    return rc;
}

/* Reads -fen FEN and -moves "M M ..." from argv into pos; false (with a message) on an error. */
static bool position_args(int argc, char **argv, Position *pos)
{
    const char *fen = NULL;
    char *moves[LINE_MOVES_MAX];
    int n = 0;
    for (int i = 0; i < argc; i += 2) {
        if (i + 1 < argc && strcmp(argv[i], "-fen") == 0)
            fen = strcmp(argv[i + 1], "startpos") == 0 ? NULL : argv[i + 1];
        else if (i + 1 < argc && strcmp(argv[i], "-moves") == 0)
            n = split_moves(argv[i + 1], moves);
        else
            return fputs(USAGE, stderr), false;
    }
    XqError err;
    if (!engine_build_position(fen, moves, n, pos, &err)) {
        fprintf(stderr, "error: %s\n", err.msg);
        return false;
    }
    return true;
}

/* Opens a book file for show and bench, saying what it is. */
static bool open_book(BookFile *bf, const char *path)
{
    XqError err;
    if (!book_open_path(bf, path, NULL, &err)) {
        fprintf(stderr, "error: %s: %s\n", path, err.msg);
        return false;
    }
    printf("%s: %s, %zu records\n", path,
           bf->format == BOOK_FORMAT_XQB ? "Jiangjun book (.xqb)" : "ElephantEye BOOK.DAT", bf->count);
    return true;
}

/* show: the book moves of a position. */
static int cmd_show(int argc, char **argv)
{
    if (argc < 1)
        return fputs(USAGE, stderr), EXIT_USAGE;
    Position *pos = malloc(sizeof *pos);
    BookFile bf;
    if (!pos || !position_args(argc - 1, argv + 1, pos) || !open_book(&bf, argv[0])) {
        free(pos);
        return EXIT_FAILURE;
    }
    char fen[FEN_MAX], text[MOVE_TEXT];
    printf("position %s\n", pos_to_fen(pos, fen, sizeof fen));
    BookMove m[BOOK_MOVES_MAX];
    int n = book_file_probe(&bf, pos, m);
    unsigned long total = 0;
    for (int i = 0; i < n; i++)
        total += m[i].weight;
    if (n == 0)
        printf("no book moves\n");
    for (int i = 0; i < n; i++)
        printf("%s %6u %5.1f%%\n", move_to_text(m[i].move, text), (unsigned)m[i].weight,
               total ? PERCENT * (double)m[i].weight / (double)total : 0.0);
    book_file_close(&bf);
    free(pos);
    return EXIT_SUCCESS;
}

/* bench: the probe time along random book lines. */
static int cmd_bench(int argc, char **argv)
{
    long long probes = BENCH_DEFAULT_PROBES, seed = 1;
    for (int i = 1; i < argc; i += 2) {
        bool ok = i + 1 < argc;
        if (ok && strcmp(argv[i], "-probes") == 0)
            ok = int_arg("-probes", argv[i + 1], 1, INT32_MAX, &probes);
        else if (ok && strcmp(argv[i], "-seed") == 0)
            ok = int_arg("-seed", argv[i + 1], 0, INT64_MAX, &seed);
        else
            ok = false;
        if (!ok)
            return fputs(USAGE, stderr), EXIT_USAGE;
    }
    Position *pos = malloc(sizeof *pos);
    BookFile bf;
    if (argc < 1 || !pos || !open_book(&bf, argv[0])) {
        free(pos);
        return argc < 1 ? (fputs(USAGE, stderr), EXIT_USAGE) : EXIT_FAILURE;
    }
    XqError err;
    pos_from_fen(pos, START_FEN, &err);
    uint64_t rng = (uint64_t)seed;
    int64_t probe_us = 0, hit_us = 0, start = now_us();
    long hits = 0, lines = 1, moves_seen = 0;
    for (long long i = 0; i < probes; i++) {
        BookMove m[BOOK_MOVES_MAX];
        int64_t t0 = now_us();
        int n = book_file_probe(&bf, pos, m);
        int64_t dt = now_us() - t0;
        probe_us += dt;
        int k = n > 0 && pos->ply < BENCH_LINE_PLIES ? book_pick(m, n, &rng) : -1;
        if (n > 0) {
            hits++;
            hit_us += dt;
            moves_seen += n;
        }
        if (k >= 0) {
            pos_make(pos, m[k].move);
        } else {
            pos_from_fen(pos, START_FEN, &err); /* out of the book: a new line */
            lines++;
        }
    }
    int64_t wall = now_us() - start;
    printf("%lld probes along %ld lines: %ld in the book (%.1f moves each)\n", probes, lines, hits,
           hits ? (double)moves_seen / (double)hits : 0.0);
    printf("probe time: %.2f us per probe (%.2f us per probe that found moves); walk with timing: %.2f us per step\n",
           (double)probe_us / (double)probes, hits ? (double)hit_us / (double)hits : 0.0,
           (double)wall / (double)probes);
    book_file_close(&bf);
    free(pos);
    return EXIT_SUCCESS;
}

/* Dispatches the subcommand. */
int main(int argc, char **argv)
{
    tables_init();
    if (argc >= 2 && version_common_arg(argv[1], "xqbook", USAGE, stdout))
        return EXIT_SUCCESS;
    if (argc < 2)
        return fputs(USAGE, stderr), EXIT_USAGE;
    const char *cmd = argv[1];
    if (strcmp(cmd, "pgn") == 0)
        return cmd_pgn(argc - 2, argv + 2);
    if (strcmp(cmd, "analyse") == 0 || strcmp(cmd, "analyze") == 0)
        return cmd_analyse(argc - 2, argv + 2);
    if (strcmp(cmd, "merge") == 0)
        return cmd_merge(argc - 2, argv + 2);
    if (strcmp(cmd, "show") == 0)
        return cmd_show(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 2, argv + 2);
    fprintf(stderr, "xqbook: unknown command '%.60s'\n\n%s", cmd, USAGE);
    return EXIT_USAGE;
}
