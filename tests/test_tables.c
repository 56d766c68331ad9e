/*
 * test_tables.c - tables_init is safe when several threads make the first
 * call at once: each returns with the tables complete and, under
 * ThreadSanitizer, nothing races. Each round runs in a fresh child process
 * (the tables can be initialised for the first time only once per process),
 * whose exit status says how it went; TSan makes a child that raced exit
 * with status 66. POSIX only (fork).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "board/square.h"
#include "testutil.h"
#include "board/zobrist.h"

enum {
    ROUNDS = 200,       /* child processes; a racy init showed up within 40 rounds on 2 cores */
    RACERS = 3,         /* threads per round, besides the child's main thread */
    PLAYING_SQUARES = 90, PALACE_SQUARES = 18, ADVISOR_POINTS = 10, ELEPHANT_POINTS = 14,
    CHILD_BAD_TABLES = 3,
};

static atomic_bool go;
static atomic_int arrived;

/* Counts the marked squares of a geometry table. */
static int count(const uint8_t *table)
{
    int n = 0;
    for (int sq = 0; sq < BOARD_SIZE; sq++)
        n += table[sq] != 0;
    return n;
}

/* Are the tables complete, as seen by the calling thread? */
static bool tables_complete(void)
{
    Position *pos = malloc(sizeof *pos);
    XqError err;
    bool ok = pos && pos_from_fen(pos, START_FEN, &err) && pos->key != 0 && ZOB->side != 0
           && count(GEO->on_board) == PLAYING_SQUARES && count(GEO->palace) == PALACE_SQUARES
           && count(GEO->advisor_pt) == ADVISOR_POINTS && count(GEO->elephant_pt) == ELEPHANT_POINTS;
    free(pos);
    return ok;
}

/* Racer thread: waits until all are ready, initialises, checks what it sees. */
static void *racer(void *arg)
{
    bool *ok = arg;
    atomic_fetch_add(&arrived, 1);
    while (!atomic_load(&go))
        sched_yield();
    tables_init();
    *ok = tables_complete();
    return NULL;
}

/* One round in a child process: RACERS threads and the main thread make the first call together. */
static int child_round(void)
{
    pthread_t t[RACERS];
    bool ok[RACERS];
    for (int i = 0; i < RACERS; i++)
        if (pthread_create(&t[i], NULL, racer, &ok[i]) != 0)
            return CHILD_BAD_TABLES;
    while (atomic_load(&arrived) < RACERS)
        sched_yield(); /* 2 cores: let the racers get there */
    atomic_store(&go, true);
    tables_init(); /* this thread races too: it is running when the others are let go */
    bool all = tables_complete();
    for (int i = 0; i < RACERS; i++) {
        pthread_join(t[i], NULL);
        all = all && ok[i];
    }
    tables_init(); /* a later call changes nothing */
    return all && tables_complete() ? 0 : CHILD_BAD_TABLES;
}

/* ROUNDS first calls from many threads at once: every child sees complete tables and exits 0. */
static void test_first_call_from_many_threads(void **state)
{
    (void)state;
    for (int round = 0; round < ROUNDS; round++) {
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
            exit(child_round()); /* exit, not _exit: a sanitizer's report turns into the status here */
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("round %d: the child ended with status %d (66: ThreadSanitizer found a race; 3: bad tables)",
                     round, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

/* Runs the test (no tables_init here: the children make the first call). */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_call_from_many_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
