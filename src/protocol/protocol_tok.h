/*
 * protocol_tok.h - what every dialect's parser uses: a line split into tokens,
 * case-insensitive words, range-checked whole-token integers.
 */
#ifndef XQ_PROTOCOL_TOK_H
#define XQ_PROTOCOL_TOK_H

#include <stdbool.h>
#include <stdint.h>

/* Range-checked integer parse of a whole token. */
bool parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
/* Case-insensitive ASCII string equality. */
bool str_ieq(const char *a, const char *b);

/* Joins tok[from, to) with single spaces into a new string (NULL if out of memory). */
char *tokens_join(char *const *tok, int from, int to);
/* Splits a line into whitespace-separated tokens: *buf and *tok are malloc'd; false if out of memory. */
bool tokens_split(const char *line, char **buf, char ***tok, int *n_tok);

#endif
