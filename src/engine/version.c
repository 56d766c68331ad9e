/* version.c - the build's version, revision, SIMD level and built-in net; --help and --version. */
#include "version.h"

#include <string.h>

#include "eval/nnue/nnue.h"
#include "xq_revision.h" /* generated at build time by cmake/git_revision.cmake */

#ifndef XQ_VERSION
#error "XQ_VERSION (the project's version) is set by CMakeLists.txt"
#endif

enum { NET_NAME_MAX = 32 };

/* The version number, from CMake's project(VERSION). */
const char *version_number(void) { return XQ_VERSION; }

/* "Jiangjun X.Y.Z". */
const char *version_engine_name(void) { return XQ_NAME " " XQ_VERSION; }

/* The git revision the build was made from. */
const char *version_revision(void) { return XQ_REVISION; }

/* The built-in net's name: its description up to the first ':' or space (the nets' convention, "n7c: ..."). */
static void net_name(const Network *net, char *out, size_t size)
{
    size_t n = strcspn(net->desc, ": ");
    if (n == 0 || n >= size)
        n = strlen(net->desc) < size ? strlen(net->desc) : size - 1;
    memcpy(out, net->desc, n);
    out[n] = '\0';
}

/* Prints the version lines. */
void version_print(FILE *out, const char *program)
{
    if (program)
        fprintf(out, "%s (" XQ_NAME ") " XQ_VERSION "\n", program);
    else
        fprintf(out, XQ_NAME " " XQ_VERSION "\n");
    fprintf(out, "revision: %s\n", XQ_REVISION);
    fprintf(out, "simd: %s\n", nnue_best_kernels()->name);
    const Network *net = nnue_default();
    if (net) {
        char name[NET_NAME_MAX];
        net_name(net, name, sizeof name);
        fprintf(out, "net: %s (built in: %s)\n", name, net->desc);
    } else {
        fprintf(out, "net: none built in (hand-crafted evaluation)\n");
    }
}

/* --help, -h, -help or help. */
bool version_is_help(const char *arg)
{
    return !strcmp(arg, "--help") || !strcmp(arg, "-h") || !strcmp(arg, "-help") || !strcmp(arg, "help");
}

/* --version or -version. */
bool version_is_version(const char *arg) { return !strcmp(arg, "--version") || !strcmp(arg, "-version"); }

/* The usage for a help request, the version lines for a version request. */
bool version_common_arg(const char *arg, const char *program, const char *usage, FILE *out)
{
    if (version_is_help(arg)) {
        fputs(usage, out);
        return true;
    }
    if (version_is_version(arg)) {
        version_print(out, program);
        return true;
    }
    return false;
}
