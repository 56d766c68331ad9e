/* xqgen_testutil.h - helpers shared by the generator's tests (test_xqgen, test_xqgen_shard). */
#ifndef XQ_XQGEN_TESTUTIL_H
#define XQ_XQGEN_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Reads a whole file into a malloc'd buffer, failing the test if it cannot. */
uint8_t *xqgen_slurp(const char *path, size_t *size);
/* Runs a shell command; returns its exit status (-1 if it did not exit). */
int xqgen_run(const char *cmd);

#endif
