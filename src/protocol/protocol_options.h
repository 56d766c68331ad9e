/*
 * protocol_options.h - the option table of all three dialects: names, types and
 * defaults per dialect, setting an option and pushing it to the engine.
 */
#ifndef XQ_PROTOCOL_OPTIONS_H
#define XQ_PROTOCOL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "proto.h"

/* How one option looks in one dialect (opt_view). */
typedef struct OptView {
    OptId id;
    const char *name;         /* the name shown in that dialect */
    const char *type;         /* spin, check, button, combo, string */
    int64_t min, max, def;    /* spin range and default; check default (0/1) */
    const char *def_text;     /* check: true/false; combo: the default value; string: the default text */
    const char *const *vars;  /* combo values (NULL-terminated) */
} OptView;
/* Describes option number i (0..OPT_COUNT-1) as shown in dialect d; false when d does not show it. */
bool opt_view(int i, Dialect d, OptView *out);
/* Appends " var V" for each value of a combo option to line at *n, the default first. */
void opt_append_vars(const OptView *v, char *line, size_t size, size_t *n);
/* Is there an option of this name (as opt_set matches names)? */
bool opt_exists(const char *name);
/* Sets every option to its default and pushes the engine-relevant ones to the engine. */
void opt_init(Proto *p);
/* Applies `setoption`; false for a name no option has (nothing changes); bad values leave the old value (message
 * error). */
bool opt_set(Proto *p, const char *name, const char *value);
/* Sets spin option id from a number clamped into its range, with setoption's notice when it is; false (nothing
 * changes) for text that is no number. */
bool opt_set_clamped(Proto *p, OptId id, const char *value);
/* Loads the tablebases of a directory ("" or "<empty>": none), telling the user what was loaded. */
void opt_set_tb_path(Proto *p, const char *value);

#endif
