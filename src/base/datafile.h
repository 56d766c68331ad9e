/*
 * datafile.h - where the engine looks for a net or book file named by a relative path (fileload.c
 * reads it): as given (from the working directory), then beside the executable (as ElephantEye does),
 * then in the installed data directory DATAFILE_SHARE beside the executable's directory
 * (<exe dir>/../share/jiangjun: where `cmake --install` and the packages put the nets and books, so an
 * installed engine finds them under any prefix).
 */
#ifndef XQ_DATAFILE_H
#define XQ_DATAFILE_H

#include <stdbool.h>
#include <stddef.h>

#define DATAFILE_SHARE "../share/jiangjun"

enum { DATAFILE_DIRS = 2, DATAFILE_PATH_MAX = 1024 };

/* The i-th directory (0 <= i < DATAFILE_DIRS) to look in for exe_dir, into out; false if it does not fit. */
bool datafile_dir(const char *exe_dir, int i, char *out, size_t size);

#endif
