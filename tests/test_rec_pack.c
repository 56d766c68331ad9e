/*
 * test_rec_pack.c - the compact record format (tools/common/rec_pack, rec_file):
 * canonical boards as the FEN parser numbers pieces; random games packed one
 * block per game and unpacked to the same bytes; records that continue nothing
 * (other piece orders, unknown plies, odd flags, broken boards, random bytes)
 * still round-trip; cut-off and corrupt files are reported, never crashed on;
 * scan and skip; and the trainer's loader reads a packed file as the same
 * positions, filters and validation split as the plain one.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/movegen.h"
#include "common/rec_file.h"
#include "testutil.h"
#include "train_testutil.h"

enum {
    GAMES = 60,
    GAME_PLIES_MAX = 150,
    SCORE_STEP = 80, /* a random walk of scores, as a search's scores move */
    MATE = PACK_MATE_SCORE,
    ODD_RECORDS = 400,
    FLIPS = 300,
};

/* A growable array of 40-byte records, and where games end. */
typedef struct Records {
    uint8_t (*raw)[NNUE_REC_SIZE];
    size_t n, cap;
    size_t games;
    size_t end[GAMES + 1]; /* record index after each game; (size_t)-1 after the last */
} Records;

/* Appends one record's bytes. */
static void push(Records *r, const uint8_t raw[NNUE_REC_SIZE])
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->raw = realloc(r->raw, r->cap * sizeof *r->raw);
        assert_non_null(r->raw);
    }
    memcpy(r->raw[r->n++], raw, NNUE_REC_SIZE);
}

/*
 * Random games as xqgen play records them: canonical boards, a random-walk score (now and then a mate
 * score, with its flag), one result per game, plies counting up from a random start, the in-check flag
 * from the position and the capture flag from the move played next (the last one's at random).
 */
static void make_games(Records *out, int games, uint64_t seed)
{
    assert_true(games <= GAMES);
    Position *pos = malloc(sizeof *pos), *canon = malloc(sizeof *canon);
    for (int g = 0; g < games; g++) {
        test_setup(pos, START_FEN);
        int plies = 1 + (int)(test_random(&seed) % GAME_PLIES_MAX), start = (int)(test_random(&seed) % 11);
        int red_result = (int)(test_random(&seed) % 3) - 1, score = 0;
        for (int ply = 0; ply < start + plies; ply++) {
            Move moves[MAX_MOVES];
            int n = gen_legal(pos, moves);
            Move m = n ? moves[test_random(&seed) % (uint64_t)n] : MOVE_NONE;
            if (ply >= start) {
                PackedPos rec;
                XqError err;
                memset(&rec, 0, sizeof rec);
                packed_from_position(&rec, pos);
                assert_true(packed_to_position(&rec, canon, &err)); /* canonical, through the FEN */
                packed_from_position(&rec, canon);
                score = -score + (int)(test_random(&seed) % (2 * SCORE_STEP + 1)) - SCORE_STEP;
                score = score > MATE - 1 ? MATE - 1 : score < 1 - MATE ? 1 - MATE : score;
                bool mate = test_random(&seed) % 50 == 0, last = ply + 1 == start + plies || m == MOVE_NONE;
                bool capture = last ? test_random(&seed) % 2 : pos->board[move_to(m)] != EMPTY;
                rec.score = (int16_t)(mate ? (score >= 0 ? MATE : -MATE) : score);
                rec.result = (int8_t)(pos->side == RED ? red_result : -red_result);
                rec.ply = (uint16_t)ply;
                rec.flags = (uint8_t)((pos->in_check ? NNUE_REC_IN_CHECK : 0) | (mate ? NNUE_REC_MATE : 0)
                                      | (capture ? NNUE_REC_CAPTURE : 0));
                uint8_t raw[NNUE_REC_SIZE];
                packed_encode(&rec, raw);
                push(out, raw);
            }
            if (m == MOVE_NONE)
                break;
            pos_make(pos, m);
        }
        out->end[out->games++] = out->n;
        out->end[out->games] = (size_t)-1;
    }
    free(pos);
    free(canon);
}

