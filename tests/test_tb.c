/* test_tb.c - endgame tablebases: signatures, the index, the generator against a plain alpha-beta,
 * colour swap and mirror, known endgame facts, the file checks and the `tb` command line. The tables
 * (KR-K, KH-K, KC-KA with its KC-K, KP-K) are generated into build/tests/tb_test at the start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/bytes.h"
#include "board/movegen.h"
#include "tb/tb_cli.h"
#include "tb/tb_pack.h"
#include "tbtest.h"
#include "testutil.h"

enum {
    WIN_DEPTH_MAX = 7, /* sampled wins and losses are searched to their DTM up to this many plies */
    DRAW_DEPTH = 4,    /* sampled draws are searched this deep: no forced result within it */
    SAMPLES = 60,      /* sampled entries per table and class (win, loss, draw) at most */
    GEN_THREADS = 2,
    TEXT_MAX = 512,
};

static const char *const ALL_TABLES[] = { "KR-K", "KH-K", "KC-K", "KC-KA", "KP-K", "KR-KA", "KR-KE" };
static char tb_dir[TEXT_MAX / 2];
static TbSet *set;
static Position *scratch;

/* The loaded table of a signature name. */
static TbTable *table_of(const char *name) { return tbtest_table(set, name); }

/* Path of a table file of the test directory. */
static void table_path(const char *name, char *path, size_t size)
{
    assert_true(tb_file_path(tb_dir, name, path, size));
}

/* Generates the test tables into a fresh tb_dir. */
static int setup_tables(void **state)
{
    (void)state;
    snprintf(tb_dir, sizeof tb_dir, "%s/tb_test", XQ_TEST_TMP);
    return tbtest_open(XQ_TEST_TMP, "tb_test", ALL_TABLES, (int)(sizeof ALL_TABLES / sizeof *ALL_TABLES), &set,
                       &scratch);
}

/* Frees the tables. */
static int teardown_tables(void **state)
{
    (void)state;
    return tbtest_close(set, scratch);
}

/* Signatures: both letter sets, names strongest first, the colour swap, the stored (canonical) form with
 * the stronger side red, what no table covers. */
static void test_signatures(void **state)
{
    (void)state;
    TbSig s;
    XqError e;
    char name[TB_SIG_TEXT];
    assert_true(tb_sig_parse("kpc-kbaea", &s, &e));
    assert_string_equal(tb_sig_name(&s, name, sizeof name), "KCP-KAAEE");
    assert_null(tb_sig_unsupported(&s));
    assert_true(tb_sig_parse("KN-K", &s, &e));
    assert_string_equal(tb_sig_name(&s, name, sizeof name), "KH-K");
    const char *stored[][2] = { { "KA-KRH", "KRH-KA" },   { "KH-KR", "KR-KH" },    { "KP-KC", "KC-KP" },
                                { "KRA-KR", "KRA-KR" },   { "KR-KRA", "KRA-KR" },  { "KR-KR", "KR-KR" },
                                { "KHA-KHE", "KHA-KHE" }, { "KHE-KHA", "KHA-KHE" } };
    for (size_t i = 0; i < sizeof stored / sizeof *stored; i++) {
        assert_true(tb_sig_parse(stored[i][0], &s, &e));
        assert_null(tb_sig_unsupported(&s));
        TbSig c = tb_sig_canonical(&s);
        assert_string_equal(tb_sig_name(&c, name, sizeof name), stored[i][1]);
        assert_true(tb_sig_is_canonical(&c));
        assert_int_equal(tb_sig_is_canonical(&s), strcmp(stored[i][0], stored[i][1]) == 0);
    }
    assert_true(tb_sig_parse("KRHC-K", &s, &e));
    assert_non_null(tb_sig_unsupported(&s));
    assert_true(tb_sig_parse("KA-KE", &s, &e));
    assert_non_null(tb_sig_unsupported(&s));
    const char *bad[] = { "", "KR", "KR-K-K", "KX-K", "RK-KK", "KAAA-K", "R-K" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_false(tb_sig_parse(bad[i], &s, &e));
        assert_non_null(strstr(e.msg, "bad signature"));
    }
}

