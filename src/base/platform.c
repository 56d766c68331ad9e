/* platform.c - monotonic clock and the executable's directory for POSIX and Windows. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* clock_gettime, mmap under -std=c11 */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS, madvise (glibc) */
#endif
#include "platform.h"

#include <stdint.h>
#include <stdlib.h>
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

/* Zeroed table memory from calloc, aligned by hand (MinGW has no aligned_alloc); no huge pages, which
 * Windows grants only with a privilege. */
void *platform_table_alloc(size_t bytes, void **raw)
{
    *raw = calloc(bytes + PLATFORM_TABLE_ALIGN, 1);
    return *raw ? (void *)(((uintptr_t)*raw + PLATFORM_TABLE_ALIGN - 1) & ~(uintptr_t)(PLATFORM_TABLE_ALIGN - 1))
                : NULL;
}

/* Frees what platform_table_alloc gave. */
void platform_table_free(void *raw, size_t bytes)
{
    (void)bytes;
    free(raw);
}

/* Zeroes a table with memset (Windows: calloc'd memory, no page release). */
void platform_table_zero(void *table, size_t bytes) { memset(table, 0, bytes); }

/* No file mapping here: callers read the file. */
void *platform_file_map(const char *path, size_t *size)
{
    (void)path;
    *size = 0;
    return NULL;
}

/* Nothing was mapped. */
void platform_file_unmap(void *map, size_t size)
{
    (void)map;
    (void)size;
}
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

/* Bytes mapped for a table of `bytes`: a large one gets a huge page more, to align it to one. */
static size_t table_mapping(size_t bytes) { return bytes >= PLATFORM_HUGE_PAGE ? bytes + PLATFORM_HUGE_PAGE : bytes; }

/* Zeroed table memory from an anonymous mapping (its pages are only touched when used, so a big hash costs
 * nothing until searched); a large table is aligned to a huge page and advised into transparent huge pages. */
void *platform_table_alloc(size_t bytes, void **raw)
{
    if (bytes == 0 || bytes > SIZE_MAX - PLATFORM_HUGE_PAGE) {
        *raw = NULL;
        return NULL;
    }
    void *map = mmap(NULL, table_mapping(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        *raw = NULL;
        return NULL;
    }
    *raw = map;
    if (bytes < PLATFORM_HUGE_PAGE)
        return map; /* page-aligned */
    void *table = (void *)(((uintptr_t)map + PLATFORM_HUGE_PAGE - 1) & ~(uintptr_t)(PLATFORM_HUGE_PAGE - 1));
#if defined(MADV_HUGEPAGE)
    (void)madvise(table, bytes, MADV_HUGEPAGE); /* a hint: where it fails, small pages serve */
#endif
    return table;
}

/* Zeroes a table: a large one by releasing its pages (they come back zeroed when touched), else memset. */
void platform_table_zero(void *table, size_t bytes)
{
#if defined(MADV_DONTNEED)
    if (bytes >= PLATFORM_ZERO_BY_RELEASE && madvise(table, bytes, MADV_DONTNEED) == 0)
        return; /* the table is page-aligned (see platform_table_alloc) */
#endif
    memset(table, 0, bytes);
}

/* Unmaps what platform_table_alloc gave for `bytes`. */
void platform_table_free(void *raw, size_t bytes)
{
    if (raw)
        munmap(raw, table_mapping(bytes));
}

/* Maps a regular file read-only (opened without blocking, checked with fstat on the descriptor). */
void *platform_file_map(const char *path, size_t *size)
{
    *size = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *map = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX) {
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED)
            map = NULL;
        else
            *size = (size_t)st.st_size;
    }
    close(fd);
    return map;
}

/* Unmaps what platform_file_map gave. */
void platform_file_unmap(void *map, size_t size)
{
    if (map)
        munmap(map, size);
}
#endif

/* Milliseconds from the monotonic clock. */
int64_t now_ms(void) { return now_us() / 1000; }