/* Writes records into a new file in a format, ending a game (a block) at each index in ends (sorted, -1 ends). */
static void write_file(const char *path, const Records *r, RecFormat format, const size_t *ends)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_true(rec_write_header(f, format));
    RecWriter w;
    assert_true(rec_writer_init(&w, f, format));
    for (size_t i = 0; i < r->n; i++) {
        assert_true(rec_writer_put(&w, r->raw[i]));
        if (ends && *ends == i + 1) {
            assert_true(rec_writer_end_game(&w));
            ends++;
        }
    }
    assert_true(rec_writer_end_game(&w));
    rec_writer_free(&w);
    assert_int_equal(fclose(f), 0);
}

/* Reads every record of a file; checks the scan agrees and that the reader stops cleanly. */
static void read_back(const char *path, RecFormat format, Records *out, RecScan *scan)
{
    RecReader r;
    XqError err;
    assert_true(rec_reader_open(&r, path, &err));
    assert_int_equal(r.format, format);
    assert_true(rec_reader_scan(&r, scan, &err));
    uint8_t raw[NNUE_REC_SIZE];
    while (rec_reader_next(&r, raw))
        push(out, raw);
    assert_false(r.failed);
    assert_int_equal(r.tail, 0);
    assert_int_equal(scan->records, out->n);
    rec_reader_close(&r);
}

/* Same records, byte for byte? */
static void assert_same_records(const Records *a, const Records *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++)
        if (memcmp(a->raw[i], b->raw[i], NNUE_REC_SIZE) != 0)
            fail_msg("record %zu differs", i);
}

/* The canonical board of a position is the one its FEN gives, on positions of random play. */
static void test_canonical_is_fen_order(void **state)
{
    (void)state;
    Position *pos = malloc(sizeof *pos), *back = malloc(sizeof *back);
    uint64_t seed = 77;
    int checked = 0;
    for (int g = 0; g < 20; g++) {
        test_setup(pos, START_FEN);
        for (int ply = 0; ply < 120; ply++) {
            PackedPos a, b;
            XqError err;
            pack_canonical(&a, pos);
            packed_from_position(&b, pos);
            assert_true(packed_to_position(&b, back, &err));
            packed_from_position(&b, back);
            assert_memory_equal(a.sq, b.sq, sizeof a.sq);
            assert_int_equal(a.stm, b.stm);
            checked++;
            Move moves[MAX_MOVES];
            int n = gen_legal(pos, moves);
            if (!n)
                break;
            pos_make(pos, moves[test_random(&seed) % (uint64_t)n]);
        }
    }
    assert_true(checked > 1000);
    free(pos);
    free(back);
}

/* Games recorded as xqgen records them pack one block per game, a few bytes a record, and unpack exactly. */
static void test_games_round_trip(void **state)
{
    (void)state;
    Records games = { 0 }, back = { 0 }, plain = { 0 };
    make_games(&games, GAMES, 12345);
    char compact[PATH_MAX_TEST], flat[PATH_MAX_TEST];
    tmp_path("games.xqp", compact);
    tmp_path("games.bin", flat);
    write_file(compact, &games, REC_COMPACT, games.end);
    write_file(flat, &games, REC_PLAIN, NULL);
    RecScan scan;
    read_back(compact, REC_COMPACT, &back, &scan);
    assert_same_records(&games, &back);
    assert_int_equal(scan.blocks, games.games);
    double per = (double)(scan.bytes - REC_FILE_HEADER) / (double)games.n;
    print_message("%zu records of %zu games: %.2f bytes a record\n", games.n, games.games, per);
    assert_true(per < 4.0);
    read_back(flat, REC_PLAIN, &plain, &scan);
    assert_same_records(&games, &plain);
    assert_int_equal(scan.bytes, REC_FILE_HEADER + NNUE_REC_SIZE * games.n);
    free(games.raw);
    free(back.raw);
    free(plain.raw);
}

/* Records that continue nothing still round-trip: other piece orders, unknown plies, odd flags and reserved
 * bytes, boards that are no position, random bytes; each breaks its block. */
