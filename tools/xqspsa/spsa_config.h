/*
 * spsa_config.h - the parameter file of an SPSA session: one parameter a line, fishtest's input columns
 *
 *     name, start, min, max, c_end, r_end
 *
 * (commas or blanks between them; c_end and r_end may be left out: then a twentieth of the range and
 * 0.002, what Stockfish's tune suggests). '#' starts a comment; blank lines are skipped. The name is the
 * engine's option (letters, digits and underscores).
 */
#ifndef XQS_SPSA_CONFIG_H
#define XQS_SPSA_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "spsa.h"

/* Parses a whole number in [lo, hi]; false if text is not one. */
bool spsa_parse_int(const char *text, int64_t lo, int64_t hi, int64_t *out);
/* Parses a finite number (decimals and exponents allowed); false if text is not one. */
bool spsa_parse_real(const char *text, double *out);
/* Parses one line: 1 with *out filled (theta = start), 0 for a blank or comment line, -1 with msg on an
 * error. */
int spsa_config_line(const char *line, SpsaParam *out, char *msg, size_t msg_size);
/* Reads a parameter file into s->param and s->count; false with msg ("FILE:LINE: ...") on an error, an
 * empty file, a name given twice or more than SPSA_PARAMS_MAX parameters. */
bool spsa_config_load(const char *path, Spsa *s, char *msg, size_t msg_size);

#endif
