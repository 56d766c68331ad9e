/*
 * train_testutil.c - helpers of the trainer's tests (test_xqtrain, test_xqtrain_aug): records of
 * random games, a temporary directory, loading and reading files.
 */
#include "train_testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/movegen.h"
#include "testutil.h"
#include "xqtrain/train_export.h"

enum { GAME_PLIES = 40, TMP_DIR_LEN = 64 }; /* longest random game; the temporary directory's name */
static const int PIECE_CP[PIECE_TYPES] = { 0, 200, 200, 400, 900, 450, 100 };

static char tmp_dir[TMP_DIR_LEN];

/* Material balance (PIECE_CP) from the side to move's view. */
static int material(const Position *pos)
{
    int sum = 0;
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++)
        if (pos->piece_sq[id])
            sum += (piece_side(id) == pos->side ? 1 : -1) * PIECE_CP[piece_type(id)];
    return sum;
}

/* Writes `records` records of random legal games from the start position (score: material; result: its sign). */
void write_random_games(const char *path, int records, uint64_t seed)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_true(packed_write_header(f));
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    TrainRng rng = { seed };
    for (int n = 0; n < records;) {
        test_setup(pos, START_FEN);
        for (int ply = 0; ply < GAME_PLIES && n < records; ply++, n++) {
            Move moves[MAX_MOVES];
            int count = gen_legal(pos, moves);
            PackedPos rec;
            memset(&rec, 0, sizeof rec);
            packed_from_position(&rec, pos);
            rec.score = (int16_t)material(pos);
            rec.result = (int8_t)(rec.score > 300 ? 1 : rec.score < -300 ? -1 : 0);
            rec.ply = (uint16_t)ply;
            rec.flags = pos->in_check ? NNUE_REC_IN_CHECK : 0;
            uint8_t buf[NNUE_REC_SIZE];
            packed_encode(&rec, buf);
            assert_int_equal(fwrite(buf, 1, sizeof buf, f), sizeof buf);
            if (count == 0)
                break;
            pos_make(pos, moves[rng_next(&rng) % (uint64_t)count]);
        }
    }
    free(pos);
    assert_int_equal(fclose(f), 0);
}

/* Makes a directory (it may exist). */
bool mkdir_for_test(const char *dir) { return mkdir(dir, 0777) == 0 || access(dir, F_OK) == 0; }

/* Removes a directory and the files and directories in it. */
void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[2 * PATH_MAX_TEST];
        snprintf(path, sizeof path, "%.500s/%.500s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* A path in the test's temporary directory. */
const char *tmp_path(const char *name, char *out)
{
    snprintf(out, PATH_MAX_TEST, "%s/%s", tmp_dir, name);
    return out;
}

/* Loads a file with a filter, the last valid_frac into valid (counts zeroed first). */
void load(const char *path, const TrainFilter *filter, double valid_frac, TrainSet *train, TrainSet *valid,
          TrainCounts *tc, TrainCounts *vc, bool *unknown)
{
    XqError err;
    memset(tc, 0, sizeof *tc);
    memset(vc, 0, sizeof *vc);
    assert_true(train_load_file(path, filter, valid_frac, train, valid, tc, vc, unknown, &err));
}

/* Loads the random-play positions of a file (no filter, no validation split). */
void load_all_records(const char *path, TrainSet *set)
{
    TrainSet none = { 0 };
    TrainCounts tc, vc;
    bool unknown;
    TrainFilter keep = { true, true, true, 0, INT16_MAX };
    load(path, &keep, 0, set, &none, &tc, &vc, &unknown);
}

/* Reads a whole file, failing the test if it cannot. */
uint8_t *slurp(const char *path, size_t *n)
{
    XqError err;
    uint8_t *buf = read_whole_file(path, n, &err);
    if (!buf)
        fail_msg("%s", err.msg);
    return buf;
}

/* Makes the temporary directory. */
int train_test_setup(void **state)
{
    (void)state;
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/test_xqtrain-XXXXXX");
    return mkdtemp(tmp_dir) ? 0 : -1;
}

/* Removes the temporary directory. */
int train_test_teardown(void **state)
{
    (void)state;
    remove_tree(tmp_dir);
    return 0;
}

