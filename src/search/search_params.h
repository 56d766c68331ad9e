/*
 * search_params.h - the search's tunable constants, named in one table.
 *
 * SEARCH_PARAMS lists each one as X(name, default, min, max, step): the
 * default is the shipped value, min..max the range a tuner may try, and step
 * the perturbation an SPSA session should end with (its c_end: about a
 * twentieth of the range, at least 1). tools/xqspsa tunes them and prints its
 * result as lines of this table, ready to paste over the old ones.
 *
 * A normal build compiles every use as the default, a constant (SPD_name):
 * the search is exactly as if the numbers were written in place. A tuning
 * build (cmake -DXQ_TUNE_SEARCH=ON) reads them from the SearchShared of the
 * search (its `params`, which the engine fills from its options), and the
 * protocols offer each as a spin option named `name`. XQ_TUNE_SEARCH is read
 * by search.c and iterate.c alone (through search_int.h's SP): every other
 * file compiles the same in both builds (tests/CMakeLists.txt's jiangjun_tune
 * relies on that).
 */
#ifndef XQ_SEARCH_PARAMS_H
#define XQ_SEARCH_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

/* X(name, default, min, max, step); depths in plies, margins in centipawns, history in its own units. */
#define SEARCH_PARAMS(X)                                                                                               \
    X(null_min_depth, 2, 1, 6, 1)           /* null move: at this depth or more... */                                  \
    X(null_base_reduction, 3, 1, 6, 1)      /* ...reduced by this... */                                                \
    X(null_depth_divisor, 4, 2, 10, 1)      /* ...plus depth / this... */                                              \
    X(null_eval_divisor, 200, 100, 600, 25) /* ...plus (eval - beta) / this... */                                      \
    X(null_eval_max, 3, 0, 6, 1)            /* ...of at most this many plies */                                        \
    X(rfp_max_depth, 6, 2, 12, 1)           /* reverse futility: up to this depth... */                                \
    X(rfp_margin, 82, 20, 300, 12)          /* ...when eval - this * depth >= beta */                                  \
    X(futility_max_depth, 5, 1, 10, 1)      /* futility: up to this depth... */                                        \
    X(futility_base, 98, 0, 400, 20)        /* ...when eval + this... */                                               \
    X(futility_per_depth, 89, 20, 300, 12)  /* ...+ this * depth <= alpha */                                           \
    X(lmp_max_depth, 4, 1, 10, 1)           /* late move pruning: up to this depth... */                               \
    X(lmp_base, 3, 0, 12, 1)                /* ...after (this + depth^2) / (2 - improving) moves */                    \
    X(lmr_min_depth, 3, 2, 6, 1)            /* late move reductions: from this depth... */                             \
    X(lmr_min_moves, 3, 1, 8, 1)            /* ...after this many moves */                                             \
    X(lmr_base, 80, 0, 200, 10)             /* reduction = (this + 100ln(d) * 100ln(m) / divisor) / 100 */             \
    X(lmr_divisor, 232, 100, 400, 15)                                                                                  \
    X(lmr_history_divisor, 11327, 2000, 32000, 1500) /* a quiet move's history / this off its reduction */             \
    X(iir_min_depth, 4, 2, 10, 1)                    /* internal iterative reduction from this depth */                \
    X(history_prune_depth, 3, 0, 8, 1)               /* history pruning: up to this depth... */                        \
    X(history_prune_margin, 943, 0, 8000, 400)       /* ...of quiet moves with history below -this * depth */          \
    X(history_bonus_per_depth, 200, 50, 600, 30)     /* a cutoff's history bonus: this * depth... */                   \
    X(history_bonus_offset, 150, 0, 500, 25)         /* ...minus this... */                                            \
    X(history_bonus_max, 1200, 300, 4000, 150)       /* ...at most this */                                             \
    X(see_prune_depth, 3, 0, 8, 1)                   /* losing captures skipped up to this depth */                    \
    X(quiet_see_depth, 5, 0, 10, 1)                  /* quiet moves losing material by SEE: up to this depth... */     \
    X(quiet_see_margin, 29, 0, 150, 8)               /* ...pruned when they lose more than this * depth^2 */           \
    X(qs_delta_margin, 239, 0, 600, 30)              /* quiescence delta pruning margin */                             \
    X(aspiration_window, 25, 5, 100, 5)              /* the first aspiration window's half width */                    \
    X(se_min_depth, 6, 4, 12, 1)                     /* singular extensions: from this depth... */                     \
    X(se_tt_depth_slack, 3, 1, 6, 1)                 /* ...with a TT entry at most this many plies shallower */        \
    X(se_margin, 2, 0, 12, 1)                        /* singular beta: the TT score less this * depth */

/* Each parameter's index (SPI_name) and their count. */
enum {
#define XQ_SP_INDEX(name, def, lo, hi, step) SPI_##name,
    SEARCH_PARAMS(XQ_SP_INDEX)
#undef XQ_SP_INDEX
    SEARCH_PARAM_COUNT
};

/* Each parameter's default as a constant (SPD_name): what a normal build compiles. */
enum {
#define XQ_SP_DEFAULT(name, def, lo, hi, step) SPD_##name = (def),
    SEARCH_PARAMS(XQ_SP_DEFAULT)
#undef XQ_SP_DEFAULT
};

/* The values a tuning build's search reads (SearchShared.params). */
typedef struct SearchParams {
#define XQ_SP_FIELD(name, def, lo, hi, step) int name;
    SEARCH_PARAMS(XQ_SP_FIELD)
#undef XQ_SP_FIELD
} SearchParams;

/* One row of the table, for the option lists and the tools. */
typedef struct SearchParamInfo {
    const char *name;
    int def, min, max, step;
    size_t offset; /* of the value in SearchParams */
} SearchParamInfo;

extern const SearchParamInfo SEARCH_PARAM_INFO[SEARCH_PARAM_COUNT];

/* Fills p with every default. */
void search_params_default(SearchParams *p);
/* The value of parameter index in p. */
int search_param_get(const SearchParams *p, int index);
/* Sets parameter index in p to v; false (p unchanged) when v is outside its range. */
bool search_param_set(SearchParams *p, int index, int v);
/* The index of the parameter of this name, or -1. */
int search_param_find(const char *name);
/* Does this build's search read SearchShared.params (a tuning build), rather than the defaults? */
bool search_params_tunable(void);

#endif
