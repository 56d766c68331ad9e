/* train_testutil.h - helpers shared by the trainer's tests. */
#ifndef XQ_TRAIN_TESTUTIL_H
#define XQ_TRAIN_TESTUTIL_H

#include <stdint.h>

#include "xqtrain/train_data.h"

enum { PATH_MAX_TEST = 512 };

/* Writes `records` records of random legal games from the start position (score: material; result: its sign). */
void write_random_games(const char *path, int records, uint64_t seed);
/* Makes a directory (it may exist). */
bool mkdir_for_test(const char *dir);
/* Removes a directory and the files and directories in it. */
void remove_tree(const char *dir);
/* A path in the test's temporary directory (out has PATH_MAX_TEST bytes). */
const char *tmp_path(const char *name, char *out);
/* Loads a file with a filter, the last valid_frac into valid; the counts are zeroed first. */
void load(const char *path, const TrainFilter *filter, double valid_frac, TrainSet *train, TrainSet *valid,
          TrainCounts *tc, TrainCounts *vc, bool *unknown);
/* Loads the positions of a file (no filter, no validation split). */
void load_all_records(const char *path, TrainSet *set);
/* Reads a whole file, failing the test if it cannot. */
uint8_t *slurp(const char *path, size_t *n);
/* cmocka group setup: makes the temporary directory. */
int train_test_setup(void **state);
/* cmocka group teardown: removes the temporary directory. */
int train_test_teardown(void **state);

#endif
