/* spsa_config.c - reading the parameter file (spsa_config.h). */
#include "spsa_config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CONFIG_LINE_MAX = 1024, CONFIG_FIELDS = 6, CONFIG_FIELDS_SHORT = 4 };

/* Parses a whole number in [lo, hi]. */
bool spsa_parse_int(const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Parses a finite number. */
bool spsa_parse_real(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* Is name a usable option name (letters, digits, underscores; not empty; fits)? */
static bool name_ok(const char *name)
{
    if (!*name || strlen(name) >= SPSA_NAME_MAX)
        return false;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return false;
    return true;
}

/* Splits a line at commas and blanks into at most max fields (the '#' comment cut off); returns the count,
 * or max + 1 when there are more. */
static int split_fields(char *line, char **field, int max)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    int n = 0;
    for (char *tok = strtok(line, ", \t\r\n"); tok; tok = strtok(NULL, ", \t\r\n")) {
        if (n == max)
            return max + 1;
        field[n++] = tok;
    }
    return n;
}

/* Parses one line of the parameter file. */
int spsa_config_line(const char *text, SpsaParam *out, char *msg, size_t msg_size)
{
    char line[CONFIG_LINE_MAX];
    if (strlen(text) >= sizeof line) {
        snprintf(msg, msg_size, "line longer than %d bytes", CONFIG_LINE_MAX - 1);
        return -1;
    }
    snprintf(line, sizeof line, "%s", text);
    char *field[CONFIG_FIELDS];
    int n = split_fields(line, field, CONFIG_FIELDS);
    if (n == 0)
        return 0;
    if (n != CONFIG_FIELDS && n != CONFIG_FIELDS_SHORT) {
        snprintf(msg, msg_size, "want 'name, start, min, max[, c_end, r_end]', got %s%d fields",
                 n > CONFIG_FIELDS ? "more than " : "", n > CONFIG_FIELDS ? CONFIG_FIELDS : n);
        return -1;
    }
    if (!name_ok(field[0])) {
        snprintf(msg, msg_size, "bad name '%.80s' (letters, digits and underscores, at most %d)", field[0],
                 SPSA_NAME_MAX - 1);
        return -1;
    }
    static const char *const WHAT[CONFIG_FIELDS] = { "name", "start", "min", "max", "c_end", "r_end" };
    double v[CONFIG_FIELDS] = { 0 };
    for (int i = 1; i < n; i++)
        if (!spsa_parse_real(field[i], &v[i])) {
            snprintf(msg, msg_size, "%s: %s '%.40s' is not a number", field[0], WHAT[i], field[i]);
            return -1;
        }
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", field[0]);
    out->start = v[1];
    out->min = v[2];
    out->max = v[3];
    out->c_end = n == CONFIG_FIELDS ? v[4] : SPSA_C_END_SHARE * (v[3] - v[2]);
    out->r_end = n == CONFIG_FIELDS ? v[5] : SPSA_R_END;
    out->theta = out->start;
    if (!(out->min < out->max) || out->start < out->min || out->start > out->max) {
        snprintf(msg, msg_size, "%s: want min < max and start within them, got start %g, min %g, max %g", out->name,
                 out->start, out->min, out->max);
        return -1;
    }
    if (!(out->c_end > 0) || !(out->r_end > 0)) {
        snprintf(msg, msg_size, "%s: c_end and r_end must be above 0 (got %g and %g)", out->name, out->c_end,
                 out->r_end);
        return -1;
    }
    return 1;
}

/* Reads the parameter file. */
bool spsa_config_load(const char *path, Spsa *s, char *msg, size_t msg_size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, msg_size, "%s: %s", path, strerror(errno));
        return false;
    }
    char line[CONFIG_LINE_MAX + 2], why[256];
    int number = 0;
    s->count = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        number++;
        SpsaParam p;
        int r = -1;
        if (!strchr(line, '\n') && !feof(f))
            snprintf(why, sizeof why, "line longer than %d bytes", CONFIG_LINE_MAX - 1);
        else
            r = spsa_config_line(line, &p, why, sizeof why);
        for (int i = 0; r > 0 && i < s->count; i++)
            if (strcmp(s->param[i].name, p.name) == 0) {
                snprintf(why, sizeof why, "%s is given twice", p.name);
                r = -1;
            }
        if (r > 0 && s->count == SPSA_PARAMS_MAX) {
            snprintf(why, sizeof why, "more than %d parameters", SPSA_PARAMS_MAX);
            r = -1;
        }
        if (r < 0) {
            snprintf(msg, msg_size, "%s:%d: %s", path, number, why);
            ok = false;
        } else if (r > 0) {
            s->param[s->count++] = p;
        }
    }
    fclose(f);
    if (ok && s->count == 0) {
        snprintf(msg, msg_size, "%s: no parameter (want lines 'name, start, min, max, c_end, r_end')", path);
        ok = false;
    }
    return ok;
}
