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

/* Large tables (the hash): a table of PLATFORM_HUGE_PAGE bytes or more is aligned to a huge page (x86-64: 2 MiB)
 * and backed by huge pages where the OS grants them (Linux's transparent huge pages); smaller ones to at least
 * PLATFORM_TABLE_ALIGN bytes (a cache line). */
enum { PLATFORM_HUGE_PAGE = 2 << 20, PLATFORM_TABLE_ALIGN = 64 };
/* Zeroed memory for a table of `bytes` (aligned as above); *raw gets what to free with platform_table_free;
 * NULL (and *raw NULL) if the system has none. */
void *platform_table_alloc(size_t bytes, void **raw);
/* Tables of at least this many bytes are zeroed by handing their pages back (platform_table_zero). */
enum { PLATFORM_ZERO_BY_RELEASE = 64 << 20 };
/* Zeroes a table from platform_table_alloc: one of PLATFORM_ZERO_BY_RELEASE bytes or more by handing its pages
 * back to the OS where it can (Linux: MADV_DONTNEED; they read as zeros and are faulted in when touched), so
 * that clearing a hash of gigabytes takes microseconds instead of seconds; smaller ones (the search's speed in
 * bench is measured on a 16 MB table) and elsewhere with memset. */
void platform_table_zero(void *table, size_t bytes);
/* Frees a table from platform_table_alloc (raw and the same bytes; raw may be NULL). */
void platform_table_free(void *raw, size_t bytes);

/* Maps a regular file of at least one byte read-only (POSIX mmap; the pages are shared with every other
 * process mapping it and read in when touched): its bytes, *size its length; NULL where it cannot be mapped
 * (not a regular file, empty, or on Windows, where callers read the file instead). Never blocks on a FIFO. */
void *platform_file_map(const char *path, size_t *size);
/* Unmaps what platform_file_map gave (NULL is fine). */
void platform_file_unmap(void *map, size_t size);

#endif
