/*
 * test_xqgen.c - the training-data generator (tools/xqgen): records packed
 * and unpacked over positions of random play; convert of tests/data/
 * xqgen_sample.txt (good and bad lines) and dump back; self-play output that
 * is byte-identical across thread counts and runs, differs with the seed, and
 * holds only legal, consecutive positions with consistent results; and the
 * command line itself (argv[1] is the xqgen binary).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xqgen/gen_game.h"
#include "xqgen/gen_play.h"
#include "xqgen/gen_text.h"
#include "board/movegen.h"
#include "testutil.h"
#include "xqgen_testutil.h"

enum {
    RANDOM_GAMES = 40,
    RANDOM_PLIES = 160,
    PLAY_GAMES = 4,
    PLAY_NODES = 300,
    PLAY_MAX_PLIES = 80,
    SAMPLE_LINES = 21,
    SAMPLE_GOOD = 9,
    SAMPLE_BAD = 9,
    SAMPLE_FIRST_BAD = 13,
    CMD_MAX = 1024,
};

static const char *g_xqgen; /* path of the xqgen binary */

/* Same pieces (side and type) on every square? */
static void assert_same_board(const Position *a, const Position *b)
{
    for (int sq = 0; sq < BOARD_SIZE; sq++) {
        int x = a->board[sq], y = b->board[sq];
        if (x == EMPTY || x == OFF_BOARD || y == EMPTY || y == OFF_BOARD)
            assert_int_equal(x, y);
        else
            assert_int_equal(piece_side(x) * PIECE_TYPES + piece_type(x), piece_side(y) * PIECE_TYPES + piece_type(y));
    }
}

/* Every position of random games packs, encodes, decodes and unpacks to itself. */
static void test_packed_round_trip(void **state)
{
    (void)state;
    Position *pos = malloc(sizeof *pos), *back = malloc(sizeof *back);
    uint64_t rng = 0x1234567ull;
    long positions = 0;
    for (int game = 0; game < RANDOM_GAMES; game++) {
        test_setup(pos, START_FEN);
        for (int ply = 0; ply < RANDOM_PLIES; ply++) {
            PackedPos rec, dec;
            memset(&rec, 0, sizeof rec);
            packed_from_position(&rec, pos);
            rec.result = (int8_t)((int)(test_random(&rng) % 3) - 1);
            rec.score = (int16_t)(test_random(&rng) % 65536 - 32768);
            rec.ply = (uint16_t)ply;
            rec.flags = (uint8_t)(test_random(&rng) % 8);
            uint8_t bytes[NNUE_REC_SIZE];
            packed_encode(&rec, bytes);
            assert_int_equal(bytes[39], 0);
            packed_decode(bytes, &dec);
            assert_memory_equal(rec.sq, dec.sq, sizeof rec.sq);
            assert_int_equal(rec.stm, dec.stm);
            assert_int_equal(rec.result, dec.result);
            assert_int_equal(rec.score, dec.score);
            assert_int_equal(rec.ply, dec.ply);
            assert_int_equal(rec.flags, dec.flags);
            XqError err;
            assert_true(packed_to_position(&dec, back, &err));
            assert_same_board(pos, back);
            assert_int_equal(pos->side, back->side);
            assert_true(pos->key == back->key);
            assert_int_equal(pos->in_check, back->in_check);
            positions++;
            Move moves[MAX_MOVES];
            int n = gen_legal(pos, moves);
            if (n == 0)
                break;
            pos_make(pos, moves[test_random(&rng) % (uint64_t)n]);
        }
    }
    assert_true(positions > RANDOM_GAMES * RANDOM_PLIES / 2);
    /* and broken records are refused, not crashed on */
    PackedPos rec;
    XqError err;
    test_setup(pos, START_FEN);
    packed_from_position(&rec, pos);
    rec.sq[3] = rec.sq[4];
    assert_false(packed_to_position(&rec, back, &err));
    packed_from_position(&rec, pos);
    rec.sq[0] = 90;
    assert_false(packed_to_position(&rec, back, &err));
    packed_from_position(&rec, pos);
    rec.stm = 2;
    assert_false(packed_to_position(&rec, back, &err));
    free(pos);
    free(back);
}

