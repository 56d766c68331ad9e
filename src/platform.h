/*
 * platform.h - the few operating-system services the engine needs, behind
 * one small interface so the same sources build with glibc and MinGW-w64.
 */
#ifndef XQ_PLATFORM_H
#define XQ_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Milliseconds from a monotonic clock (only differences are meaningful). */
int64_t now_ms(void);
/* Microseconds from the same monotonic clock. */
int64_t now_us(void);
/* The directory of the running executable into out; false (out empty) where it cannot be known. */
bool platform_exe_dir(char *out, size_t size);

#endif