/* Signature keys: every signature with at most two of each non-king type a side gets its own key in
 * range (all 3^12 of them), others -1; a set finds each table added by its key (looked up in the reverse
 * order) and nothing for a signature not added. */
static void test_signature_keys(void **state)
{
    (void)state;
    static const unsigned char TYPES[] = { ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN };
    enum { COUNTED = 2 * sizeof TYPES };
    static bool seen[TB_SIG_KEYS];
    static TbTable tables[TB_SET_MAX];
    TbSet *keyed = malloc(sizeof *keyed);
    assert_non_null(keyed);
    tb_set_init(keyed, NULL);
    int added = 0;
    for (int code = 0; code < TB_SIG_KEYS; code++) { /* every count vector: digit i counts TYPES[i % 6] of side i / 6 */
        TbSig sig = { { { 0 } } };
        sig.count[RED][KING] = sig.count[BLACK][KING] = 1;
        for (int i = 0, c = code; i < COUNTED; i++, c /= TB_SIG_RADIX)
            sig.count[i / sizeof TYPES][TYPES[i % sizeof TYPES]] = (unsigned char)(c % TB_SIG_RADIX);
        int key = tb_sig_key(&sig);
        assert_true(key >= 0 && key < TB_SIG_KEYS);
        assert_false(seen[key]);
        seen[key] = true;
        if (code % 517 == 3 && added < TB_SET_MAX) {
            tables[added].layout.sig = sig;
            assert_true(tb_set_add(keyed, &tables[added]));
            added++;
        }
    }
    assert_true(added > 500);
    for (int i = added - 1; i >= 0; i--)
        assert_ptr_equal(tb_set_find(keyed, &tables[i].layout.sig), &tables[i]);
    TbSig none;
    XqError e;
    assert_true(tb_sig_parse("KR-K", &none, &e));
    assert_null(tb_set_find(keyed, &none)); /* a keyed signature no table was added for */
    TbSig three = { { { 0 } } };
    three.count[RED][KING] = three.count[BLACK][KING] = 1;
    three.count[RED][PAWN] = 3;
    assert_int_equal(tb_sig_key(&three), -1);
    assert_null(tb_set_find(keyed, &three));
    keyed->count = 0; /* the tables are static: nothing for tb_set_free to free */
    free(keyed);
}

/* The generator stops after the first empty pass beyond its own sub-tables' distances: KC-KA (whose
 * KC-K is all draws) needs passes 0, 1 and 2, however long KH-K's wins (generated before it) are. */
static void test_generator_stops(void **state)
{
    (void)state;
    assert_true(table_of("KH-K")->stats.longest_win > 2);
    assert_int_equal(table_of("KC-K")->passes, 3);
    assert_int_equal(table_of("KC-KA")->passes, 3);
    assert_int_equal(table_of("KR-K")->passes, (int)table_of("KR-K")->stats.longest_loss + 2);
}

/* The forward method (every pass tries every entry) and the default un-move method give the same
 * tables, entry for entry. */
static void test_methods_agree(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof ALL_TABLES / sizeof *ALL_TABLES; k++)
        tbtest_forward_agrees(set, table_of(ALL_TABLES[k]));
}

/* Every legal entry of KC-KA indexes back to itself, read straight and colour-swapped. */
static void test_index_round_trip(void **state)
{
    (void)state;
    const TbTable *t = table_of("KC-KA");
    /* red's bare king: 3 canonical points off the e-file and 3 on it; black's king and advisor: 40 placements,
     * 21 up to the mirror (19 pairs of images, 2 symmetric); the cannon on 90 squares; both sides to move */
    assert_int_equal(t->layout.size, 2ULL * (3 * 40 + 3 * 21) * 90);
    Position *flipped = malloc(sizeof *flipped);
    assert_non_null(flipped);
    uint64_t legal = 0;
    for (uint64_t i = 0; i < t->layout.size; i++) {
        if (!tb_setup(&t->layout, i, scratch))
            continue;
        legal++;
        assert_true(pos_is_ok(scratch));
        assert_int_equal(tb_index_of(&t->layout, scratch, false), i);
        /* colour swap by hand: ranks reversed, colours and side to move swapped */
        memset(flipped, 0, offsetof(Position, hist));
        for (int sq = 0; sq < BOARD_SIZE; sq++)
            flipped->board[sq] = GEO->on_board[sq] ? EMPTY : OFF_BOARD;
        for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++) {
            int sq = scratch->piece_sq[id];
            if (!sq)
                continue;
            int fid = id ^ (RED_TAG | BLACK_TAG), fsq = sq_make(sq_file(sq), RANKS - 1 - sq_rank(sq));
            flipped->board[fsq] = (uint8_t)fid;
            flipped->piece_sq[fid] = (uint8_t)fsq;
        }
        flipped->side = scratch->side ^ 1;
        assert_int_equal(tb_index_of(&t->layout, flipped, true), i);
    }
    assert_int_equal(legal, t->stats.positions);
    free(flipped);
}

