/*
 * spsa_match.h - the games of an SPSA iteration, played by the xqmatch program: one run of
 * `xqmatch -engine name=plus ... -engine name=minus ... -rounds PAIRS` per iteration, the engines' options
 * set to the probe's values, each pair on an opening of the session's file (in an order drawn from the
 * session's seed, so pair k of a session always has the same opening); the result read from its summary.
 *
 * Why the program and not its library: tools/ programs include only their own folder and common/
 * (tests/check_layers.c), and xqmatch's game code lives in its own folder. Running it also keeps
 * every xqmatch option (adjudication, rules, tablebases) at hand after `--`, at the cost of one
 * process start per iteration.
 */
#ifndef XQS_SPSA_MATCH_H
#define XQS_SPSA_MATCH_H

#include "spsa_state.h"

enum { MATCH_PATH_MAX = 4096 };

/* What the iterations of one session share. */
typedef struct SpsaMatch {
    const SpsaSettings *set;
    char xqmatch[MATCH_PATH_MAX];       /* the runner: the settings', or the one beside xqspsa, or PATH's */
    char openings_path[MATCH_PATH_MAX]; /* the file each iteration's openings are written to */
    int opening_count;                  /* 0: every game from the start position */
    char **opening;                     /* the opening file's lines, in the session's order */
} SpsaMatch;

/* Prepares the iterations of a session: finds xqmatch (self_dir: the folder of xqspsa's executable, or
 * NULL), reads and orders the openings; the iteration's openings go to state_path + ".openings". False
 * with msg on an error. */
bool spsa_match_init(SpsaMatch *m, const SpsaSettings *set, const char *state_path, const char *self_dir, char *msg,
                     size_t msg_size);
/* Frees what spsa_match_init allocated (and removes the openings file). */
void spsa_match_free(SpsaMatch *m);
/* The play function of spsa_step (ctx: a SpsaMatch): runs xqmatch and reads its result. */
bool spsa_match_play(void *ctx, const Spsa *s, const SpsaProbe *probe, int pairs, SpsaGames *out, char *msg,
                     size_t msg_size);
/* Reads the result of `pairs` pairs from xqmatch's output (its summary line "plus vs minus: N games, W w L l
 * D d" and its endings); false with msg when it is not there, does not count 2 * pairs games, or a game could
 * not be played (a start failure). Abnormal endings (crash, illegal move, ...) go to out->note. */
bool spsa_match_parse(const char *output, int pairs, SpsaGames *out, char *msg, size_t msg_size);

#endif
