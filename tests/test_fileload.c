/*
 * test_fileload.c - the loader of small regular files (fileload.h) that the net and the book share:
 * FIFOs, devices and directories refused at once (a FIFO without a writer would block a plain open, one
 * with a writer would block a read), the size cap, and the rule for relative names (the current
 * directory, then the executable's) that nets follow as books do.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileload.h"
#include "eval/nnue/nnue.h"
#include "base/platform.h"
#include "testnet.h"
#include "testutil.h"

enum { QUICK_MS = 2000 }; /* a refusal is immediate; anything near this means the loader blocked */

/* A path in the build directory. */
static const char *tmp_path(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", XQ_TEST_TMP, name);
    return out;
}

/* Writes n bytes of 'x' to path. */
static void write_bytes(const char *path, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fputc('x', f);
    assert_int_equal(fclose(f), 0);
}

/* Loads path expecting a refusal whose message contains want, within QUICK_MS. */
static void expect_refused(const char *path, const char *exe_dir, size_t cap, const char *want)
{
    uint8_t *data = (uint8_t *)"untouched";
    size_t size = 7;
    XqError err;
    int64_t t0 = now_ms();
    assert_false(file_load(path, exe_dir, cap, &data, &size, &err));
    assert_true(now_ms() - t0 < QUICK_MS);
    assert_null(data);
    assert_int_equal(size, 0);
    if (!strstr(err.msg, want))
        fail_msg("'%s': got '%s', wanted '%s'", path, err.msg, want);
}

/* A FIFO (with and without a writer), /dev/null, /dev/stdin and a directory are not regular files. */
static void test_special_files_refused(void **state)
{
    (void)state;
    char fifo[512];
    tmp_path("test_fileload.fifo", fifo, sizeof fifo);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect_refused(fifo, NULL, 1 << 20, "not a regular file"); /* no writer: a blocking open never returns */
    int w = open(fifo, O_RDWR | O_NONBLOCK);                  /* a writer that never writes: read would block */
    assert_true(w >= 0);
    expect_refused(fifo, NULL, 1 << 20, "not a regular file");
    close(w);
    unlink(fifo);
    expect_refused("/dev/null", NULL, 1 << 20, "not a regular file");
    int fds[2];
    assert_int_equal(pipe(fds), 0); /* stdin a pipe that stays open, as a GUI's is */
    int saved = dup(0);
    dup2(fds[0], 0);
    expect_refused("/dev/stdin", NULL, 1 << 20, "not a regular file");
    dup2(saved, 0);
    close(saved);
    close(fds[0]);
    close(fds[1]);
    expect_refused(XQ_TEST_TMP, NULL, 1 << 20, "not a regular file");
}

/* The size cap, an empty file, a missing one; a file at the cap loads whole. */
static void test_sizes(void **state)
{
    (void)state;
    char path[512];
    tmp_path("test_fileload.bin", path, sizeof path);
    write_bytes(path, 100);
    expect_refused(path, NULL, 99, "larger than 99 bytes");
    uint8_t *data;
    size_t size;
    XqError err;
    assert_true(file_load(path, NULL, 100, &data, &size, &err));
    assert_int_equal(size, 100);
    assert_int_equal(data[99], 'x');
    free(data);
    write_bytes(path, 0);
    expect_refused(path, NULL, 100, "empty file");
    unlink(path);
    expect_refused(path, NULL, 100, "cannot open (No such file or directory)");
    expect_refused("", NULL, 100, "empty file name");
}

/* A directory that stands for the executable's, made empty (not the tests' working directory). */
static const char *exe_dir(char *out, size_t size)
{
    tmp_path("test_fileload_exe", out, size);
    mkdir(out, 0700);
    return out;
}

/* A relative name: the current directory first, then exe_dir; an absolute one is never looked for there. */
static void test_relative_names(void **state)
{
    (void)state;
    char dir[512], path[600];
    exe_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/test_fileload.beside", dir);
    write_bytes(path, 10);
    unlink("test_fileload.beside");
    uint8_t *data;
    size_t size;
    XqError err;
    expect_refused("test_fileload.beside", NULL, 100, "No such file");
    assert_true(file_load("test_fileload.beside", dir, 100, &data, &size, &err));
    assert_int_equal(size, 10);
    free(data);
    write_bytes("test_fileload.beside", 20); /* the current directory comes first */
    assert_true(file_load("test_fileload.beside", dir, 100, &data, &size, &err));
    assert_int_equal(size, 20);
    free(data);
    unlink("test_fileload.beside");
    expect_refused("/test_fileload.beside", dir, 100, "No such file");
    /* found beside the executable but unusable: that is what the error says */
    unlink(path);
    assert_int_equal(mkdir(path, 0700), 0);
    expect_refused("test_fileload.beside", dir, 100, "not a regular file");
    rmdir(path);
}

/* Nets follow the same rules: a FIFO is refused, a relative name is found beside the executable. */
static void test_net_files(void **state)
{
    (void)state;
    char dir[512], path[600];
    exe_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/test_fileload.nnue", dir);
    Network *net = test_net(3);
    const size_t size = nnue_net_file_size(net);
    uint8_t *img = malloc(size);
    assert_non_null(img);
    nnue_serialise(net, img);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(img, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    XqError err;
    Network *loaded = nnue_load_file("test_fileload.nnue", dir, &err);
    assert_non_null(loaded);
    assert_memory_equal(loaded->ft_weight, net->ft_weight, (size_t)net->shape.inputs * net->shape.hidden * 2);
    nnue_net_free(loaded);
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    int64_t t0 = now_ms();
    assert_null(nnue_load_file(path, NULL, &err));
    assert_true(now_ms() - t0 < QUICK_MS);
    assert_non_null(strstr(err.msg, "not a regular file"));
    unlink(path);
    free(img);
    nnue_net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_special_files_refused),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_relative_names),
        cmocka_unit_test(test_net_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