/* Sampled wins, losses (DTM up to WIN_DEPTH_MAX) and draws of every table agree with a plain alpha-beta
 * searched to the DTM: value and distance. */
static void test_alpha_beta_agrees(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof ALL_TABLES / sizeof *ALL_TABLES; k++)
        tbtest_alpha_beta_agrees(table_of(ALL_TABLES[k]), scratch, SAMPLES, WIN_DEPTH_MAX, DRAW_DEPTH);
}

/* Every legal entry equals what its moves give under the definition (tbtest.h), children probed through
 * the set (captures into the smaller tables); one-side tables hold no rule seed. */
static void test_every_entry_consistent(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof ALL_TABLES / sizeof *ALL_TABLES; k++)
        assert_int_equal(tbtest_entries_consistent(set, table_of(ALL_TABLES[k]), scratch), 0);
}

/* The FEN with colours swapped (ranks reversed, case and side to move swapped). */
static void fen_colour_swap(const char *fen, char *out)
{
    char ranks[RANKS][16];
    int r = 0, n = 0;
    const char *p = fen;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            ranks[r++][n] = '\0';
            n = 0;
        } else {
            char c = *p;
            ranks[r][n++] = c >= 'a' && c <= 'z' ? (char)(c - 32) : c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
        }
    }
    ranks[r][n] = '\0';
    out[0] = '\0';
    for (int i = RANKS - 1; i >= 0; i--) {
        strcat(out, ranks[i]);
        strcat(out, i ? "/" : "");
    }
    strcat(out, p[1] == 'w' ? " b" : " w");
}

/* Probes a FEN; fails the test if no table answers. */
static TbValue probe_fen(const char *fen)
{
    Position *pos = malloc(sizeof *pos);
    XqError e;
    TbValue v = { 0, 0, false };
    assert_non_null(pos);
    if (!pos_from_fen(pos, fen, &e))
        fail_msg("%s: %s", fen, e.msg);
    if (!tb_probe(set, pos, &v, &e))
        fail_msg("%s: %s", fen, e.msg);
    free(pos);
    return v;
}

/* Sampled positions, colour-swapped (black attacking) and mirrored, get the same answer. */
static void test_colour_swap_and_mirror(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof ALL_TABLES / sizeof *ALL_TABLES; k++) {
        const TbTable *t = table_of(ALL_TABLES[k]);
        int checked = 0;
        for (uint64_t i = 0; i < t->layout.size; i += 7) {
            if (!tb_setup(&t->layout, i, scratch))
                continue;
            char fen[FEN_MAX], swapped[FEN_MAX], mirrored[FEN_MAX], both[FEN_MAX];
            pos_to_fen(scratch, fen, sizeof fen);
            fen_colour_swap(fen, swapped);
            tbtest_fen_mirror(fen, mirrored);
            tbtest_fen_mirror(swapped, both);
            TbValue v = tb_decode(tb_entry(t, i)), a = probe_fen(swapped), b = probe_fen(mirrored), c = probe_fen(both);
            if (a.wdl != v.wdl || a.dtm != v.dtm || b.wdl != v.wdl || b.dtm != v.dtm || c.wdl != v.wdl
                || c.dtm != v.dtm)
                fail_msg("%s: %d/%d, swapped %s %d/%d, mirrored %s %d/%d", fen, v.wdl, v.dtm, swapped, a.wdl, a.dtm,
                         mirrored, b.wdl, b.dtm);
            checked++;
        }
        assert_true(checked > 0);
    }
}

