/*
 * test_tt.c - the transposition table: the size it reports is the size it
 * uses; mate scores come back relative to the probing ply and never outside
 * their band; repetition-ban scores are never stored as values; a torn slot
 * reads as a miss, and threads storing and probing one bucket at once never
 * read an entry mixed from two writes (run under TSan by CI).
 */
#include <pthread.h>
#include <stdio.h>

#include "eval/score.h"
#include "testutil.h"
#include "search/tt.h"

enum {
    BYTES_PER_MB = 1 << 20,
    RACE_THREADS = 4,      /* threads storing and probing at once */
    RACE_KEYS = 16,        /* distinct keys, all in one bucket */
    RACE_ROUNDS = 200000,  /* stores and probes per thread */
};

/* A size that is not a power of two is rounded down, and the table says so in tt.mb. */
static void test_resize_reports_real_size(void **state)
{
    (void)state;
    static const struct { size_t asked, used; } CASES[] = {
        { 1, 1 }, { 2, 2 }, { 3, 2 }, { 16, 16 }, { 100, 64 }, { 127, 64 }, { 128, 128 },
    };
    TT tt = { 0 };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        assert_true(tt_resize(&tt, CASES[i].asked));
        assert_int_equal(tt.mb, CASES[i].used);
        assert_int_equal(tt.buckets * sizeof(TTBucket), CASES[i].used * BYTES_PER_MB);
    }
    assert_false(tt_resize(&tt, 0));
    assert_int_equal(tt.mb, 128); /* a failed resize keeps the old table */
    tt_free(&tt);
}

/* Stores score at store_ply as an exact result and probes it back at probe_ply. */
static int round_trip(TT *tt, int score, int store_ply, int probe_ply)
{
    static const uint64_t KEY = 0x123456789abcdef1ULL;
    TTEntry e;
    tt_clear(tt);
    tt_store(tt, KEY, store_ply, MOVE_NONE, score, 0, 10, BOUND_EXACT);
    assert_true(tt_probe(tt, KEY, probe_ply, &e));
    assert_int_equal(e.gen_bound & 3, BOUND_EXACT);
    return e.score;
}

/* Mate scores move with the ply; one read deeper than the band reaches is clamped to the band's edge. */
static void test_mate_scores(void **state)
{
    (void)state;
    TT tt = { 0 };
    assert_true(tt_resize(&tt, 1));
    assert_int_equal(round_trip(&tt, 100, 5, 50), 100);
    assert_int_equal(round_trip(&tt, SCORE_MATE - 10, 4, 6), SCORE_MATE - 12);
    assert_int_equal(round_trip(&tt, -SCORE_MATE + 10, 4, 6), -SCORE_MATE + 12);
    for (int mate = 1; mate < MAX_PLY; mate++)
        for (int ply = 0; ply < MAX_PLY; ply += 7) {
            /* a mate in `mate` plies from the node, found at ply 0, read back at `ply` */
            int win = round_trip(&tt, SCORE_MATE - mate, 0, ply), loss = round_trip(&tt, -SCORE_MATE + mate, 0, ply);
            int expected = mate + ply <= MAX_PLY ? SCORE_MATE - mate - ply : SCORE_MATE_MIN;
            assert_int_equal(win, expected);
            assert_int_equal(loss, -expected);
            assert_true(score_is_mate(win) && score_is_mate(loss));
        }
    tt_free(&tt);
}

/* A repetition-ban score keeps its move but is never stored as a value. */
static void test_ban_scores(void **state)
{
    (void)state;
    TT tt = { 0 };
    TTEntry e;
    assert_true(tt_resize(&tt, 1));
    tt_store(&tt, 42, 3, (Move)0x1234, SCORE_BAN - 3, 0, 8, BOUND_EXACT);
    assert_true(tt_probe(&tt, 42, 3, &e));
    assert_int_equal(e.move, 0x1234);
    assert_int_equal(e.gen_bound & 3, BOUND_NONE);
    assert_false(score_is_ban(e.score));
    tt_free(&tt);
}

