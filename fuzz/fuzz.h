/*
 * fuzz.h - what the fuzz targets share: the libFuzzer entry points (also
 * called by replay.c in normal builds), a check that aborts with a message
 * (so libFuzzer and the replay tests both see a crash), and input helpers.
 */
#ifndef XQ_FUZZ_H
#define XQ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Called once before the first input (tables). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
/* Runs one input; returns 0 (libFuzzer's convention), aborts on a broken invariant. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reports a broken invariant and aborts. */
static inline void fuzz_fail(const char *what, const char *file, int line)
{
    fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
    abort();
}

#define FUZZ_CHECK(cond) ((cond) ? (void)0 : fuzz_fail(#cond, __FILE__, __LINE__))

/* A NUL-terminated copy of the input (an embedded NUL ends the text); aborts if out of memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* Splits text at its first newline: returns the rest (after the newline), or "" without one. */
static inline char *fuzz_first_line(char *text)
{
    char *nl = strchr(text, '\n');
    if (!nl)
        return text + strlen(text);
    *nl = '\0';
    return nl + 1;
}

#endif