/* Can the side to move capture the piece on sq at once? */
static bool can_capture(Position *pos, int sq)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++)
        if (move_to(moves[i]) == sq)
            return true;
    return false;
}

/* A rook against a bare king wins from every position except where black takes the rook at once. */
static void test_rook_beats_bare_king(void **state)
{
    (void)state;
    const TbTable *t = table_of("KR-K");
    int rook = side_tag(RED) + TYPE_FIRST[ROOK];
    for (uint64_t i = 0; i < t->layout.size; i++) {
        if (!tb_setup(&t->layout, i, scratch))
            continue;
        TbValue v = tb_decode(tb_get(t, i));
        if (scratch->side == RED)
            assert_int_equal(v.wdl, TB_WIN);
        else
            assert_int_equal(v.wdl, can_capture(scratch, scratch->piece_sq[rook]) ? TB_DRAW : TB_LOSS);
    }
}

/* A lone pawn against a bare king, red to move: a pawn short of black's back rank wins wherever it
 * stands, a pawn on the back rank (the "bottom pawn") never wins (xqinenglish.com, Practical endgames
 * 01: the high and low pawn against the bottom pawn; Brydon, MSO World 2000: "a lone pawn wins as long
 * as it is high enough"). */
static void test_pawn_against_bare_king(void **state)
{
    (void)state;
    const TbTable *t = table_of("KP-K");
    int pawn = side_tag(RED) + TYPE_FIRST[PAWN], counted[2] = { 0 };
    for (uint64_t i = 0; i < t->layout.half; i++) {
        if (!tb_setup(&t->layout, i, scratch))
            continue;
        bool bottom = sq_rank(scratch->piece_sq[pawn]) == RANKS - 1;
        assert_int_equal(tb_decode(tb_get(t, i)).wdl, bottom ? TB_DRAW : TB_WIN);
        counted[bottom]++;
    }
    assert_true(counted[0] > 0 && counted[1] > 0);
}

/* Copies a file, with bytes changed: size bytes kept (-1: all), byte at flip_at xored (-1: none). */
static void copy_file(const char *from, const char *to, long keep, long flip_at)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    long i = 0;
    for (int c; (c = fgetc(in)) != EOF && (keep < 0 || i < keep); i++)
        fputc(i == flip_at ? c ^ 1 : c, out);
    fclose(in);
    fclose(out);
}

/* Expects path to be refused with a message containing want. */
static void expect_refused(const char *path, const char *want)
{
    XqError e;
    TbTable *t = tb_file_read(path, &e);
    if (t) {
        tb_table_free(t);
        fail_msg("%s was accepted", path);
    }
    if (!strstr(e.msg, want))
        fail_msg("%s: '%s' does not say '%s'", path, e.msg, want);
}

/* Writes a file of `bytes` bytes: the magic, then the u32 version, then zeros. */
static void write_versioned(const char *path, unsigned version, long bytes)
{
    static const char magic[8] = { 'J', 'J', 'X', 'Q', 'T', 'B', 0x1a, '\n' };
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (long i = 0; i < bytes; i++)
        fputc(i < 8 ? magic[i] : i == 8 ? (int)version : 0, f);
    fclose(f);
}

/* Fails unless the legal entries of t read as those of the generated table mem. */
static void expect_same_entries(const TbTable *t, const TbTable *mem)
{
    assert_int_equal(t->layout.size, mem->layout.size);
    for (uint64_t i = 0; i < t->layout.size; i++)
        if (tb_setup(&mem->layout, i, scratch) && tb_entry(t, i) != tb_get(mem, i))
            fail_msg("%s entry %llu: read %u, generated %u", mem->name, (unsigned long long)i, tb_entry(t, i),
                     tb_get(mem, i));
}

/* A written table reads back equal (its legal entries; broken ones are the writer's don't-cares);
 * damaged, truncated, old and foreign files are refused with a reason. */