/* A slot whose data word was replaced by another write's (a torn write) is a miss, not a mixed entry. */
static void test_torn_slot_is_a_miss(void **state)
{
    (void)state;
    TT tt = { 0 };
    TTEntry e;
    const uint64_t a = 0x1111222233334444ULL, b = 0x5555666677778888ULL;
    assert_true(tt_resize(&tt, 1));
    tt_store(&tt, a, 0, (Move)0x1234, 55, 7, 9, BOUND_EXACT);
    assert_true(tt_probe(&tt, a, 0, &e));
    TTSlot *slot = &tt.table[a & (tt.buckets - 1)].slot[0];
    uint64_t data_a = atomic_load(&slot->data);
    tt_store(&tt, b, 0, (Move)0x4321, -80, 3, 4, BOUND_LOWER); /* another bucket: only to get its data word */
    TTSlot *other = &tt.table[b & (tt.buckets - 1)].slot[0];
    atomic_store(&slot->data, atomic_load(&other->data)); /* a's check with b's data */
    assert_false(tt_probe(&tt, a, 0, &e));
    atomic_store(&slot->data, data_a); /* whole again */
    assert_true(tt_probe(&tt, a, 0, &e));
    assert_int_equal(e.move, 0x1234);
    assert_int_equal(e.score, 55);
    assert_int_equal(e.depth, 9);
    tt_free(&tt);
}

/* The fields every race thread stores for key number k, so a reader can tell a mixed entry. */
static void race_fields(int k, Move *move, int *score, int *eval, int *depth)
{
    *move = (Move)(0x0101 * (k + 1));
    *score = 100 * k - 700;
    *eval = -37 * k;
    *depth = 3 + k;
}

/* The keys of the race: distinct, all in bucket 5 of the race table. */
static uint64_t race_key(const TT *tt, int k) { return ((uint64_t)(k + 1) << 40) * tt->buckets + 5; }

typedef struct RaceArg {
    TT *tt;
    int seed;
    long mixed; /* hits whose fields do not all belong to the probed key */
    long hits;
} RaceArg;

/* One race thread: stores and probes the race keys in a pseudo-random order. */
static void *race_thread(void *arg)
{
    RaceArg *r = arg;
    uint32_t x = (uint32_t)r->seed * 2654435761u + 1;
    for (int i = 0; i < RACE_ROUNDS; i++) {
        x = x * 1664525u + 1013904223u;
        int k = (int)(x >> 28) % RACE_KEYS;
        Move move;
        int score, eval, depth;
        race_fields(k, &move, &score, &eval, &depth);
        if (x & 0x100) {
            tt_store(r->tt, race_key(r->tt, k), 0, move, score, eval, depth, BOUND_EXACT);
        } else {
            TTEntry e;
            if (tt_probe(r->tt, race_key(r->tt, k), 0, &e)) {
                r->hits++;
                r->mixed += e.move != move || e.score != score || e.eval != eval || e.depth != depth
                         || (e.gen_bound & 3) != BOUND_EXACT;
            }
        }
    }
    return NULL;
}

/* Threads storing and probing one bucket at once: many hits, none of them mixed. */
static void test_concurrent_stores(void **state)
{
    (void)state;
    TT tt = { 0 };
    assert_true(tt_resize(&tt, 1));
    tt_new_search(&tt);
    pthread_t th[RACE_THREADS];
    RaceArg arg[RACE_THREADS];
    for (int i = 0; i < RACE_THREADS; i++) {
        arg[i] = (RaceArg){ &tt, i + 1, 0, 0 };
        assert_int_equal(pthread_create(&th[i], NULL, race_thread, &arg[i]), 0);
    }
    long hits = 0, mixed = 0;
    for (int i = 0; i < RACE_THREADS; i++) {
        pthread_join(th[i], NULL);
        hits += arg[i].hits;
        mixed += arg[i].mixed;
    }
    printf("concurrent stores: %ld hits, %ld mixed\n", hits, mixed);
    assert_true(hits > RACE_ROUNDS / 10);
    assert_int_equal(mixed, 0);
    tt_free(&tt);
}

/* Runs the transposition table tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resize_reports_real_size),
        cmocka_unit_test(test_mate_scores),
        cmocka_unit_test(test_ban_scores),
        cmocka_unit_test(test_torn_slot_is_a_miss),
        cmocka_unit_test(test_concurrent_stores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
