/*
 * test_input.c - the stdin reader's queue: lines in order, and who frees the
 * queue at exit. input_release on a reader that has reached end of input
 * frees the owner at once; on a reader still blocked, the reader frees it
 * when its input ends (under ASan a lost owner is a leak and fails the
 * test). POSIX only (pipe).
 */
#define _POSIX_C_SOURCE 200809L /* fdopen, nanosleep */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protocol/input.h"
#include "testutil.h"

enum { WAIT_STEPS = 2000, WAIT_STEP_NS = 5000000 }; /* waits up to 10 s for the reader, then fails */

/* The memory holding a queue, as the protocol's session holds one. */
typedef struct Owner {
    InputQueue q;
    atomic_int *freed;
} Owner;

/* owner_free for input_release: counts the call, then frees the owner. */
static void owner_free(void *arg)
{
    Owner *o = arg;
    atomic_fetch_add(o->freed, 1);
    free(o);
}

/* A pipe opened as a FILE for the reader; *w receives the write end. */
static FILE *open_pipe(int *w)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    *w = fd[1];
    FILE *f = fdopen(fd[0], "r");
    assert_non_null(f);
    return f;
}

/* Writes text to the pipe's write end. */
static void send_text(int w, const char *text)
{
    size_t n = strlen(text);
    assert_int_equal(write(w, text, n), (ssize_t)n);
}

/* Sleeps one waiting step. */
static void wait_step(void)
{
    struct timespec ts = { 0, WAIT_STEP_NS };
    nanosleep(&ts, NULL);
}

/* Waits until the reader has flagged end of input (fails after the waiting limit). */
static void wait_reader_eof(InputQueue *q)
{
    for (int i = 0; i < WAIT_STEPS; i++) {
        pthread_mutex_lock(&q->lock);
        bool eof = q->eof;
        pthread_mutex_unlock(&q->lock);
        if (eof)
            return;
        wait_step();
    }
    fail_msg("the reader did not reach end of input");
}

/* Lines come in order, a last line without newline too, then EOF. */
static void test_lines_then_eof(void **state)
{
    (void)state;
    int w;
    FILE *in = open_pipe(&w);
    InputQueue q;
    assert_true(input_start(&q, in));
    send_text(w, "uci\nisready\n\nlast");
    close(w);
    const char *want[] = { "uci", "isready", "", "last" };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *line = NULL;
        assert_int_equal(input_next(&q, &line), INPUT_LINE);
        assert_string_equal(line, want[i]);
        free(line);
    }
    char *line = NULL;
    assert_int_equal(input_next(&q, &line), INPUT_EOF);
    input_finish(&q);
    fclose(in);
}

/* A malloc'd owner whose queue reads a new pipe (*w its write end, *in its read end) that got text. */
static Owner *start_owner(atomic_int *freed, int *w, FILE **in, const char *text)
{
    Owner *o = malloc(sizeof *o);
    assert_non_null(o);
    o->freed = freed;
    *in = open_pipe(w);
    assert_true(input_start(&o->q, *in));
    send_text(*w, text);
    return o;
}

/* Takes the queue's next line, which must be quit. */
static void take_quit(InputQueue *q)
{
    char *line = NULL;
    assert_int_equal(input_next(q, &line), INPUT_LINE);
    assert_string_equal(line, "quit");
    free(line);
}

/* Released after end of input: the owner is freed before input_release returns, lines not taken with it. */
static void test_release_after_eof(void **state)
{
    (void)state;
    atomic_int freed = 0;
    int w;
    FILE *in;
    Owner *o = start_owner(&freed, &w, &in, "quit\nnot taken\n");
    close(w);
    take_quit(&o->q);
    wait_reader_eof(&o->q);
    input_release(&o->q, owner_free, o);
    assert_int_equal(atomic_load(&freed), 1);
    fclose(in);
}

/*
 * Released while the reader still blocks (a GUI that sends quit and closes the pipe a moment later):
 * the owner stays allocated, and the reader frees it, with the lines that came after, when input ends.
 */
static void test_release_while_blocked(void **state)
{
    (void)state;
    atomic_int freed = 0;
    int w;
    FILE *in;
    Owner *o = start_owner(&freed, &w, &in, "quit\n");
    take_quit(&o->q);
    input_release(&o->q, owner_free, o); /* the write end is open: the reader cannot have ended */
    assert_int_equal(atomic_load(&freed), 0);
    send_text(w, "after quit\n");
    close(w);
    for (int i = 0; i < WAIT_STEPS && atomic_load(&freed) == 0; i++)
        wait_step();
    assert_int_equal(atomic_load(&freed), 1);
    fclose(in);
}

/* Runs the input queue tests. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_then_eof),
        cmocka_unit_test(test_release_after_eof),
        cmocka_unit_test(test_release_while_blocked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
