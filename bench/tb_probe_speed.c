/*
 * tb_probe_speed.c - probe time of a table read from its compressed file against the same table held raw
 * (2 bytes an entry, as the generator makes it): every legal position of the table is set up and probed
 * through tb_probe_loaded, REPEAT times over, and the time per probe (less the time of the set-ups alone)
 * is printed for each.
 * Build and run (after the Release build in build/):
 *   cc -O2 -std=c11 -Isrc bench/tb_probe_speed.c build/libxqcore.a -lpthread -lm -o /tmp/tb_probe_speed
 *   /tmp/tb_probe_speed DIR SIG   (DIR holds SIG's file and its sub-tables' files, e.g. build/tb KR-KAE)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/platform.h"
#include "tb/tb_gen.h"

enum { REPEAT = 10 };

/* Sets up every legal position of t REPEAT times, probing each in set (NULL: none); returns the microseconds
 * taken, *sum a checksum of the answers. */
static int64_t run(const TbTable *t, const TbSet *set, Position *pos, uint64_t *sum, uint64_t *count)
{
    int64_t t0 = now_us();
    *sum = *count = 0;
    for (int r = 0; r < REPEAT; r++)
        for (uint64_t i = 0; i < t->layout.size; i++) {
            TbValue v;
            if (!tb_setup(&t->layout, i, pos))
                continue;
            ++*count;
            if (set && tb_probe_loaded(set, pos, &v))
                *sum += (uint64_t)(v.wdl + 1) * 65536 + (uint64_t)v.dtm * 2 + v.rule;
        }
    return now_us() - t0;
}

/* Loads SIG from DIR, generates it again in memory, and times both. */
int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: tb_probe_speed DIR SIG\n");
        return 2;
    }
    tables_init();
    TbSet *file = malloc(sizeof *file), *raw = malloc(sizeof *raw);
    TbSig sig;
    XqError e;
    if (!file || !raw || !tb_sig_parse(argv[2], &sig, &e)) {
        fprintf(stderr, "error: bad signature or no memory\n");
        return 1;
    }
    sig = tb_sig_canonical(&sig);
    tb_set_init(file, argv[1]);
    TbTable *t = tb_set_table(file, &sig, &e);
    TbGenOptions opt = { .threads = 1 };
    tb_set_init(raw, argv[1]); /* sub-tables from the files; the table itself generated */
    TbTable *g = t ? tb_gen_solve(raw, &sig, &opt, &e) : NULL;
    if (!t || !g || !tb_set_add(raw, g)) {
        fprintf(stderr, "error: %s\n", e.msg);
        return 1;
    }
    Position *pos = malloc(sizeof *pos);
    uint64_t a, b, none, count;
    int64_t base = run(t, NULL, pos, &none, &count), packed = run(t, file, pos, &a, &count),
            flat = run(t, raw, pos, &b, &count);
    printf("%s: file %zu bytes (%s), %" PRIu64 " probes each\n", t->name, t->file_size, t->mapped ? "mapped" : "read",
           count);
    printf("compressed file: %.1f ns per probe\nraw in memory:   %.1f ns per probe\n(set-ups alone: %.1f ns each)\n",
           1000.0 * (packed - base) / count, 1000.0 * (flat - base) / count, 1000.0 * base / count);
    printf("answers %s\n", a == b ? "agree" : "DIFFER");
    free(pos);
    tb_set_free(file);
    tb_set_free(raw);
    return a == b ? 0 : 1;
}
