/*
 * replay.c - main() for fuzz targets built without libFuzzer: runs every file
 * given (directories: every file in them) through LLVMFuzzerTestOneInput once,
 * so ctest replays the corpus, crash inputs included, in the default build.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "fuzz.h"

enum { REPLAY_PATH_MAX = 4096 };

/* Reads a whole file and runs it; returns false if it cannot be read. */
static bool replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t cap = 4096, len = 0;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = realloc(data, cap * 2);
            if (!bigger) {
                free(data);
                data = NULL;
                break;
            }
            data = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!data)
        return false;
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return true;
}

/* Runs a file, or every regular file in a directory; returns the number run, -1 on error. */
static int replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode))
        return replay_file(path) ? 1 : -1;
    DIR *dir = opendir(path);
    if (!dir)
        return -1;
    int count = 0;
    for (struct dirent *ent; (ent = readdir(dir)) != NULL;) {
        char child[REPLAY_PATH_MAX];
        if (ent->d_name[0] == '.')
            continue;
        snprintf(child, sizeof child, "%s/%s", path, ent->d_name);
        if (stat(child, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (!replay_file(child)) {
            closedir(dir);
            return -1;
        }
        count++;
    }
    closedir(dir);
    return count;
}

/* Replays every path given; fails if a path cannot be read or holds no input at all. */
int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int total = 0;
    for (int i = 1; i < argc; i++) {
        int n = replay_path(argv[i]);
        if (n < 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 1;
        }
        total += n;
    }
    printf("replayed %d inputs\n", total);
    return total > 0 ? 0 : 1;
}
