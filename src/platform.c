/* platform.c - monotonic clock and the executable's directory for POSIX and Windows. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#endif
#include "platform.h"

#include <string.h>

#ifdef _WIN32
#include <windows.h>

/* The executable's directory from GetModuleFileNameA. */
bool platform_exe_dir(char *out, size_t size)
{
    DWORD n = size > 1 ? GetModuleFileNameA(NULL, out, (DWORD)size) : 0;
    if (n == 0 || n >= size) {
        if (size)
            out[0] = '\0';
        return false;
    }
    char *slash = strrchr(out, '\\'), *fwd = strrchr(out, '/');
    if (fwd > slash)
        slash = fwd;
    if (!slash) {
        out[0] = '\0';
        return false;
    }
    *slash = '\0';
    return true;
}

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
#include <unistd.h>

/* The executable's directory from /proc/self/exe (Linux; elsewhere unknown). */
bool platform_exe_dir(char *out, size_t size)
{
    ssize_t n = size > 1 ? readlink("/proc/self/exe", out, size - 1) : -1;
    char *slash = n > 0 ? (out[n] = '\0', strrchr(out, '/')) : NULL;
    if (!slash) {
        if (size)
            out[0] = '\0';
        return false;
    }
    if (slash == out)
        slash++; /* the root directory: keep its "/" */
    *slash = '\0';
    return true;
}

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
