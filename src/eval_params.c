/* eval_params.c - the shipped evaluation weights and a loader for tuning. */
#include "eval_params.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* clang-format off */
const EvalParams EVAL_DEFAULTS = {
    .material = {
        [KING] = { 0, 0 }, [ADVISOR] = { 200, 190 }, [ELEPHANT] = { 200, 190 }, [HORSE] = { 400, 460 },
        [ROOK] = { 900, 960 }, [CANNON] = { 460, 420 }, [PAWN] = { 60, 90 },
    },
    .pst = {
        [KING] = {
            { { 0 }, { 0, 0, 0, -10, -10 }, { 0, 0, 0, -30, -30 }, },
            { { 0, 0, 0, 0, 5 }, { 0 }, { 0, 0, 0, -10, -10 }, },
        },
        [ADVISOR] = {
            { { 0 }, { 0, 0, 0, 0, 10 }, { 0, 0, 0, -5, 0 }, },
            { { 0 }, { 0, 0, 0, 0, 10 }, { 0, 0, 0, -5, 0 }, },
        },
        [ELEPHANT] = {
            { { 0 }, { 0 }, { -5, 0, 0, 0, 10 }, { 0 },
              { 0, 0, -5, 0, 0 }, },
            { { 0 }, { 0 }, { -5, 0, 0, 0, 10 }, { 0 },
              { 0, 0, -5, 0, 0 }, },
        },
        [HORSE] = {
            { { -20, -10, -5, -10, -20 }, { -10, -5, 0, -10, -20 }, { -5, 0, 5, 5, 0 }, { -5, 5, 10, 10, 5 },
              { 0, 10, 15, 15, 10 }, { 0, 15, 20, 20, 15 }, { 5, 20, 25, 30, 20 }, { 5, 20, 30, 35, 30 },
              { 0, 15, 25, 30, 10 }, { -10, 0, 5, 10, 0 }, },
            { { -20, -10, -5, -5, -10 }, { -10, -5, 0, 0, -5 }, { -5, 0, 5, 5, 5 }, { 0, 5, 10, 10, 10 },
              { 0, 10, 15, 15, 15 }, { 0, 10, 20, 20, 20 }, { 0, 15, 20, 25, 25 }, { 0, 15, 25, 30, 30 },
              { -5, 10, 20, 25, 20 }, { -10, 0, 5, 10, 5 }, },
        },
        [ROOK] = {
            { { -10, 0, -5, 5, 0 }, { -5, 5, 0, 5, 0 }, { -5, 5, 0, 5, 5 }, { 0, 5, 5, 10, 10 },
              { 0, 10, 10, 15, 15 }, { 5, 10, 10, 15, 15 }, { 5, 15, 15, 20, 20 }, { 5, 10, 10, 20, 20 },
              { 5, 10, 10, 20, 20 }, { 0, 5, 5, 15, 10 }, },
            { { 0, 0, 0, 5, 5 }, { 0, 0, 0, 5, 5 }, { 0, 0, 0, 5, 5 }, { 0, 5, 5, 5, 5 },
              { 0, 5, 5, 10, 10 }, { 5, 5, 10, 10, 10 }, { 5, 10, 10, 15, 15 }, { 5, 10, 10, 15, 15 },
              { 5, 10, 10, 15, 15 }, { 0, 5, 5, 10, 10 }, },
        },
        [CANNON] = {
            { { 0, 0, 5, 5, 5 }, { 0, 5, 5, 0, 5 }, { 0, 5, 0, 0, 15 }, { 0, 0, 0, 0, 5 },
              { 0, 0, 0, 0, 5 }, { 0, 0, 0, 0, 5 }, { 0, 0, 0, 0, 5 }, { 5, 5, 0, -5, 5 },
              { 5, 5, 0, -5, 0 }, { 10, 5, 0, -10, -10 }, },
            { { 0 }, { 0 }, { 0, 0, 0, 0, 5 }, { 0, 0, 0, 0, 5 },
              { 0, 0, 0, 0, 5 }, { 0, 0, 0, 0, 5 }, { 0, 0, 0, 0, 5 }, { 0, 0, 0, 0, 5 }, },
        },
        [PAWN] = {
            { { 0 }, { 0 }, { 0 }, { 0, 0, 0, 0, 5 },
              { 0, 0, 5, 0, 10 }, { 30, 0, 40, 45, 50 }, { 35, 40, 50, 60, 70 }, { 35, 45, 60, 75, 85 },
              { 30, 40, 55, 70, 80 }, { 0, 5, 10, 15, 20 }, },
            { { 0 }, { 0 }, { 0 }, { 0 },
              { 0, 0, 5, 0, 5 }, { 40, 0, 50, 50, 55 }, { 50, 55, 65, 75, 80 }, { 55, 65, 80, 95, 100 },
              { 50, 60, 75, 90, 95 }, { 5, 10, 20, 30, 40 }, },
        },
    },
    .phase_weight = { [KING] = 0, [ADVISOR] = 0, [ELEPHANT] = 0, [HORSE] = 3, [ROOK] = 6, [CANNON] = 3, [PAWN] = 0 },
    .rook_mobility = { 4, 4 },
    .horse_mobility = { 8, 10 },
    .cannon_mobility = { 2, 2 },
    .horse_trapped = { -30, -20 },
    .empty_cannon = { 80, 40 },
    .cannon_screen_threat = { 15, 5 },
    .palace_attacker = { 6, 4 },
    .missing_advisor = { 4, 6 },
    .missing_elephant = { 3, 3 },
    .linked_pawns = { 15, 25 },
    .king_off_file = { -15, 0 },
    .tempo = 10,
    .no_mating_material_div = 8,
};
/* clang-format on */

