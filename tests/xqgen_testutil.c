/* xqgen_testutil.c - helpers shared by the generator's tests: whole files, shell commands. */
#include "xqgen_testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "testutil.h"

/* Reads a whole file into a malloc'd buffer. */
uint8_t *xqgen_slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* Runs a shell command; returns its exit status. */
int xqgen_run(const char *cmd)
{
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