static void test_files_checked(void **state)
{
    (void)state;
    char path[TEXT_MAX], bad[TEXT_MAX];
    table_path("KP-K", path, sizeof path);
    XqError e;
    TbTable *t = tb_file_read(path, &e), *mem = table_of("KP-K");
    assert_non_null(t);
    expect_same_entries(t, mem);
    assert_int_equal(t->stats.wins, mem->stats.wins);
    tb_table_free(t);
    snprintf(bad, sizeof bad, "%.400s/bad.jjtb", tb_dir);
    copy_file(path, bad, -1, TB_HEADER_SIZE + 1001);
    expect_refused(bad, "payload checksum mismatch");
    copy_file(path, bad, -1, 30);
    expect_refused(bad, "header checksum mismatch");
    copy_file(path, bad, TB_HEADER_SIZE + 100, -1);
    expect_refused(bad, "truncated file");
    copy_file(path, bad, 50, -1);
    expect_refused(bad, "truncated file");
    copy_file(path, bad, -1, 0);
    expect_refused(bad, "bad magic");
    copy_file(XQ_TEST_DATA "/perft.epd", bad, -1, -1);
    expect_refused(bad, "bad magic");
    write_versioned(bad, TB_FILE_VERSION_RAW, 128 + 2 * 9720);
    expect_refused(bad, "format version 1 (no perpetual-check rule, uncompressed): regenerate it");
    write_versioned(bad, TB_FILE_VERSION_OLD_INDEX, TB_HEADER_SIZE);
    expect_refused(bad, "format version 2 (the older, larger index): regenerate it (jiangjun tb gen)");
    write_versioned(bad, TB_FILE_VERSION + 1, TB_HEADER_SIZE);
    expect_refused(bad, "unsupported tablebase version");
    expect_refused("/no/such/dir/KR-K.jjtb", "No such file");
    /* a file holding another table under this name is refused when probed */
    char other[TEXT_MAX];
    table_path("KH-K", other, sizeof other);
    TbSet *s = malloc(sizeof *s);
    assert_non_null(s);
    snprintf(bad, sizeof bad, "%.400s/swap", tb_dir);
    mkdir(bad, 0777);
    tb_set_init(s, bad);
    snprintf(bad, sizeof bad, "%.400s/swap/KR-K.jjtb", tb_dir);
    copy_file(other, bad, -1, -1);
    TbSig sig;
    assert_true(tb_sig_parse("KR-K", &sig, &e));
    assert_null(tb_set_table(s, &sig, &e));
    assert_non_null(strstr(e.msg, "holds KH-K"));
    tb_set_free(s);
    free(s);
}

/* Expects tb_pack_check to refuse p with a reason containing want. */
static void expect_bad_blocks(const TbPacked *p, const char *want)
{
    const char *why = tb_pack_check(p);
    if (!why || !strstr(why, want))
        fail_msg("'%s' does not say '%s'", why ? why : "(accepted)", want);
}

/* The compressed sections (whatever checksum a file would carry) are checked block by block: every entry
 * of a sound table decodes as generated; a bad index, block mode, DTM header or length is refused, so a
 * probe never reads outside the file. */
