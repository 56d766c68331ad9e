/*
 * version.h - what a build is: the version number (CMake's project(VERSION), the only place it is set),
 * the git revision, the SIMD kernels and the built-in net; and the conventions every program of the
 * project shares on its command line (--help, -h, help: usage on stdout, exit 0; --version).
 */
#ifndef XQ_VERSION_H
#define XQ_VERSION_H

#include <stdbool.h>
#include <stdio.h>

#define XQ_NAME "Jiangjun"

/* The version number, "X.Y.Z". */
const char *version_number(void);
/* The engine's name with its version, "Jiangjun X.Y.Z" (UCI/UCCI id name, CECP myname). */
const char *version_engine_name(void);
/* The git revision built (`git describe --always --dirty`), or "unknown". */
const char *version_revision(void);
/* Prints the version lines: "Jiangjun X.Y.Z" (or "PROGRAM (Jiangjun) X.Y.Z" for a tool), the revision,
 * the SIMD kernels this CPU runs and the built-in net. */
void version_print(FILE *out, const char *program);
/* Is arg a request for the usage: --help, -h, -help or help? */
bool version_is_help(const char *arg);
/* Is arg a request for the version: --version or -version? */
bool version_is_version(const char *arg);
/* Handles a shared option: --help / -h / -help / help prints usage on out, --version / -version the
 * version lines; returns true when arg was one of them (the program then exits 0). */
bool version_common_arg(const char *arg, const char *program, const char *usage, FILE *out);

#endif
