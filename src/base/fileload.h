/*
 * fileload.h - the one reader of the small files the engine is told to read
 * by name (net files, opening books, later tablebases).
 *
 * A file is read whole into memory, and only a regular file: a directory, a
 * FIFO, a device or a terminal (`/dev/stdin`, `/dev/tty`) is refused without
 * reading it and without blocking (POSIX: opened with O_NONBLOCK, then
 * checked with fstat on the descriptor opened; Windows: checked with stat
 * before opening). Every caller gives a size cap. Relative names follow one
 * rule: the current directory first, then the directories of datafile.h (the
 * executable's own, then the installed data directory beside it).
 */
#ifndef XQ_FILELOAD_H
#define XQ_FILELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

enum { FILE_NAME_MAX = 512 }; /* longest name, and longest joined "exe_dir/name" */

/* Reads a whole regular file of 1..max_bytes bytes into *data (malloc'd; the caller frees it) and its size
 * into *size. A relative name not found in the current directory is looked for in the
 * directories datafile_dir gives for exe_dir (NULL or "": not looked for elsewhere). On error fills err
 * with why, without the name ("not a regular file", "cannot open (No such file or directory)"), and
 * *data is NULL. */
bool file_load(const char *name, const char *exe_dir, size_t max_bytes, uint8_t **data, size_t *size, XqError *err);
/* Is path a regular file of 1..max_bytes bytes? Checked without blocking (as file_load opens), for a reader
 * that streams a big file itself (tablebases); false with err filled as file_load fills it. The name is
 * used as given: no search rule. */
bool file_is_regular(const char *path, size_t max_bytes, XqError *err);
/* Is a file name relative (so that it is also looked for beside the executable)? */
bool file_name_is_relative(const char *name);

#endif