static void test_packed_blocks_checked(void **state)
{
    (void)state;
    const char *names[] = { "KH-K", "KR-KE" };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        const TbTable *mem = table_of(names[k]);
        TbPackOut out;
        assert_true(tb_pack_build(mem->val, mem->layout.size, 1000, &out)); /* small blocks: many of them, every mode */
        TbPacked p = { .wdl = out.wdl,
                       .dtm = out.dtm,
                       .wdl_bytes = out.wdl_bytes,
                       .dtm_bytes = out.dtm_bytes,
                       .entries = mem->layout.size,
                       .block = 1000,
                       .blocks = (mem->layout.size + 999) / 1000 };
        assert_null(tb_pack_check(&p));
        TbTable view = *mem;
        view.val = NULL;
        view.packed = p;
        expect_same_entries(&view, mem);
        uint64_t first = out.wdl[0] | (uint64_t)out.wdl[1] << 8, saved = first;
        out.wdl[0] = 0xFF; /* the first WDL block's offset past the section */
        out.wdl[1] = 0xFF;
        expect_bad_blocks(&p, "outside its section");
        out.wdl[0] = (uint8_t)saved;
        out.wdl[1] = (uint8_t)(saved >> 8);
        const uint8_t mode = out.wdl[first];
        out.wdl[first] = 7; /* the first block's mode */
        expect_bad_blocks(&p, "unknown WDL block mode");
        out.wdl[first] = (uint8_t)(mode == 2 ? 0 : 2); /* its bytes read in another mode */
        expect_bad_blocks(&p, mode == 2 ? "bad constant WDL block" : "run");
        tb_pack_out_free(&out);
        assert_true(tb_pack_build(mem->val, mem->layout.size, 1000, &out));
        p.wdl = out.wdl;
        p.dtm = out.dtm;
        uint64_t d = 0;
        for (uint64_t b = 0; b < p.blocks && !d; b++) /* the first non-empty DTM block */
            if (le64(out.dtm + 8 * b) != le64(out.dtm + 8 * (b + 1)))
                d = le64(out.dtm + 8 * b);
        assert_true(d > 0);
        const uint8_t bits = out.dtm[d + 2];
        out.dtm[d + 2] = 20; /* its bit width */
        expect_bad_blocks(&p, "bad DTM block header");
        out.dtm[d + 2] = (uint8_t)(bits == 15 ? 14 : bits + 1);
        expect_bad_blocks(&p, "DTM block of the wrong length");
        out.dtm[d + 2] = bits;
        assert_null(tb_pack_check(&p));
        p.dtm_bytes -= 1;
        expect_bad_blocks(&p, "outside its section");
        p.block = 0;
        expect_bad_blocks(&p, "bad block size");
        tb_pack_out_free(&out);
    }
}

/* Counts the errors tb_set_load_dir reports and keeps the last one (ctx: a char[TEXT_MAX]). */
static void note_error(void *ctx, const char *msg)
{
    snprintf(ctx, TEXT_MAX, "%s", msg);
}

/* Loading a directory finds every table in it, reports a refused file (a damaged one, a FIFO) and goes on; a
 * loaded set answers probes without loading (bare positions and missing tables: no answer) as the loading probe
 * does. */