static void test_odd_records_round_trip(void **state)
{
    (void)state;
    Records games = { 0 }, odd = { 0 }, back = { 0 };
    make_games(&games, 6, 99);
    uint64_t seed = 4242;
    for (size_t i = 0; i < games.n && odd.n < ODD_RECORDS; i++) {
        uint8_t raw[NNUE_REC_SIZE];
        memcpy(raw, games.raw[i], NNUE_REC_SIZE);
        switch (test_random(&seed) % 8) {
        case 0: {
            uint8_t t = raw[7];
            raw[7] = raw[8];
            raw[8] = t;
            break;
        } /* the rooks' slots swapped */
        case 1:
            raw[36] = raw[37] = 0xFF;
            break; /* ply unknown */
        case 2:
            raw[38] ^= (uint8_t)(1 + test_random(&seed) % 7);
            break; /* flags that disagree */
        case 3:
            raw[39] = 1;
            break; /* the reserved byte */
        case 4:
            raw[2] = raw[1];
            break; /* two pieces on a square */
        case 5:
            for (int b = 0; b < NNUE_REC_SIZE; b++)
                raw[b] = (uint8_t)test_random(&seed);
            break;
        default:
            break; /* unchanged */
        }
        push(&odd, raw);
    }
    assert_true(games.end[0] >= 5);
    for (int i = 0; i < 5; i++) { /* a game's first plies renumbered up to 0xFFFF, which continues nothing */
        uint8_t raw[NNUE_REC_SIZE];
        memcpy(raw, games.raw[i], NNUE_REC_SIZE);
        raw[36] = (uint8_t)(0xFFFB + i);
        raw[37] = 0xFF;
        push(&odd, raw);
    }
    char path[PATH_MAX_TEST];
    tmp_path("odd.xqp", path);
    write_file(path, &odd, REC_COMPACT, NULL);
    RecScan scan;
    read_back(path, REC_COMPACT, &back, &scan);
    assert_same_records(&odd, &back);
    assert_true(scan.blocks > odd.n / 4);
    free(games.raw);
    free(odd.raw);
    free(back.raw);
}

/* Copies the first `size` bytes of src into dst, with byte `at` xor-ed with x (x 0: unchanged). */
static void copy_changed(const char *src, const char *dst, size_t size, size_t at, uint8_t x)
{
    size_t n;
    uint8_t *data = slurp(src, &n);
    assert_true(size <= n && at < n);
    data[at] ^= x;
    FILE *f = fopen(dst, "wb");
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    free(data);
}

/* Reads a whole file; returns the records read, and whether the reader failed and the tail it saw. */
static size_t read_all(const char *path, bool *failed, long *tail)
{
    RecReader r;
    XqError err;
    assert_true(rec_reader_open(&r, path, &err));
    uint8_t raw[NNUE_REC_SIZE];
    size_t n = 0;
    while (rec_reader_next(&r, raw))
        n++;
    *failed = r.failed;
    *tail = r.tail;
    rec_reader_close(&r);
    return n;
}

/* A cut-off block is a tail, not an error; a bad block header or a damaged body is an error; no damage crashes. */
static void test_damaged_files(void **state)
{
    (void)state;
    Records games = { 0 };
    make_games(&games, 8, 555);
    char good[PATH_MAX_TEST], bad[PATH_MAX_TEST];
    tmp_path("good.xqp", good);
    tmp_path("bad.xqp", bad);
    write_file(good, &games, REC_COMPACT, games.end);
    size_t size;
    free(slurp(good, &size));
    bool failed;
    long tail;
    copy_changed(good, bad, size - 3, 0, 0);
    size_t n = read_all(bad, &failed, &tail);
    assert_false(failed);
    assert_int_equal(n, games.end[games.games - 2]); /* every game but the cut-off last */
    assert_true(tail > 0);
    copy_changed(good, bad, size, REC_FILE_HEADER, 0x40); /* the first block's marker */
    assert_int_equal(read_all(bad, &failed, &tail), 0);
    assert_true(failed);
    XqError err;
    RecReader r;
    copy_changed(good, bad, size, 3, 0x01); /* the magic */
    assert_false(rec_reader_open(&r, bad, &err));
    assert_non_null(strstr(err.msg, "not a record file"));
    uint64_t seed = 31337;
    int errors = 0;
    for (int i = 0; i < FLIPS; i++) {
        size_t at = REC_FILE_HEADER + PACK_HEADER_MAX + test_random(&seed) % (size - REC_FILE_HEADER - PACK_HEADER_MAX);
        copy_changed(good, bad, size, at, (uint8_t)(1u << (test_random(&seed) % 8)));
        read_all(bad, &failed, &tail);
        errors += failed || tail;
    }
    assert_true(errors > 0);
    free(games.raw);
}