#define XQ_FIELD(field) { #field, offsetof(EvalParams, field) / sizeof(int), sizeof EVAL_DEFAULTS.field / sizeof(int) }
const EvalParamField EVAL_PARAM_FIELD[EVAL_PARAM_FIELDS] = {
    XQ_FIELD(material), XQ_FIELD(pst), XQ_FIELD(phase_weight), XQ_FIELD(rook_mobility), XQ_FIELD(horse_mobility),
    XQ_FIELD(cannon_mobility), XQ_FIELD(horse_trapped), XQ_FIELD(empty_cannon), XQ_FIELD(cannon_screen_threat),
    XQ_FIELD(palace_attacker), XQ_FIELD(missing_advisor), XQ_FIELD(missing_elephant), XQ_FIELD(linked_pawns),
    XQ_FIELD(king_off_file), XQ_FIELD(tempo), XQ_FIELD(no_mating_material_div),
};
#undef XQ_FIELD

/* Address and length of a named weight array, or NULL. */
static int *param_slot(EvalParams *p, const char *name, size_t *len)
{
    for (int i = 0; i < EVAL_PARAM_FIELDS; i++)
        if (strcmp(name, EVAL_PARAM_FIELD[i].name) == 0) {
            *len = EVAL_PARAM_FIELD[i].len;
            return (int *)p + EVAL_PARAM_FIELD[i].offset;
        }
    return NULL;
}

/* Reads lines "name flat_index value" ('#' comments) into a copy, committing only if all parse. */
bool eval_params_load(EvalParams *p, const char *path, XqError *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open %s", path);
        return false;
    }
    EvalParams tmp = *p;
    char line[256], name[64];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        long index, value;
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
            continue;
        size_t len;
        int *slot;
        if (sscanf(line, "%63s %ld %ld", name, &index, &value) != 3 || !(slot = param_slot(&tmp, name, &len))
            || index < 0 || (size_t)index >= len || value < -30000 || value > 30000) {
            snprintf(err->msg, sizeof err->msg, "%s:%d: expected 'name index value' with a known name", path, lineno);
            fclose(f);
            return false;
        }
        slot[index] = (int)value;
    }
    fclose(f);
    if (tmp.no_mating_material_div < 1) {
        snprintf(err->msg, sizeof err->msg, "%s: no_mating_material_div must be >= 1", path);
        return false;
    }
    *p = tmp;
    return true;
}