static void test_load_dir_and_probe_loaded(void **state)
{
    (void)state;
    TbSet *s = malloc(sizeof *s);
    assert_non_null(s);
    tb_set_init(s, tb_dir);
    char msg[TEXT_MAX] = "";
    assert_int_equal(tb_set_load_dir(s, note_error, msg), (int)(sizeof ALL_TABLES / sizeof *ALL_TABLES));
    assert_string_equal(msg, "");
    for (size_t k = 0; k < sizeof ALL_TABLES / sizeof *ALL_TABLES; k++) {
        const TbTable *t = table_of(ALL_TABLES[k]);
        for (uint64_t i = 0; i < t->layout.size; i += 3) {
            TbValue a, b;
            XqError e;
            if (!tb_setup(&t->layout, i, scratch))
                continue;
            assert_true(tb_probe_loaded(s, scratch, &a));
            assert_true(tb_probe(set, scratch, &b, &e));
            assert_int_equal(a.wdl, b.wdl);
            assert_int_equal(a.dtm, b.dtm);
        }
    }
    TbValue v;
    test_setup(scratch, "4k4/9/9/9/9/9/9/9/9/3K1RR2 w");
    assert_false(tb_probe_loaded(s, scratch, &v));
    test_setup(scratch, "4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_false(tb_probe_loaded(s, scratch, &v));
    tb_set_free(s);
    char dir[TEXT_MAX], bad[TEXT_MAX], good[TEXT_MAX];
    snprintf(dir, sizeof dir, "%.400s/damaged", tb_dir);
    mkdir(dir, 0777);
    table_path("KR-K", good, sizeof good);
    snprintf(bad, sizeof bad, "%.400s/KR-K.jjtb", dir);
    copy_file(good, bad, TB_HEADER_SIZE + 10, -1);
    table_path("KP-K", good, sizeof good);
    snprintf(bad, sizeof bad, "%.400s/KP-K.jjtb", dir);
    copy_file(good, bad, -1, -1);
    tb_set_init(s, dir);
    assert_int_equal(tb_set_load_dir(s, note_error, msg), 1);
    assert_non_null(strstr(msg, "KR-K.jjtb: truncated file"));
    tb_set_free(s);
    /* A FIFO under a table's name is refused at once (opening it to read would block until a writer came). */
    snprintf(dir, sizeof dir, "%.400s/fifo", tb_dir);
    mkdir(dir, 0777);
    snprintf(bad, sizeof bad, "%.400s/KH-K.jjtb", dir);
    unlink(bad);
    assert_int_equal(mkfifo(bad, 0600), 0);
    tb_set_init(s, dir);
    assert_int_equal(tb_set_load_dir(s, note_error, msg), 0);
    assert_non_null(strstr(msg, "KH-K.jjtb: not a regular file"));
    tb_set_free(s);
    free(s);
}

/* At the root the kept moves play the table's value: every legal entry of KR-K, KH-K and KP-K gets its
 * own value back, and each kept move leads to the value one ply on. */
static void test_root_filter(void **state)
{
    (void)state;
    const char *names[] = { "KR-K", "KH-K", "KP-K" };
    Move moves[MAX_MOVES];
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        const TbTable *t = table_of(names[k]);
        for (uint64_t i = 0; i < t->layout.size; i++) {
            if (!tb_setup(&t->layout, i, scratch))
                continue;
            TbValue want = tb_decode(tb_get(t, i)), got;
            int n = gen_legal(scratch, moves);
            int kept = tb_root_filter(set, scratch, moves, n, &got);
            if (!n) {
                assert_int_equal(kept, -1);
                continue;
            }
            assert_true(kept >= 1 && kept <= n);
            assert_int_equal(got.wdl, want.wdl);
            assert_int_equal(got.dtm, want.dtm);
            assert_int_equal(got.rule, want.rule);
            for (int m = 0; m < kept; m++) {
                TbValue c;
                XqError e;
                pos_make(scratch, moves[m]);
                assert_true(tb_probe(set, scratch, &c, &e));
                pos_unmake(scratch);
                assert_int_equal(c.wdl, -want.wdl);
                if (want.wdl != TB_DRAW)
                    assert_int_equal(c.dtm, want.dtm - 1);
            }
        }
    }
}

/* Runs `jiangjun tb ARGS...` in-process; returns the status and the first line of out in line. */
static int run_tb(char *line, size_t size, int argc, char **argv)
{
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    int status = tb_cli(argc, argv, out, err);
    rewind(out);
    line[0] = '\0';
    if (!fgets(line, (int)size, out))
        line[0] = '\0';
    fclose(out);
    fclose(err);
    return status;
}

/* `tb probe FEN -dir tb_dir` exits with status and prints a line that is want (an answer) or holds it (an error). */
static void expect_probe(const char *fen, int status, const char *want)
{
    char line[TEXT_MAX];
    char *argv[] = { "tb", "probe", (char *)fen, "-dir", tb_dir };
    assert_int_equal(run_tb(line, sizeof line, 5, argv), status);
    if (status == 0)
        assert_string_equal(line, want);
    else if (strncmp(line, "error: ", 7) != 0 || !strstr(line, want) || strchr(line, '\n') != line + strlen(line) - 1)
        fail_msg("%s: '%s' is not one error line with '%s'", fen, line, want);
}