/* Scan counts without decoding, skip lands on the record it says, for both formats. */
static void test_scan_and_skip(void **state)
{
    (void)state;
    Records games = { 0 };
    make_games(&games, 10, 2024);
    for (int f = 0; f < REC_FORMATS; f++) {
        char path[PATH_MAX_TEST];
        tmp_path(f == REC_PLAIN ? "skip.bin" : "skip.xqp", path);
        write_file(path, &games, (RecFormat)f, NULL);
        size_t at[] = { 0, 1, games.n / 3, games.n - 1, games.n, games.n + 5 };
        for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
            RecReader r;
            RecScan scan;
            XqError err;
            assert_true(rec_reader_open(&r, path, &err));
            assert_true(rec_reader_scan(&r, &scan, &err));
            assert_int_equal(scan.records, games.n);
            uint64_t skipped = rec_reader_skip(&r, at[k]);
            assert_int_equal(skipped, at[k] < games.n ? at[k] : games.n);
            uint8_t raw[NNUE_REC_SIZE];
            if (at[k] < games.n) {
                assert_true(rec_reader_next(&r, raw));
                assert_memory_equal(raw, games.raw[at[k]], NNUE_REC_SIZE);
            } else {
                assert_false(rec_reader_next(&r, raw));
            }
            rec_reader_close(&r);
        }
    }
    free(games.raw);
}

/* Loads a file through the trainer with the default filter and a validation split. */
static void train_load(const char *path, TrainSet *t, TrainSet *v, TrainCounts *tc, TrainCounts *vc, bool *unknown)
{
    TrainFilter filter = train_filter_default();
    load(path, &filter, 0.2, t, v, tc, vc, unknown);
}

/* Same sets, counts and ply knowledge from two files? */
static void assert_same_load(const char *a, const char *b)
{
    TrainSet t1 = { 0 }, v1 = { 0 }, t2 = { 0 }, v2 = { 0 };
    TrainCounts c1, d1, c2, d2;
    bool u1, u2;
    train_load(a, &t1, &v1, &c1, &d1, &u1);
    train_load(b, &t2, &v2, &c2, &d2, &u2);
    assert_true(t1.count > 0 && v1.count > 0);
    assert_int_equal(t1.count, t2.count);
    assert_int_equal(v1.count, v2.count);
    assert_memory_equal(t1.pos, t2.pos, t1.count * sizeof *t1.pos);
    assert_memory_equal(v1.pos, v2.pos, v1.count * sizeof *v1.pos);
    assert_memory_equal(&c1, &c2, sizeof c1);
    assert_memory_equal(&d1, &d2, sizeof d1);
    assert_int_equal(u1, u2);
    train_set_free(&t1);
    train_set_free(&v1);
    train_set_free(&t2);
    train_set_free(&v2);
}

/* The trainer reads a packed file (by its magic, whatever its name) as the same positions as the plain one. */
static void test_trainer_reads_compact(void **state)
{
    (void)state;
    Records games = { 0 }, random = { 0 };
    make_games(&games, 40, 8);
    char plain[PATH_MAX_TEST], packed[PATH_MAX_TEST], rand_plain[PATH_MAX_TEST], rand_packed[PATH_MAX_TEST];
    tmp_path("train.bin", plain);
    tmp_path("train-packed.bin", packed);
    write_file(plain, &games, REC_PLAIN, NULL);
    write_file(packed, &games, REC_COMPACT, NULL);
    assert_same_load(plain, packed);
    /* the trainer tests' own random games (pieces not in FEN order, no capture flags) */
    tmp_path("random.bin", rand_plain);
    tmp_path("random.xqp", rand_packed);
    write_random_games(rand_plain, 3000, 5);
    RecScan scan;
    read_back(rand_plain, REC_PLAIN, &random, &scan);
    write_file(rand_packed, &random, REC_COMPACT, NULL);
    assert_same_load(rand_plain, rand_packed);
    free(games.raw);
    free(random.raw);
}

/* Runs the tests in a temporary directory. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_is_fen_order), cmocka_unit_test(test_games_round_trip),
        cmocka_unit_test(test_odd_records_round_trip), cmocka_unit_test(test_damaged_files),
        cmocka_unit_test(test_scan_and_skip),          cmocka_unit_test(test_trainer_reads_compact),
    };
    return cmocka_run_group_tests(tests, train_test_setup, train_test_teardown);
}
