/* platform.c - monotonic clock for POSIX and Windows. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#endif
#include "platform.h"

#ifdef _WIN32
#include <windows.h>

/* Microseconds from QueryPerformanceCounter. */
int64_t now_us(void)
{
    LARGE_INTEGER freq, count;
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&count);
    return (int64_t)(count.QuadPart / freq.QuadPart * 1000000
                     + count.QuadPart % freq.QuadPart * 1000000 / freq.QuadPart);
}
#else
#include <time.h>

/* Microseconds from CLOCK_MONOTONIC. */
int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
#endif

/* Milliseconds from the monotonic clock. */
int64_t now_ms(void) { return now_us() / 1000; }
