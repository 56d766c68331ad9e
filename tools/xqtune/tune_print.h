/*
 * tune_print.h - writes tuned weights: as a params file in the
 * eval_params_load format ("name flat_index value"), and as the C
 * initialiser of EVAL_DEFAULTS (printed, or patched into eval_params.c).
 */
#ifndef XQT_TUNE_PRINT_H
#define XQT_TUNE_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "eval/eval_params.h"

/* Writes every weight as "name index value" lines. */
void tune_write_params(FILE *out, const EvalParams *p);
/* Prints `const EvalParams EVAL_DEFAULTS = { ... };` for p. */
void tune_print_c(FILE *out, const EvalParams *p);
/* Replaces the EVAL_DEFAULTS initialiser in the C file at path; false with a message on stderr. */
bool tune_patch_c(const char *path, const EvalParams *p);

#endif
