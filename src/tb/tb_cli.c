/* tb_cli.c - the `jiangjun tb` subcommands: generate tables, probe a FEN, show a file's header. */
#include "tb_cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tb_gen.h"

enum { FEN_TEXT_MAX = 512, EXIT_USAGE = 2 };

static const char USAGE[] = "usage: jiangjun tb gen SIG... -dir DIR [-threads N] [-forward]"
                            " | jiangjun tb probe \"<FEN>\" [-dir DIR] | jiangjun tb info FILE\n";

/* Prints a table's counts in one line. */
static void print_stats(FILE *out, const char *name, const TbStats *s)
{
    fprintf(out,
            "%s: positions %" PRIu64 " wins %" PRIu64 " draws %" PRIu64 " losses %" PRIu64
            " longest win %u plies, longest loss %u plies, by the perpetual-check rule %" PRIu64 " wins %" PRIu64
            " losses\n",
            name, s->positions, s->wins, s->draws, s->losses, s->longest_win, s->longest_loss, s->rule_wins,
            s->rule_losses);
}

/* tb gen SIG... -dir DIR [-threads N] [-forward] (the forward method, for comparison). */
static int cli_gen(int argc, char **argv, FILE *out, FILE *err)
{
    const char *dir = NULL;
    int threads = 1, nsigs = 0;
    bool forward = false;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-forward") == 0) {
            forward = true;
        } else if (strcmp(argv[i], "-dir") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(argv[i], "-threads") == 0 && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > TB_THREADS_MAX) {
                fprintf(err, "error: -threads must be a number from 1 to %d\n", TB_THREADS_MAX);
                return EXIT_USAGE;
            }
            threads = (int)n;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0' && argv[i][1] != '-' && strchr(argv[i] + 1, '-') == NULL) {
            fprintf(err, "error: unknown option %s\n%s", argv[i], USAGE);
            return EXIT_USAGE;
        } else {
            nsigs++;
        }
    }
    if (!dir || !nsigs) {
        fprintf(err, "error: tb gen needs signatures and -dir DIR\n%s", USAGE);
        return EXIT_USAGE;
    }
    TbSet *set = malloc(sizeof *set);
    if (!set) {
        fprintf(err, "error: out of memory\n");
        return 1;
    }
    tb_set_init(set, dir);
    TbGenOptions opt = { .threads = threads, .progress = err, .write = true, .reload = true, .forward = forward };
    int status = 0;
    for (int i = 2; i < argc && !status; i++) {
        TbSig sig;
        XqError e;
        if (strcmp(argv[i], "-dir") == 0 || strcmp(argv[i], "-threads") == 0 || strcmp(argv[i], "-forward") == 0) {
            i += strcmp(argv[i], "-forward") != 0;
            continue;
        }
        if (!tb_sig_parse(argv[i], &sig, &e) || !tb_gen_build(set, &sig, &opt, &e)) {
            fprintf(err, "error: %s\n", e.msg);
            status = 1;
        }
    }
    for (int i = 0; i < set->count && !status; i++)
        print_stats(out, set->table[i]->name, &set->table[i]->stats);
    tb_set_free(set);
    free(set);
    return status;
}

/* tb probe "<FEN>" [-dir DIR]: prints "wdl win|draw|loss dtm N" or "error: ..." on out. */
static int cli_probe(int argc, char **argv, FILE *out)
{
    const char *dir = NULL;
    char fen[FEN_TEXT_MAX] = "";
    size_t n = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-dir") == 0 && i + 1 < argc) {
            dir = argv[++i];
            continue;
        }
        size_t len = strlen(argv[i]);
        if (n + len + 2 > sizeof fen) {
            fprintf(out, "error: FEN too long\n");
            return 1;
        }
        if (n)
            fen[n++] = ' ';
        memcpy(fen + n, argv[i], len + 1);
        n += len;
    }
    Position *pos = malloc(sizeof *pos);
    TbSet *set = malloc(sizeof *set);
    int status = 1;
    XqError e;
    TbValue v;
    if (!pos || !set)
        fprintf(out, "error: out of memory\n");
    else if (!n)
        fprintf(out, "error: tb probe needs a FEN\n");
    else if (!pos_from_fen(pos, fen, &e))
        fprintf(out, "error: %s\n", e.msg);
    else {
        char starter[TB_PATH_MAX];
        tb_starter_dir(starter, sizeof starter);
        tb_set_init(set, dir ? dir : starter);
        if (!tb_probe(set, pos, &v, &e))
            fprintf(out, "error: %s\n", e.msg);
        else {
            fprintf(out, "wdl %s dtm %d\n", v.wdl == TB_WIN ? "win" : v.wdl == TB_LOSS ? "loss" : "draw", v.dtm);
            status = 0;
        }
        tb_set_free(set);
    }
    free(pos);
    free(set);
    return status;
}

/* tb info FILE: the header and counts. */
static int cli_info(int argc, char **argv, FILE *out)
{
    if (argc != 3) {
        fprintf(out, "error: tb info needs one FILE\n");
        return EXIT_USAGE;
    }
    TbHeader h;
    XqError e;
    if (!tb_file_header(argv[2], &h, &e)) {
        fprintf(out, "error: %s\n", e.msg);
        return 1;
    }
    fprintf(out,
            "signature %s\nversion %u\nrules %u (no move loses; checking forever loses, both sides "
            "checking forever draws; no chase rulings, no 60-move rule; unresolved is a draw)\n"
            "encoding %u (blocks of %u entries: WDL constant, 2-bit or runs; DTM bit-packed)\nentries %" PRIu64
            "\nbytes %" PRIu64 " (WDL %" PRIu64 ", DTM %" PRIu64 ")\n",
            h.name, h.version, h.rules, h.encoding, h.block, h.entries,
            (uint64_t)TB_HEADER_SIZE + h.wdl_bytes + h.dtm_bytes, h.wdl_bytes, h.dtm_bytes);
    print_stats(out, h.name, &h.stats);
    return 0;
}

/* Runs a `tb` subcommand (argv[0] is "tb"). */
int tb_cli(int argc, char **argv, FILE *out, FILE *err)
{
    tables_init();
    if (argc >= 2 && strcmp(argv[1], "gen") == 0)
        return cli_gen(argc, argv, out, err);
    if (argc >= 2 && strcmp(argv[1], "probe") == 0)
        return cli_probe(argc, argv, out);
    if (argc >= 2 && strcmp(argv[1], "info") == 0)
        return cli_info(argc, argv, out);
    fputs(USAGE, err);
    return EXIT_USAGE;
}
