/*
 * tb_compare.c - checks that two builds' tables give every legal position the same value, whatever their
 * index: one build dumps every legal entry of its table (the position as FEN and its value), the other
 * probes each dumped position, its left-right mirror image and its colour-swapped image in its own table
 * and counts any difference. The source compiles against any version of src/tb whose tb_setup, tb_entry
 * and tb_probe have today's signatures (file versions 2 and 3 do).
 * Build (once per build tree, e.g. main's in /tmp/old and this one):
 *   cc -O2 -std=c11 -Isrc bench/tb_compare.c build/libxqcore.a -lpthread -lm -o /tmp/tb_compare
 * Run:
 *   /tmp/tb_compare dump DIR SIG > SIG.txt     every legal entry of DIR's SIG: "FEN;wdl dtm rule"
 *   /tmp/tb_compare check DIR < SIG.txt        probes each line's position (and its images) in DIR;
 *                                              prints the count checked and the differences; exit 1 on any
 * Running each build's dump through the other's check covers every legal position both ways (each index
 * holds one of a position and its mirror image at least).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb/tb_probe.h"

enum { LINE_MAX_CHARS = 256, DIFFS_SHOWN = 10 };

/* Prints every legal entry of DIR's SIG as "FEN;wdl dtm rule". */
static int dump(const char *dir, const char *name)
{
    TbSet *set = malloc(sizeof *set);
    Position *pos = malloc(sizeof *pos);
    TbSig sig;
    XqError e;
    if (!set || !pos || !tb_sig_parse(name, &sig, &e)) {
        fprintf(stderr, "error: bad signature or no memory\n");
        return 1;
    }
    sig = tb_sig_canonical(&sig);
    tb_set_init(set, dir);
    const TbTable *t = tb_set_table(set, &sig, &e);
    if (!t) {
        fprintf(stderr, "error: %s\n", e.msg);
        return 1;
    }
    char fen[FEN_MAX];
    for (uint64_t i = 0; i < t->layout.size; i++) {
        if (!tb_setup(&t->layout, i, pos))
            continue;
        TbValue v = tb_decode(tb_entry(t, i));
        printf("%s;%d %d %d\n", pos_to_fen(pos, fen, sizeof fen), v.wdl, v.dtm, v.rule);
    }
    tb_set_free(set);
    free(set);
    free(pos);
    return 0;
}

/* The FEN's board part mirrored left-right (each rank read backwards) into out. */
static void fen_mirror(const char *fen, char *out)
{
    size_t n = strcspn(fen, " "), start = 0;
    for (size_t i = 0; i <= n; i++)
        if (i == n || fen[i] == '/') {
            for (size_t k = start; k < i; k++)
                out[k] = fen[start + i - 1 - k];
            out[i] = fen[i];
            start = i + 1;
        }
    strcpy(out + n, fen + n);
}

/* The FEN colour-swapped into out: ranks in reverse order, letters' case swapped, the other side to move. */
static void fen_swap(const char *fen, char *out)
{
    size_t n = strcspn(fen, " "), o = 0;
    for (size_t end = n;;) { /* ranks from the last */
        size_t start = end;
        while (start > 0 && fen[start - 1] != '/')
            start--;
        for (size_t k = start; k < end; k++) {
            char c = fen[k];
            out[o++] = c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        }
        if (start == 0)
            break;
        out[o++] = '/';
        end = start - 1;
    }
    snprintf(out + o, FEN_MAX - o, " %c", fen[n + 1] == 'w' ? 'b' : 'w');
}

/* Probes fen in set; 1 if its value differs from want (or no table answers), printing the first few. */
static int check_one(TbSet *set, Position *pos, const char *fen, const TbValue *want, uint64_t *diffs)
{
    XqError e;
    TbValue v;
    if (pos_from_fen(pos, fen, &e) && tb_probe(set, pos, &v, &e) && v.wdl == want->wdl && v.dtm == want->dtm
        && v.rule == want->rule)
        return 0;
    if (++*diffs <= DIFFS_SHOWN)
        fprintf(stderr, "differs: %s want %d %d %d\n", fen, want->wdl, want->dtm, want->rule);
    return 1;
}

/* Probes each dumped line's position, mirror image and colour-swapped image in DIR. */
static int check(const char *dir)
{
    TbSet *set = malloc(sizeof *set);
    Position *pos = malloc(sizeof *pos);
    if (!set || !pos)
        return 1;
    tables_init();
    tb_set_init(set, dir);
    char line[LINE_MAX_CHARS], mirror[FEN_MAX], swap[FEN_MAX];
    uint64_t lines = 0, diffs = 0;
    while (fgets(line, sizeof line, stdin)) {
        char *semi = strchr(line, ';');
        TbValue want = { 0 };
        int rule = 0;
        if (!semi || sscanf(semi + 1, "%d %d %d", &want.wdl, &want.dtm, &rule) != 3) {
            fprintf(stderr, "error: bad line %" PRIu64 "\n", lines + 1);
            return 1;
        }
        want.rule = rule != 0;
        *semi = '\0';
        lines++;
        fen_mirror(line, mirror);
        fen_swap(line, swap);
        check_one(set, pos, line, &want, &diffs);
        check_one(set, pos, mirror, &want, &diffs);
        check_one(set, pos, swap, &want, &diffs);
    }
    printf("%" PRIu64 " positions (x3 images) checked, %" PRIu64 " differences\n", lines, diffs);
    tb_set_free(set);
    free(set);
    free(pos);
    return diffs ? 1 : 0;
}

/* tb_compare dump DIR SIG | tb_compare check DIR */
int main(int argc, char **argv)
{
    tables_init();
    if (argc == 4 && !strcmp(argv[1], "dump"))
        return dump(argv[2], argv[3]);
    if (argc == 3 && !strcmp(argv[1], "check"))
        return check(argv[2]);
    fprintf(stderr, "usage: tb_compare dump DIR SIG | tb_compare check DIR\n");
    return 2;
}
