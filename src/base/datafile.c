/* datafile.c - the search path of relative net and book names (see datafile.h). */
#include "datafile.h"

#include <stdio.h>
#include <string.h>

/* The i-th directory to look in: the executable's, then the installed data directory. */
bool datafile_dir(const char *exe_dir, int i, char *out, size_t size)
{
    int n = i == 0 ? snprintf(out, size, "%s", exe_dir) : snprintf(out, size, "%s/" DATAFILE_SHARE, exe_dir);
    return n > 0 && (size_t)n < size;
}
