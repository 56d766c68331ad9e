/* tune_data.c - loads labelled positions, makes them quiet and measures eval coefficients. */
#include "tune_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/eval.h"
#include "board/movegen.h"
#include "board/position.h"

enum {
    LINE_LEN = 256,
    QS_MAX_PLY = 24,
    QS_INF = 32000,
    /* A probe weight: a multiple of the eval's phase scale (48), so the mg/eg blend divides exactly. */
    PROBE_SCALE = 4800,
    MODEL_TOLERANCE = 2, /* the eval rounds the blend and the mating divisor */
    INITIAL_CAP = 1 << 16,
};

/* Offset of a named field among the EvalParams ints. */
static size_t field_offset(const char *name)
{
    for (int i = 0; i < EVAL_PARAM_FIELDS; i++)
        if (strcmp(EVAL_PARAM_FIELD[i].name, name) == 0)
            return EVAL_PARAM_FIELD[i].offset;
    abort();
}

/* Can the tuner move this EvalParams int? */
bool tune_param_free(size_t index)
{
    size_t phase = field_offset("phase_weight");
    return index != field_offset("no_mating_material_div") && !(index >= phase && index < phase + PIECE_TYPES);
}

/* Index of the tempo weight. */
size_t tune_tempo_index(void) { return field_offset("tempo"); }

/* Value of a piece type for capture ordering in the quiescence search. */
static int victim_value(const Position *pos, Move m) { return eval_piece_value(pos->board[move_to(m)]); }

