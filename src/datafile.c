/* datafile.c - the search path of relative net and book names (see datafile.h). */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* stat under -std=c11 */
#endif
#include "datafile.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Is a file name relative ("C:..." and "\..." are absolute on Windows)? */
static bool is_relative(const char *name)
{
    if (name[0] == '/' || name[0] == '\\')
        return false;
    return !(isalpha((unsigned char)name[0]) && name[1] == ':');
}

/* Does something exist at path? */
static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The i-th directory to look in: the executable's, then the installed data directory. */
bool datafile_dir(const char *exe_dir, int i, char *out, size_t size)
{
    int n = i == 0 ? snprintf(out, size, "%s", exe_dir) : snprintf(out, size, "%s/" DATAFILE_SHARE, exe_dir);
    return n > 0 && (size_t)n < size;
}

/* The path to open for name. */
bool datafile_locate(const char *name, const char *exe_dir, char *out, size_t size)
{
    if (exe_dir && *exe_dir && is_relative(name) && !exists(name)) {
        for (int i = 0; i < DATAFILE_DIRS; i++) {
            char dir[DATAFILE_PATH_MAX];
            if (!datafile_dir(exe_dir, i, dir, sizeof dir))
                continue;
            int n = snprintf(out, size, "%s/%s", dir, name);
            if (n > 0 && (size_t)n < size && exists(out))
                return true;
        }
    }
    int n = snprintf(out, size, "%s", name);
    return n >= 0 && (size_t)n < size;
}
