/* fileload.c - reading small regular files whole, never blocking on a FIFO or a device (see fileload.h). */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* open flags, fstat under -std=c11 */
#endif
#include "fileload.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include "datafile.h"

#ifndef S_ISREG
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#endif
#ifndef O_BINARY
#define O_BINARY 0 /* POSIX has no text mode */
#endif
#ifndef O_NONBLOCK
#define O_NONBLOCK 0 /* Windows: no FIFOs to open; stat refuses devices first */
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

enum { READ_CHUNK = 1 << 20 };

/* Is a file name relative (not "/x", "\x" or "C:...")? */
bool file_name_is_relative(const char *name)
{
    if (name[0] == '/' || name[0] == '\\')
        return false;
    return !(isalpha((unsigned char)name[0]) && name[1] == ':');
}

/* Fills err with "cannot open (strerror)" for errno e and leaves errno as e. */
static bool open_failed(int e, XqError *err)
{
    snprintf(err->msg, sizeof err->msg, "cannot open (%s)", strerror(e));
    errno = e;
    return false;
}

/* Refuses what is not a regular file of 1..max_bytes bytes (errno 0: found, but unusable). */
static bool check_stat(const struct stat *st, size_t max_bytes, XqError *err)
{
    errno = 0;
    if (!S_ISREG(st->st_mode)) { /* a directory, a FIFO, a device, a terminal: reading could block or never end */
        snprintf(err->msg, sizeof err->msg, "not a regular file");
        return false;
    }
    if (st->st_size <= 0 || (uint64_t)st->st_size > max_bytes) {
        if (st->st_size <= 0)
            snprintf(err->msg, sizeof err->msg, "empty file");
        else
            snprintf(err->msg, sizeof err->msg, "larger than %zu bytes", max_bytes);
        return false;
    }
    return true;
}

/* Reads exactly want bytes of fd into buf, then checks that the file ends there (it did not grow). */
static bool read_all(int fd, uint8_t *buf, size_t want, XqError *err)
{
    size_t got = 0;
    while (got < want) {
        size_t chunk = want - got < READ_CHUNK ? want - got : READ_CHUNK;
        long n = (long)read(fd, buf + got, (unsigned)chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    uint8_t extra;
    if (got != want || read(fd, &extra, 1) != 0) { /* shrank, failed, or grew while read: refuse it */
        snprintf(err->msg, sizeof err->msg, "read error (the file changed while read?)");
        errno = 0;
        return false;
    }
    return true;
}

/* Opens path for reading without blocking and checks it is a regular file of 1..max_bytes bytes (*st filled);
 * -1 with err filled if not (errno ENOENT only when it does not exist). */
static int open_regular(const char *path, size_t max_bytes, struct stat *st, XqError *err)
{
#ifdef _WIN32
    if (stat(path, st) != 0) { /* before opening: Windows has no non-blocking open */
        open_failed(errno, err);
        return -1;
    }
    if (!check_stat(st, max_bytes, err))
        return -1;
#endif
    int fd = open(path, O_RDONLY | O_BINARY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        open_failed(errno, err);
        return -1;
    }
    if (fstat(fd, st) != 0 || !check_stat(st, max_bytes, err)) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Is path a regular file of 1..max_bytes bytes (checked without blocking on a FIFO or a device)? */
bool file_is_regular(const char *path, size_t max_bytes, XqError *err)
{
    struct stat st;
    int fd = open_regular(path, max_bytes, &st, err);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

/* Reads one path whole (no search rule); errno is ENOENT only when it does not exist. */
static bool load_one(const char *path, size_t max_bytes, uint8_t **data, size_t *size, XqError *err)
{
    struct stat st;
    int fd = open_regular(path, max_bytes, &st, err);
    if (fd < 0)
        return false;
    uint8_t *buf = malloc((size_t)st.st_size);
    bool ok = buf != NULL;
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        errno = 0;
    }
    ok = ok && read_all(fd, buf, (size_t)st.st_size, err);
    close(fd);
    if (!ok) {
        free(buf);
        return false;
    }
    *data = buf;
    *size = (size_t)st.st_size;
    return true;
}

/* Reads a whole regular file, a relative name also in the directories of datafile.h. */
bool file_load(const char *name, const char *exe_dir, size_t max_bytes, uint8_t **data, size_t *size, XqError *err)
{
    *data = NULL;
    *size = 0;
    if (!name[0]) {
        snprintf(err->msg, sizeof err->msg, "empty file name");
        return false;
    }
    if (strlen(name) >= FILE_NAME_MAX) {
        snprintf(err->msg, sizeof err->msg, "file name longer than %d bytes", FILE_NAME_MAX - 1);
        return false;
    }
    if (load_one(name, max_bytes, data, size, err))
        return true;
    if (errno != ENOENT || !exe_dir || !*exe_dir || !file_name_is_relative(name))
        return false;
    for (int i = 0; i < DATAFILE_DIRS; i++) {
        char dir[DATAFILE_PATH_MAX], joined[DATAFILE_PATH_MAX + FILE_NAME_MAX];
        if (!datafile_dir(exe_dir, i, dir, sizeof dir))
            continue;
        snprintf(joined, sizeof joined, "%s/%s", dir, name);
        XqError there;
        if (load_one(joined, max_bytes, data, size, &there))
            return true;
        if (errno != ENOENT) {
            *err = there; /* found there, but unusable: say why */
            return false;
        }
    }
    return false;
}
