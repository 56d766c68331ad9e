/*
 * test_eval_params.c - the EvalParams field table (contiguous, covering the
 * whole struct) and eval_params_load over it (round trip, bad lines).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/eval_params.h"
#include "testutil.h"

/* The fields follow each other without gaps and end at the end of the struct. */
static void test_field_table(void **state)
{
    (void)state;
    size_t next = 0;
    for (int i = 0; i < EVAL_PARAM_FIELDS; i++) {
        assert_int_equal(EVAL_PARAM_FIELD[i].offset, next);
        next += EVAL_PARAM_FIELD[i].len;
    }
    assert_int_equal(next, EVAL_PARAM_INTS);
    assert_int_equal(EVAL_PARAM_FIELD[EVAL_PARAM_FIELDS - 1].len, 1);
}

/* Every weight written as "name index value" loads back to the same struct. */
static void test_load_round_trip(void **state)
{
    (void)state;
    const char *path = "test_eval_params.tmp"; /* in ctest's working directory */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    EvalParams want = EVAL_DEFAULTS;
    int *w = (int *)&want;
    for (size_t j = 0; j < EVAL_PARAM_INTS; j++)
        w[j] = (int)(j % 97) + 1;
    for (int i = 0; i < EVAL_PARAM_FIELDS; i++)
        for (size_t k = 0; k < EVAL_PARAM_FIELD[i].len; k++)
            fprintf(f, "%s %zu %d\n", EVAL_PARAM_FIELD[i].name, k, w[EVAL_PARAM_FIELD[i].offset + k]);
    fclose(f);
    EvalParams got = EVAL_DEFAULTS;
    XqError err;
    assert_true(eval_params_load(&got, path, &err));
    assert_memory_equal(&got, &want, sizeof got);

    f = fopen(path, "w");
    fputs("tempo 0 5\nno_such_weight 0 1\n", f);
    fclose(f);
    got = EVAL_DEFAULTS;
    assert_false(eval_params_load(&got, path, &err));
    assert_memory_equal(&got, &EVAL_DEFAULTS, sizeof got);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_field_table), cmocka_unit_test(test_load_round_trip) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