/* Captures-only alpha-beta from the side to move's view; fills the principal variation. */
static int qsearch(Position *pos, const EvalParams *p, int alpha, int beta, int ply, Move *pv, int *pv_len)
{
    *pv_len = 0;
    int stand = evaluate(pos, p);
    if (stand >= beta || ply >= QS_MAX_PLY)
        return stand;
    if (stand > alpha)
        alpha = stand;
    Move moves[MAX_MOVES], child[QS_MAX_PLY];
    int n = gen_captures(pos, moves);
    for (int i = 1; i < n; i++) /* most valuable victim first */
        for (int j = i; j > 0 && victim_value(pos, moves[j]) > victim_value(pos, moves[j - 1]); j--) {
            Move t = moves[j];
            moves[j] = moves[j - 1];
            moves[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        if (!move_is_legal(pos, moves[i]))
            continue;
        int child_len;
        pos_make(pos, moves[i]);
        int score = -qsearch(pos, p, -beta, -alpha, ply + 1, child, &child_len);
        pos_unmake(pos);
        if (score > alpha) {
            alpha = score;
            pv[0] = moves[i];
            memcpy(pv + 1, child, (size_t)child_len * sizeof *child);
            *pv_len = child_len + 1;
            if (alpha >= beta)
                break;
        }
    }
    return alpha;
}

/* Grows the arrays so one more entry with up to `more` coefficients fits. */
static bool reserve(TuneSet *set, size_t more)
{
    if (set->n == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : INITIAL_CAP;
        TuneEntry *e = realloc(set->entry, cap * sizeof *e);
        if (!e)
            return false;
        set->entry = e;
        set->cap = cap;
    }
    while (set->n_coef + more > set->cap_coef) {
        size_t cap = set->cap_coef ? 2 * set->cap_coef : INITIAL_CAP * 64;
        uint16_t *idx = realloc(set->idx, cap * sizeof *idx);
        if (idx)
            set->idx = idx;
        float *coef = idx ? realloc(set->coef, cap * sizeof *coef) : NULL;
        if (!coef)
            return false;
        set->coef = coef;
        set->cap_coef = cap;
    }
    return true;
}

/* Measures the coefficient of every free weight at pos by probing evaluate() with one weight set. */
static void add_entry(TuneSet *set, const Position *pos, const EvalParams *params, float result)
{
    EvalParams probe;
    memset(&probe, 0, sizeof probe);
    memcpy(probe.phase_weight, params->phase_weight, sizeof probe.phase_weight);
    probe.no_mating_material_div = 1;
    int *w = (int *)&probe;
    TuneEntry *e = &set->entry[set->n++];
    e->first = set->n_coef;
    e->count = 0;
    e->stm = pos->side == RED ? 1 : -1;
    e->result = result;
    e->flags = (uint8_t)((eval_has_mating_material(pos, RED) ? TUNE_RED_MATES : 0)
                         | (eval_has_mating_material(pos, BLACK) ? TUNE_BLACK_MATES : 0));
    for (size_t j = 0; j < EVAL_PARAM_INTS; j++) {
        if (!tune_param_free(j))
            continue;
        w[j] = PROBE_SCALE;
        int v = evaluate(pos, &probe) * e->stm;
        w[j] = 0;
        if (v != 0) {
            set->idx[set->n_coef] = (uint16_t)j;
            set->coef[set->n_coef++] = (float)v / PROBE_SCALE;
            e->count++;
        }
    }
}

/* The model's red-view eval of entry i with weights w. */
double tune_model_eval(const TuneSet *set, size_t i, const double *w, int mating_div)
{
    const TuneEntry *e = &set->entry[i];
    const size_t tempo = tune_tempo_index();
    double s = 0, t = 0;
    for (size_t k = e->first; k < e->first + e->count; k++) {
        if (set->idx[k] == tempo)
            t += set->coef[k] * w[tempo];
        else
            s += set->coef[k] * w[set->idx[k]];
    }
    if ((s > 0 && !(e->flags & TUNE_RED_MATES)) || (s < 0 && !(e->flags & TUNE_BLACK_MATES)))
        s /= mating_div;
    return s + t;
}

/* Compares the model with evaluate() on the newest entry and records the gap. */
static void check_model(const TuneSet *set, const Position *pos, const EvalParams *params, TuneLoadStats *stats)
{
    double w[EVAL_PARAM_INTS];
    const int *p = (const int *)params;
    for (size_t j = 0; j < EVAL_PARAM_INTS; j++)
        w[j] = p[j];
    double model = tune_model_eval(set, set->n - 1, w, params->no_mating_material_div);
    int real = evaluate(pos, params) * set->entry[set->n - 1].stm;
    int gap = (int)(model > real ? model - real + 0.5 : real - model + 0.5);
    if (gap > stats->max_model_error)
        stats->max_model_error = gap;
    if (gap > MODEL_TOLERANCE)
        stats->model_errors++;
}

/* Parses "FEN;result"; false on a malformed line. */
static bool parse_line(char *line, Position *pos, float *result)
{
    char *semi = strrchr(line, ';');
    if (!semi)
        return false;
    *semi = '\0';
    char *end;
    double r = strtod(semi + 1, &end);
    XqError err;
    if (end == semi + 1 || r < 0 || r > 1 || !pos_from_fen(pos, line, &err))
        return false;
    *result = (float)r;
    return true;
}

/* Loads labelled positions, makes them quiet and measures their coefficients. */
bool tune_set_load(TuneSet *set, const char *path, const EvalParams *params, long max_positions,
                   TuneLoadStats *stats)
{
    FILE *f = fopen(path, "r");
    Position *pos = malloc(sizeof *pos);
    if (!f || !pos) {
        if (f)
            fclose(f);
        free(pos);
        return false;
    }
    char line[LINE_LEN];
    bool ok = true;
    while (fgets(line, sizeof line, f) && (max_positions <= 0 || stats->kept < max_positions)) {
        stats->lines++;
        float result;
        if (!parse_line(line, pos, &result)) {
            stats->bad++;
            continue;
        }
        if (pos->in_check) {
            stats->in_check++;
            continue;
        }
        Move pv[QS_MAX_PLY];
        int pv_len;
        qsearch(pos, params, -QS_INF, QS_INF, 0, pv, &pv_len);
        for (int i = 0; i < pv_len; i++)
            pos_make(pos, pv[i]);
        if (pos->in_check) {
            stats->leaf_in_check++;
            continue;
        }
        if (!reserve(set, EVAL_PARAM_INTS)) {
            ok = false;
            break;
        }
        add_entry(set, pos, params, result);
        check_model(set, pos, params, stats);
        stats->kept++;
        stats->resolved += pv_len > 0;
    }
    fclose(f);
    free(pos);
    return ok;
}

/* Frees a training set. */
void tune_set_free(TuneSet *set)
{
    free(set->entry);
    free(set->idx);
    free(set->coef);
    memset(set, 0, sizeof *set);
}
