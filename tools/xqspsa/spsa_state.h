/*
 * spsa_state.h - an SPSA session's state file: how the games are played (SpsaSettings: the engine, the
 * limit, openings, concurrency, the xqmatch arguments) and how far the session has come (Spsa: the
 * parameters with their inputs and current values, the schedule, the pairs played, the results, the
 * generator). Written after every iteration, atomically (a new file renamed over the old), so that
 * `xqspsa -resume FILE` continues exactly where the last finished iteration left off.
 *
 * The file is text, one `key value` a line (the value is the rest of the line; list keys repeat):
 *
 *     xqspsa-state 1
 *     engine cmd=build/jiangjun-tune       (the -engine KEY=VALUE settings, one a line)
 *     limit nodes 2000                     (nodes, depth, movetime or tc, and its value)
 *     pairs_total 1000
 *     ...
 *     param rfp_margin 90 20 300 12 0.002 91.372018230017495   (name, the inputs, theta)
 *
 * Numbers are written with 17 significant digits, so a state read back is the state written.
 */
#ifndef XQS_SPSA_STATE_H
#define XQS_SPSA_STATE_H

#include <stddef.h>

#include "spsa.h"

enum { SETTING_TEXT_MAX = 512, SETTING_LIST_MAX = 32 };

/* How a session plays its games. */
typedef struct SpsaSettings {
    int engine_count;
    char engine[SETTING_LIST_MAX][SETTING_TEXT_MAX]; /* xqmatch's -engine KEY=VALUE settings (cmd=, proto=, ...) */
    char limit[16];                                  /* nodes, depth, movetime or tc... */
    char limit_value[64];                            /* ...and its value as xqmatch takes it */
    char openings[SETTING_TEXT_MAX];                 /* the opening file, "" = the start position */
    int concurrency;                                 /* games at once */
    int batch;                                       /* game pairs per iteration */
    uint64_t seed;                                   /* the session's seed (the generator and the openings' order) */
    char xqmatch[SETTING_TEXT_MAX];                  /* the match runner, "" = the one beside xqspsa */
    int extra_count;
    char extra[SETTING_LIST_MAX][SETTING_TEXT_MAX]; /* more xqmatch arguments (after --) */
    char config[SETTING_TEXT_MAX];                  /* the parameter file the session started from */
} SpsaSettings;

/* A whole session: its settings and its progress. */
typedef struct SpsaRun {
    SpsaSettings set;
    Spsa spsa;
} SpsaRun;

/* Writes run to path atomically (path.tmp, then renamed); false with msg on an error. */
bool spsa_state_save(const char *path, const SpsaRun *run, char *msg, size_t msg_size);
/* Reads a state file into run (the schedule recomputed from its inputs); false with msg ("FILE:LINE: ...")
 * when it cannot be read or is not a whole, consistent state. */
bool spsa_state_load(const char *path, SpsaRun *run, char *msg, size_t msg_size);

#endif