/* `tb probe` prints exactly one answer line or one error line; `tb info` prints the header. */
static void test_command_line(void **state)
{
    (void)state;
    char line[TEXT_MAX];
    /* mate in 3 plies (a0a8 e8e9 a8f8), as the engine's own search finds it */
    expect_probe("9/4k4/9/9/9/9/9/9/9/R2K5 w", 0, "wdl win dtm 3\n");
    char *lost[] = { "tb", "probe", "9/4k4/9/9/9/9/9/9/9/R2K5", "b", "-", "-", "0", "1", "-dir", tb_dir };
    assert_int_equal(run_tb(line, sizeof line, 10, lost), 0);
    assert_string_equal(line, "wdl loss dtm 4\n");
    expect_probe("r2k5/9/9/9/9/9/9/9/4K4/9 b", 0, "wdl win dtm 3\n");
    expect_probe("4P4/4k4/9/9/9/9/9/9/9/3K5 w", 0, "wdl draw dtm 0\n");
    expect_probe("4k4/9/9/9/9/9/9/9/9/3K5 w", 0, "wdl draw dtm 0\n");
    expect_probe("4k4/9/9/9/9/9/9/9/r8/3K1R3 w", 1, "KR-KR.jjtb");
    expect_probe("4k4/9/9/9/9/9/9/9/9/3K1RRH1 w", 1, "error: no table for KRRH-K: more than two attacking pieces");
    expect_probe("4k4/9/9/9/9/9/9/9/9/3K1RR2 w", 1, "KRR-K.jjtb");
    expect_probe("4k4/9/9 w", 1, "error: bad FEN");
    char path[TEXT_MAX];
    table_path("KR-K", path, sizeof path);
    char *info[] = { "tb", "info", path };
    assert_int_equal(run_tb(line, sizeof line, 3, info), 0);
    assert_string_equal(line, "signature KR-K\n");
    char *gen_bad[] = { "tb", "gen", "KRHC-K", "-dir", tb_dir };
    assert_int_equal(run_tb(line, sizeof line, 5, gen_bad), 1);
}

/* The rook against the defences (slow: KR-KAAEE and its eight sub-tables, about 30 s and 83 MB):
 * the home formation of the full defence draws whoever moves ("单车例和士象全"); one advisor or one
 * elephant fewer loses ("单车例胜单缺士", "单缺象"). */
static void test_rook_against_the_defences(void **state)
{
    (void)state;
    static const char *const names[] = { "KR-KAAEE" };
    char dir[TEXT_MAX];
    snprintf(dir, sizeof dir, "%s/tb_slow", XQ_TEST_TMP);
    TbSet *big = tbtest_generate(dir, names, 1, GEN_THREADS);
    assert_non_null(big);
    struct { const char *fen; int wdl; } facts[] = {
        { "2bakab2/9/9/9/R8/9/9/9/9/3K5 w", TB_DRAW },
        { "2bakab2/9/9/9/R8/9/9/9/9/3K5 b", TB_DRAW },
        { "2b1kab2/9/9/9/R8/9/9/9/9/3K5 w", TB_WIN },
        { "3akab2/9/9/9/R8/9/9/9/9/3K5 w", TB_WIN },
    };
    for (size_t i = 0; i < sizeof facts / sizeof *facts; i++) {
        TbValue v;
        XqError e;
        test_setup(scratch, facts[i].fen);
        assert_true(tb_probe(big, scratch, &v, &e));
        if (v.wdl != facts[i].wdl)
            fail_msg("%s: wdl %d, theory %d", facts[i].fen, v.wdl, facts[i].wdl);
    }
    tbtest_free(big);
}

/* Runs the tablebase tests (with --slow: the large tables' test instead). */
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--slow") == 0) {
        const struct CMUnitTest slow[] = { cmocka_unit_test(test_rook_against_the_defences) };
        scratch = malloc(sizeof *scratch);
        int failed = scratch ? cmocka_run_group_tests(slow, NULL, NULL) : 1;
        free(scratch);
        return failed;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signatures),
        cmocka_unit_test(test_signature_keys),
        cmocka_unit_test(test_index_round_trip),
        cmocka_unit_test(test_generator_stops),
        cmocka_unit_test(test_methods_agree),
        cmocka_unit_test(test_alpha_beta_agrees),
        cmocka_unit_test(test_every_entry_consistent),
        cmocka_unit_test(test_colour_swap_and_mirror),
        cmocka_unit_test(test_rook_beats_bare_king),
        cmocka_unit_test(test_pawn_against_bare_king),
        cmocka_unit_test(test_files_checked),
        cmocka_unit_test(test_packed_blocks_checked),
        cmocka_unit_test(test_command_line),
        cmocka_unit_test(test_load_dir_and_probe_loaded),
        cmocka_unit_test(test_root_filter),
    };
    return cmocka_run_group_tests(tests, setup_tables, teardown_tables);
}
