/*
 * protocol_tok.c - what every dialect's parser uses: a line split into
 * tokens on any whitespace (tabs, double spaces, '\r'), case-insensitive
 * words and range-checked whole-token integers.
 */
#include "protocol_tok.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>


/* Case-insensitive ASCII string equality. */
bool str_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* Range-checked integer parse of a whole token. */
bool parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || end == s || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* Splits the line into whitespace-separated tokens (malloc'd buffer and array). */
bool tokens_split(const char *line, char **buf, char ***tok, int *n_tok)
{
    size_t len = strlen(line);
    *n_tok = 0;
    *buf = malloc(len + 1);
    *tok = malloc((len / 2 + 2) * sizeof **tok);
    if (!*buf || !*tok)
        return false;
    memcpy(*buf, line, len + 1);
    char *p = *buf;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            *p++ = '\0';
        if (!*p)
            break;
        (*tok)[(*n_tok)++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
    }
    return true;
}

/* Joins tokens [from, to) with single spaces into a new string. */
char *tokens_join(char *const *tok, int from, int to)
{
    size_t n = 1;
    for (int i = from; i < to; i++)
        n += strlen(tok[i]) + 1;
    char *s = malloc(n), *p = s;
    if (!s)
        return NULL;
    *p = '\0';
    for (int i = from; i < to; i++) {
        size_t l = strlen(tok[i]);
        if (i > from)
            *p++ = ' ';
        memcpy(p, tok[i], l + 1);
        p += l;
    }
    return s;
}
