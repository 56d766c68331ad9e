/*
 * test_xqgen_shard.c - data at scale with xqgen (tools/xqgen/gen_shard,
 * gen_files): the contiguous shares of -shard I/N; 12 games at 256 nodes
 * played whole and as 3 shards, merged into the same bytes, in the plain and
 * the compact format; merge refusing shards that do not make one run
 * (missing, repeated, another N, other options, unfinished, damaged, no
 * shard, its own output, a shard stopped by a signal); and the command line
 * (argv[1] is the xqgen binary): shards merged, compact play and -append, pack
 * and unpack, dump and stats of either format.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "xqgen_testutil.h"
#include "xqgen/gen_files.h"
#include "xqgen/gen_play.h"
#include "xqgen/gen_shard.h"

enum { GAMES = 12, NODES = 256, MAX_PLIES = 100, SHARDS = 3, CMD_MAX = 2048, DIR_LEN = 64, PATH_LEN = 128 };

static const char *g_xqgen; /* path of the xqgen binary */
static char g_dir[DIR_LEN]; /* the test's temporary directory */

/* A path in the temporary directory. */
static const char *path_of(const char *name, char out[PATH_LEN])
{
    snprintf(out, PATH_LEN, "%s/%s", g_dir, name);
    return out;
}

/* Are two files the same bytes? */
static bool same_bytes(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *x = xqgen_slurp(a, &na), *y = xqgen_slurp(b, &nb);
    bool same = na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

/* The test's play settings: GAMES games at NODES nodes, short. */
static void config(GenConfig *cfg, uint64_t nodes)
{
    gen_config_default(cfg);
    cfg->nodes = nodes;
    cfg->hash_mb = 1;
    cfg->max_plies = MAX_PLIES;
}

/* Plays the run (shard 0: whole, else shard `shard` of `shards`) into path. */
static void play_shard(const char *path, RecFormat format, uint32_t shard, uint32_t shards, uint64_t nodes)
{
    GenConfig cfg;
    config(&cfg, nodes);
    GenShard s;
    XqError err;
    char net_id[64];
    GenRunOptions opt = { path, false, GAMES, 0, 2, 0, NULL, NULL, format, NULL };
    if (shard) {
        assert_true(gen_net_identity(NULL, cfg.net, net_id, sizeof net_id, &err));
        assert_true(gen_shard_init(&s, shard, shards, GAMES, &cfg, format, net_id, &err));
        opt.games = s.games;
        opt.shard = &s;
    }
    GenSummary sum;
    assert_true(gen_run(&cfg, &opt, &sum, &err));
    assert_int_equal(sum.games, opt.games);
}

/* Plays the run (shard 0: whole, else shard `shard` of SHARDS) into path. */
static void play(const char *path, RecFormat format, uint32_t shard, uint64_t nodes)
{
    play_shard(path, format, shard, SHARDS, nodes);
}

/* Merges shard files; returns whether it did, with the error text in err. */
static bool merge(const char *out, const char *a, const char *b, const char *c, XqError *err)
{
    char *paths[SHARDS] = { (char *)a, (char *)b, (char *)c };
    MergeStats st;
    int n = c ? 3 : b ? 2 : 1;
    return gen_merge(out, paths, n, NULL, &st, err);
}

/* The shares are contiguous, cover every game once, and differ by one game at most; I/N is parsed strictly. */
static void test_shares(void **state)
{
    (void)state;
    GenConfig cfg;
    config(&cfg, NODES);
    XqError err;
    for (uint64_t total = 1; total <= 40; total++)
        for (uint32_t n = 1; n <= total && n <= 9; n++) {
            uint64_t next = 0;
            for (uint32_t i = 1; i <= n; i++) {
                GenShard s;
                assert_true(gen_shard_init(&s, i, n, total, &cfg, REC_PLAIN, "hce", &err));
                assert_int_equal(s.first, next);
                assert_true(s.games == total / n || s.games == total / n + 1);
                next += s.games;
            }
            assert_int_equal(next, total);
        }
    GenShard s;
    assert_false(gen_shard_init(&s, 1, 5, 4, &cfg, REC_PLAIN, "hce", &err));
    uint32_t i, n;
    assert_true(gen_shard_parse("2/3", &i, &n) && i == 2 && n == 3);
    const char *bad[] = { "0/3", "4/3", "3", "a/b", "1/3x", "-1/3", "1/-3", " 1/3", "" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
        assert_false(gen_shard_parse(bad[k], &i, &n));
}

/* 12 games whole and as 3 shards merged (given in any order) are the same bytes, plain and compact; the
 * compact file unpacks to the plain one. */
static void test_shards_merge_to_the_whole(void **state)
{
    (void)state;
    char whole[PATH_LEN], merged[PATH_LEN], s[SHARDS][PATH_LEN], unpacked[PATH_LEN], whole_plain[PATH_LEN];
    for (int f = 0; f < REC_FORMATS; f++) {
        char name[32];
        snprintf(name, sizeof name, "whole.%d", f);
        play(path_of(name, whole), (RecFormat)f, 0, NODES);
        for (int k = 0; k < SHARDS; k++) {
            snprintf(name, sizeof name, "shard%d.%d", k + 1, f);
            play(path_of(name, s[k]), (RecFormat)f, (uint32_t)k + 1, NODES);
        }
        XqError err;
        snprintf(name, sizeof name, "merged.%d", f);
        assert_true(merge(path_of(name, merged), s[2], s[0], s[1], &err));
        assert_true(same_bytes(whole, merged));
        if (f == REC_PLAIN)
            snprintf(whole_plain, sizeof whole_plain, "%s", whole);
    }
    TranscodeStats st;
    XqError err;
    assert_true(gen_transcode(whole, path_of("unpacked", unpacked), REC_PLAIN, &st, &err));
    assert_true(same_bytes(unpacked, whole_plain));
}

/* Makes a copy of a file with a 32-bit field at `at` set to v (or, with v UINT32_MAX, cut to `at` bytes). */
static void copy_patched(const char *src, const char *dst, size_t at, uint32_t v)
{
    size_t n;
    uint8_t *data = xqgen_slurp(src, &n);
    if (v != UINT32_MAX)
        for (int i = 0; i < 4; i++)
            data[at + (size_t)i] = (uint8_t)(v >> (8 * i));
    FILE *f = fopen(dst, "wb");
    size_t size = v == UINT32_MAX ? at : n;
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    free(data);
}

/* Merge refuses, with an error naming why and no output, what is not one whole run. */
static void test_merge_refuses(void **state)
{
    (void)state;
    char s[SHARDS][PATH_LEN], out[PATH_LEN], other[PATH_LEN], bad[PATH_LEN], whole[PATH_LEN];
    for (int k = 0; k < SHARDS; k++) {
        char name[32];
        snprintf(name, sizeof name, "r%d", k + 1);
        play(path_of(name, s[k]), REC_PLAIN, (uint32_t)k + 1, NODES);
    }
    path_of("refused", out);
    path_of("other-nodes", other);
    path_of("bad", bad);
    play(other, REC_PLAIN, 2, NODES * 2);
    play(path_of("whole", whole), REC_PLAIN, 0, NODES);
    const struct {
        const char *a, *b, *c, *why;
    } cases[] = {
        { s[0], s[1], NULL, "shard 3/3 is missing" },
        { s[0], s[1], s[1], "shard 2/3 is given twice" },
        { s[0], other, s[2], "'-nodes 512' against '-nodes 256'" },
        { s[0], s[1], whole, "not a shard file" },
    };
    XqError err;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        assert_false(merge(out, cases[k].a, cases[k].b, cases[k].c, &err));
        if (!strstr(err.msg, cases[k].why))
            fail_msg("case %zu: '%s' does not say '%s'", k, err.msg, cases[k].why);
        assert_int_equal(access(out, F_OK), -1);
    }
    /* another N: shard 1 of a 4-shard run; a header that does not add up */
    play_shard(bad, REC_PLAIN, 1, SHARDS + 1, NODES);
    assert_false(merge(out, bad, s[1], s[2], &err));
    assert_non_null(strstr(err.msg, "not one run"));
    copy_patched(s[0], bad, 16, SHARDS + 1);
    assert_false(merge(out, bad, s[1], s[2], &err));
    assert_non_null(strstr(err.msg, "damaged shard header"));
    /* unfinished: the state a killed run leaves, and a run stopped early */
    copy_patched(s[1], bad, 20, SHARD_WRITING);
    assert_false(merge(out, s[0], bad, s[2], &err));
    assert_non_null(strstr(err.msg, "is not complete"));
    copy_patched(s[1], bad, 48, 1);
    assert_false(merge(out, s[0], bad, s[2], &err));
    assert_non_null(strstr(err.msg, "1 of 4 games"));
    /* damaged: a record cut off, or the header's count of records wrong */
    size_t n;
    free(xqgen_slurp(s[2], &n));
    copy_patched(s[2], bad, n - 1, UINT32_MAX);
    assert_false(merge(out, s[0], s[1], bad, &err));
    assert_non_null(strstr(err.msg, "damaged"));
    copy_patched(s[2], bad, 56, 3);
    assert_false(merge(out, s[0], s[1], bad, &err));
    assert_non_null(strstr(err.msg, "damaged"));
    assert_int_equal(access(out, F_OK), -1);
    /* a shard run stopped by a signal before its first game says so in its envelope */
    GenConfig cfg;
    config(&cfg, NODES);
    GenShard stopped;
    GenSummary sum;
    volatile sig_atomic_t signalled = 1;
    assert_true(gen_shard_init(&stopped, 2, SHARDS, GAMES, &cfg, REC_PLAIN, "hce", &err));
    GenRunOptions opt = { bad, false, stopped.games, 0, 1, 0, NULL, &signalled, REC_PLAIN, &stopped };
    assert_true(gen_run(&cfg, &opt, &sum, &err));
    FILE *f = fopen(bad, "rb");
    assert_true(gen_shard_read(f, &stopped, &err));
    fclose(f);
    assert_int_equal(stopped.state, SHARD_STOPPED);
    assert_int_equal(stopped.games_written, 0);
    assert_false(merge(out, s[0], bad, s[2], &err));
    assert_non_null(strstr(err.msg, "stopped early"));
    /* the output is one of the shards */
    assert_false(merge(s[0], s[0], s[1], s[2], &err));
    assert_non_null(strstr(err.msg, "overwrite"));
    assert_true(merge(out, s[0], s[1], s[2], &err));
}

/* The binary: shards merge to the whole run, compact play unpacks to plain play, dump and stats read both
 * formats alike, pack and unpack round-trip, bad uses fail with an error. */
static void test_command_line(void **state)
{
    (void)state;
    char cmd[CMD_MAX];
    const char *opts = "-games 12 -nodes 256 -hash 1 -max-plies 100 -progress 0 -threads 2";
    snprintf(cmd, sizeof cmd,
             "cd %s && X=%s && $X play -out w.bin %s 2>/dev/null && for i in 1 2 3; do $X play -out s$i.bin %s "
             "-shard $i/3 2>/dev/null || exit 9; done && $X merge -out m.bin s2.bin s3.bin s1.bin 2>/dev/null "
             "&& cmp -s w.bin m.bin",
             g_dir, g_xqgen, opts, opts);
    assert_int_equal(xqgen_run(cmd), 0);
    snprintf(
        cmd, sizeof cmd,
        "cd %s && X=%s && $X play -out c.xqp -format compact %s 2>/dev/null && $X unpack c.xqp u.bin 2>/dev/null "
        "&& cmp -s u.bin w.bin && $X pack w.bin p.xqp 2>/dev/null && cmp -s p.xqp c.xqp "
        "&& $X dump c.xqp > c.txt && $X dump w.bin > w.txt && cmp -s c.txt w.txt "
        "&& $X dump c.xqp -skip 100 -n 7 > c7.txt && $X dump w.bin -skip 100 -n 7 > w7.txt && cmp -s c7.txt w7.txt "
        "&& $X stats c.xqp | tail -n +2 > c.st && $X stats w.bin | tail -n +2 > w.st && cmp -s c.st w.st "
        "&& $X convert -format compact w.txt v.xqp 2>/dev/null && $X unpack v.xqp v.bin 2>/dev/null "
        "&& cmp -s v.bin w.bin",
        g_dir, g_xqgen, opts);
    assert_int_equal(xqgen_run(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "cd %s && X=%s && cp c.xqp ca.xqp && cp w.bin wa.bin && for f in 'ca.xqp -format compact' wa.bin; do "
             "$X play -out $f %s -games 2 -seed 2 -append 2>/dev/null || exit 9; done && $X unpack ca.xqp ua.bin "
             "2>/dev/null && cmp -s ua.bin wa.bin && test $(stat -c %%s wa.bin) -gt $(stat -c %%s w.bin)",
             g_dir, g_xqgen, opts);
    assert_int_equal(xqgen_run(cmd), 0);
    const struct {
        const char *args;
        int rc;
    } bad[] = {
        { "play -out x.bin -games 12 -shard 4/3", 2 },
        { "play -out x.bin -games 12 -positions 100 -shard 1/3", 2 },
        { "play -out x.bin -games 2 -shard 1/3", 2 },
        { "play -out x.bin -games 2 -format tiny", 2 },
        { "merge -out x.bin s1.bin s2.bin", 1 },
        { "pack w.bin w.bin", 1 },
        { "play -out c.xqp -games 1 -append -progress 0", 1 },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s %s 2>err.txt; rc=$?; grep -q 'error: \\|wants' err.txt && exit $rc",
                 g_dir, g_xqgen, bad[k].args);
        if (xqgen_run(cmd) != bad[k].rc)
            fail_msg("xqgen %s: not exit %d with an error", bad[k].args, bad[k].rc);
    }
}

/* Makes the temporary directory. */
static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/test_xqgen_shard_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

/* Removes the temporary directory. */
static int teardown(void **state)
{
    (void)state;
    char cmd[CMD_MAX];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return xqgen_run(cmd) == 0 ? 0 : -1;
}

/* argv[1]: the xqgen binary. */
int main(int argc, char **argv)
{
    g_xqgen = argc > 1 ? argv[1] : "xqgen";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shares),
        cmocka_unit_test(test_shards_merge_to_the_whole),
        cmocka_unit_test(test_merge_refuses),
        cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