/* Makes a temporary file name (the file exists, empty). */
static void temp_path(char path[64])
{
    snprintf(path, 64, "/tmp/test_xqgen_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

/* Converts a text file to a record file; returns the stats. */
static ConvertStats convert_file(const char *in_path, const char *out_path)
{
    FILE *in = fopen(in_path, "r"), *out = fopen(out_path, "wb");
    assert_non_null(in);
    assert_non_null(out);
    ConvertStats st;
    XqError err;
    assert_true(gen_convert(in, out, REC_PLAIN, &st, &err));
    fclose(in);
    assert_int_equal(fclose(out), 0);
    return st;
}

/* Dumps a record file to a text file; returns the number of records. */
static long dump_file(const char *in_path, const char *out_path)
{
    long n = 0;
    XqError err;
    RecReader in;
    RecScan scan;
    assert_true(rec_reader_open(&in, in_path, &err));
    assert_true(rec_reader_scan(&in, &scan, &err));
    assert_int_equal(scan.tail, 0);
    FILE *out = fopen(out_path, "w");
    uint8_t raw[NNUE_REC_SIZE];
    while (rec_reader_next(&in, raw)) {
        PackedPos rec;
        char line[GEN_TEXT_MAX];
        packed_decode(raw, &rec);
        assert_true(gen_format_record(&rec, line, sizeof line, &err));
        fprintf(out, "%s\n", line);
        n++;
    }
    assert_false(in.failed);
    assert_int_equal((uint64_t)n, scan.records);
    rec_reader_close(&in);
    fclose(out);
    return n;
}

/* The sample's good lines convert, its bad ones are counted by line; dump gives the text back; dump converts to
 * the same bytes. */
static void test_convert_and_dump(void **state)
{
    (void)state;
    char sample[512], bin[64], text[64], bin2[64];
    snprintf(sample, sizeof sample, "%s/xqgen_sample.txt", XQ_TEST_DATA);
    temp_path(bin);
    temp_path(text);
    temp_path(bin2);
    ConvertStats st = convert_file(sample, bin);
    assert_int_equal(st.lines, SAMPLE_LINES);
    assert_int_equal(st.records, SAMPLE_GOOD);
    assert_int_equal(st.bad, SAMPLE_BAD);
    for (int i = 0; i < GEN_BAD_SHOWN; i++)
        assert_int_equal(st.bad_line[i], SAMPLE_FIRST_BAD + i);
    assert_int_equal(dump_file(bin, text), SAMPLE_GOOD);

    /* each dump line starts with its source line (FEN;result;cp), then ply and flags */
    FILE *src = fopen(sample, "r"), *dump = fopen(text, "r");
    char a[GEN_TEXT_MAX], b[GEN_TEXT_MAX];
    int good = 0, checks = 0, mates = 0;
    while (good < SAMPLE_GOOD && fgets(a, sizeof a, src)) {
        if (a[0] == '#' || a[0] == '\n')
            continue;
        assert_non_null(fgets(b, sizeof b, dump));
        a[strcspn(a, "\n")] = b[strcspn(b, "\n")] = '\0';
        int semis = 0;
        for (const char *s = a; *s; s++)
            semis += *s == ';';
        if (semis == 4) {
            assert_string_equal(a, b);
        } else {
            size_t n = strlen(a);
            assert_memory_equal(a, b, n);
            assert_int_equal(b[n], ';');
            unsigned ply, flags;
            assert_int_equal(sscanf(b + n, ";%u;%u", &ply, &flags), 2);
            assert_int_equal(ply, GEN_PLY_UNKNOWN);
            checks += (flags & NNUE_REC_IN_CHECK) != 0;
            mates += (flags & NNUE_REC_MATE) != 0;
            assert_int_equal((flags & NNUE_REC_MATE) != 0, strstr(a, ";3000") || strstr(a, ";-3000"));
        }
        good++;
    }
    assert_int_equal(good, SAMPLE_GOOD);
    assert_int_equal(checks, 2);
    assert_int_equal(mates, 3);
    fclose(src);
    fclose(dump);

    /* a record that says "mate in 0 for the side to move" converts to a win for it, stored as +3000 */
    PackedPos rec;
    XqError err;
    assert_true(gen_parse_line("2b2kb2/4P4/3N5/9/9/9/2p1p4/5A3/3KA4/9 b - - 0 1;1;3000\r\n", &rec, &err));
    assert_int_equal(rec.stm, BLACK);
    assert_int_equal(rec.result, -1);
    assert_int_equal(rec.score, -3000);

    st = convert_file(text, bin2);
    assert_int_equal(st.bad, 0);
    size_t n1, n2;
    uint8_t *x = xqgen_slurp(bin, &n1), *y = xqgen_slurp(bin2, &n2);
    assert_int_equal(n1, NNUE_REC_HEADER + SAMPLE_GOOD * NNUE_REC_SIZE);
    assert_int_equal(n1, n2);
    assert_memory_equal(x, y, n1);
    free(x);
    free(y);
    remove(bin);
    remove(text);
    remove(bin2);
}

/* The test's play settings: 4 short games at 300 nodes (the search checks its budget every 1024 nodes). */
static void play_config(GenConfig *cfg, uint64_t seed)
{
    gen_config_default(cfg);
    cfg->seed = seed;
    cfg->nodes = PLAY_NODES;
    cfg->hash_mb = 1;
    cfg->max_plies = PLAY_MAX_PLIES;
}

/* Runs xqgen play into a new temporary file and returns its bytes. */
static uint8_t *play(uint64_t seed, int threads, uint64_t games, uint64_t positions, size_t *size, GenSummary *sum)
{
    GenConfig cfg;
    play_config(&cfg, seed);
    char path[64];
    temp_path(path);
    GenRunOptions opt = { path, false, games, positions, threads, 0, NULL, NULL, REC_PLAIN, NULL };
    XqError err;
    assert_true(gen_run(&cfg, &opt, sum, &err));
    uint8_t *data = xqgen_slurp(path, size);
    remove(path);
    return data;
}

/*
 * Checks a play file: every record a legal position, games of consecutive plies each reached by a legal move from
 * the one before, one result per game seen from each side to move, flags and scores as documented. Returns the
 * number of games; start[g] gets the byte offset of game g for the first PLAY_GAMES games.
 */
static int check_games(const uint8_t *data, size_t size, size_t start[PLAY_GAMES + 1])
{
    assert_int_equal((size - NNUE_REC_HEADER) % NNUE_REC_SIZE, 0);
    size_t n = (size - NNUE_REC_HEADER) / NNUE_REC_SIZE;
    Position *pos = malloc(sizeof *pos), *prev = malloc(sizeof *prev);
    PackedPos rec, last;
    int games = 0, red_result = 0;
    for (int g = 0; g <= PLAY_GAMES; g++)
        start[g] = size;
    for (size_t i = 0; i < n; i++) {
        packed_decode(data + NNUE_REC_HEADER + i * NNUE_REC_SIZE, &rec);
        XqError err;
        assert_true(packed_to_position(&rec, pos, &err));
        assert_true(rec.result >= -1 && rec.result <= 1);
        assert_int_equal((rec.flags & NNUE_REC_IN_CHECK) != 0, pos->in_check != 0);
        if (rec.flags & NNUE_REC_MATE)
            assert_int_equal(abs(rec.score), GEN_MATE_SCORE);
        else
            assert_true(abs(rec.score) <= GEN_MAX_SCORE);
        if (i == 0 || rec.ply != last.ply + 1) {
            if (games < PLAY_GAMES)
                start[games] = NNUE_REC_HEADER + i * NNUE_REC_SIZE;
            games++;
            assert_true(rec.ply >= 6 && rec.ply <= 10); /* the default random opening, 6-10 plies */
            red_result = rec.stm == RED ? rec.result : -rec.result;
        } else {
            assert_int_equal(rec.stm, !last.stm);
            assert_int_equal(red_result, rec.stm == RED ? rec.result : -rec.result);
            Move moves[MAX_MOVES];
            int k = gen_legal(prev, moves), found = 0;
            for (int m = 0; m < k; m++) {
                pos_make(prev, moves[m]);
                found += prev->key == pos->key;
                pos_unmake(prev);
            }
            assert_int_equal(found, 1);
        }
        assert_true(rec.ply < PLAY_MAX_PLIES);
        last = rec;
        Position *t = prev;
        prev = pos;
        pos = t;
    }
    free(pos);
    free(prev);
    return games;
}

/* Same bytes for 1 and 2 threads and for a repeated run; another seed gives other games; -positions stops in
 * game order. */
static void test_play_deterministic(void **state)
{
    (void)state;
    size_t na, nb, nc, nd, ne, start[PLAY_GAMES + 1], other[PLAY_GAMES + 1];
    GenSummary sa, sb, sc, sd, se;
    uint8_t *a = play(1, 1, PLAY_GAMES, 0, &na, &sa);
    uint8_t *b = play(1, 2, PLAY_GAMES, 0, &nb, &sb);
    uint8_t *c = play(1, 2, PLAY_GAMES, 0, &nc, &sc);
    uint8_t *d = play(2, 2, PLAY_GAMES, 0, &nd, &sd);
    assert_int_equal(check_games(a, na, start), PLAY_GAMES);
    assert_int_equal(sa.games, PLAY_GAMES);
    assert_int_equal(sa.positions, (na - NNUE_REC_HEADER) / NNUE_REC_SIZE);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    assert_int_equal(na, nc);
    assert_memory_equal(a, c, na);
    assert_int_equal(check_games(d, nd, other), PLAY_GAMES);
    assert_true(nd != na || memcmp(a, d, na) != 0);
    /* stop once the first game's positions are exceeded: exactly the first two games */
    uint64_t first_game = (start[1] - start[0]) / NNUE_REC_SIZE;
    uint8_t *e = play(1, 2, 0, first_game + 1, &ne, &se);
    assert_int_equal(se.games, 2);
    assert_int_equal(ne, start[2]);
    assert_memory_equal(a, e, ne);
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
}

/* The binary: play writes the library's games, dump and convert round-trip, stats and bad input fail cleanly. */
static void test_command_line(void **state)
{
    (void)state;
    char bin[64], text[64], bin2[64], cmd[CMD_MAX];
    temp_path(bin);
    temp_path(text);
    temp_path(bin2);
    snprintf(cmd, sizeof cmd,
             "%s play -out %s -games 2 -nodes %d -hash 1 -threads 2 -max-plies %d -progress 0 -seed 1 2>/dev/null",
             g_xqgen, bin, PLAY_NODES, PLAY_MAX_PLIES);
    assert_int_equal(xqgen_run(cmd), 0);
    size_t n, ref_n, start[PLAY_GAMES + 1];
    GenSummary sum;
    uint8_t *ref = play(1, 1, 2, 0, &ref_n, &sum);
    assert_int_equal(check_games(ref, ref_n, start), 2);
    uint8_t *got = xqgen_slurp(bin, &n);
    assert_int_equal(n, ref_n);
    assert_memory_equal(got, ref, n);
    snprintf(cmd, sizeof cmd, "%s dump %s > %s && %s convert %s %s 2>/dev/null && cmp -s %s %s", g_xqgen, bin, text,
             g_xqgen, text, bin2, bin, bin2);
    assert_int_equal(xqgen_run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s dump %s -skip 3 -n 2 | wc -l | grep -qx 2", g_xqgen, bin);
    assert_int_equal(xqgen_run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s stats %s | grep -q '^records %zu (bad 0)'", g_xqgen, bin,
             (n - NNUE_REC_HEADER) / NNUE_REC_SIZE);
    assert_int_equal(xqgen_run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s stats %s/xqgen_sample.txt 2>/dev/null", g_xqgen, XQ_TEST_DATA);
    assert_int_equal(xqgen_run(cmd), 1);
    snprintf(cmd, sizeof cmd, "%s play -out %s -games 1 -nodes 0 2>/dev/null", g_xqgen, bin);
    assert_int_equal(xqgen_run(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s play -out %s -games 1 -random-plies 9-3 -progress 0 2>/dev/null", g_xqgen, bin);
    assert_int_equal(xqgen_run(cmd), 1);
    free(ref);
    free(got);
    remove(bin);
    remove(text);
    remove(bin2);
}

/* argv[1]: the xqgen binary. */
int main(int argc, char **argv)
{
    g_xqgen = argc > 1 ? argv[1] : "xqgen";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packed_round_trip),
        cmocka_unit_test(test_convert_and_dump),
        cmocka_unit_test(test_play_deterministic),
        cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
