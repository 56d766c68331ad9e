/*
 * tune_data.h - the training set of the eval tuner. Each labelled position
 * is made quiet (dropped when in check, else moved to the end of its
 * quiescence principal variation) and turned into the coefficients of the
 * evaluation as a linear function of the EvalParams ints:
 *
 *   red_eval = scale(sum_j coef_j * w_j) + coef_tempo * tempo
 *
 * where scale() divides by no_mating_material_div when the leading side has
 * no mating material. Coefficients are measured by probing evaluate() one
 * weight at a time, so the tuner never re-implements the evaluation.
 */
#ifndef XQT_TUNE_DATA_H
#define XQT_TUNE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eval/eval_params.h"

enum { TUNE_RED_MATES = 1, TUNE_BLACK_MATES = 2 };

/* One position: its result and a run of (index, coefficient) pairs in the set's arrays. */
typedef struct TuneEntry {
    size_t first;    /* first coefficient in TuneSet.idx/coef */
    uint16_t count;  /* number of coefficients */
    uint8_t flags;   /* TUNE_RED_MATES | TUNE_BLACK_MATES: who has mating material */
    int8_t stm;      /* +1 red to move, -1 black */
    float result;    /* 1, 0.5 or 0 for red */
} TuneEntry;

typedef struct TuneSet {
    TuneEntry *entry;
    size_t n, cap;
    uint16_t *idx;   /* EvalParams int index of each coefficient */
    float *coef;
    size_t n_coef, cap_coef;
} TuneSet;

/* What loading did with the input lines. */
typedef struct TuneLoadStats {
    long lines, bad, in_check, leaf_in_check, kept;
    long resolved;       /* kept positions whose quiescence PV was not empty */
    int max_model_error; /* largest |model - evaluate()| seen under the load params */
    long model_errors;   /* positions where that exceeds the rounding tolerance */
} TuneLoadStats;

/* Can the tuner move this EvalParams int (phase weights and the mating divisor stay fixed)? */
bool tune_param_free(size_t index);
/* Index of the tempo weight among the EvalParams ints. */
size_t tune_tempo_index(void);

/*
 * Loads "FEN;result" lines from path (at most max_positions kept; 0 = all),
 * resolving quiescence and measuring coefficients under params. Returns false
 * if the file cannot be read or memory runs out.
 */
bool tune_set_load(TuneSet *set, const char *path, const EvalParams *params, long max_positions,
                   TuneLoadStats *stats);
/* Frees a training set. */
void tune_set_free(TuneSet *set);
/* The model's red-view eval of entry i with weights w (doubles, one per EvalParams int). */
double tune_model_eval(const TuneSet *set, size_t i, const double *w, int mating_div);

#endif
