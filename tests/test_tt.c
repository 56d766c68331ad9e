/*
 * test_tt.c - the transposition table: the size it reports is the size it
 * uses.
 */
#include "testutil.h"
#include "tt.h"

enum { BYTES_PER_MB = 1 << 20 };

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

/* Runs the transposition table tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resize_reports_real_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
