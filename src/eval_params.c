/* eval_params.c - the shipped evaluation weights and a loader for tuning. */
#include "eval_params.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* clang-format off */
const EvalParams EVAL_DEFAULTS = {
    .material = {
        [KING] = { 0, 0 }, [ADVISOR] = { 199, 157 }, [ELEPHANT] = { 190, 138 }, [HORSE] = { 396, 443 },
        [ROOK] = { 908, 974 }, [CANNON] = { 471, 419 }, [PAWN] = { 80, 128 },
    },
    .pst = {
        [KING] = {
            { { 0, 0, 0, 0, 6 }, { 0, 0, 0, -14, -11 }, { 0, 0, 0, -31, -30 }, },
            { { 0, 0, 0, 7, -8 }, { 0, 0, 0, 3, 6 }, { 0, 0, 0, -13, -10 }, },
        },
        [ADVISOR] = {
            { { 0, 0, 0, -4, 0 }, { 0, 0, 0, 0, 15 }, { 0, 0, 0, -7, 0 }, },
            { { 0, 0, 0, -13, 0 }, { 0, 0, 0, 0, -8 }, { 0, 0, 0, -8, 0 }, },
        },
        [ELEPHANT] = {
            { { 0, 0, -12, 0, 0 }, { 0 }, { -1, 0, 0, 0, 17 }, { 0 },
              { 0, 0, -13, 0, 0 }, },
            { { 0, 0, -17, 0, 0 }, { 0 }, { -6, 0, 0, 0, -10 }, { 0 },
              { 0, 0, -19, 0, 0 }, },
        },
        [HORSE] = {
            { { -20, -21, -5, -9, -20 }, { -12, -6, -2, -11, -30 }, { -6, 0, 10, 6, 0 }, { -6, 6, 9, 9, 7 },
              { 0, 11, 16, 19, 10 }, { 0, 16, 22, 22, 15 }, { 3, 21, 28, 32, 20 }, { 5, 20, 31, 36, 31 },
              { 0, 15, 25, 30, 10 }, { -10, 0, 5, 10, 0 }, },
            { { -20, -12, -5, -5, -10 }, { -11, -6, -2, -1, -10 }, { -8, -1, 6, 6, 4 }, { -1, 5, 10, 9, 10 },
              { 0, 10, 15, 17, 15 }, { 0, 9, 22, 18, 17 }, { -2, 16, 23, 22, 25 }, { 0, 15, 24, 30, 31 },
              { -5, 11, 19, 25, 20 }, { -10, -1, 6, 10, 5 }, },
        },
        [ROOK] = {
            { { -19, 3, -4, 5, 0 }, { -2, 7, 3, 1, 0 }, { -6, 5, 1, 2, 4 }, { 1, 7, 5, 8, 10 },
              { 0, 10, 11, 12, 16 }, { 5, 11, 12, 15, 16 }, { 7, 18, 12, 22, 22 }, { 5, 8, 10, 21, 20 },
              { 5, 9, 11, 22, 20 }, { 1, 3, 6, 16, 11 }, },
            { { -3, -1, 0, 5, 5 }, { 0, 0, 1, 4, 5 }, { 0, -1, 0, 3, 5 }, { 1, 6, 6, 5, 6 },
              { 1, 4, 6, 9, 11 }, { 6, 4, 11, 11, 12 }, { 8, 12, 9, 21, 20 }, { 5, 8, 10, 16, 15 },
              { 5, 7, 10, 16, 16 }, { 1, 3, 6, 10, 11 }, },
        },
        [CANNON] = {
            { { 0, -1, 4, 5, 5 }, { -1, 6, 6, 1, 5 }, { -2, 10, 0, 4, 19 }, { 0, 0, -1, 1, 4 },
              { 1, -1, 2, 0, 7 }, { -1, 1, -2, 0, 6 }, { -6, 2, 1, 0, 5 }, { 4, 7, -1, -5, 5 },
              { 5, 3, -1, -5, 0 }, { 14, 4, -1, -10, -10 }, },
            { { 0, -1, -1, 1, 0 }, { 0, 0, 1, 2, 1 }, { 0, 3, 0, 5, 5 }, { 0, -1, 0, 1, 4 },
              { 0, 0, 1, 1, 6 }, { -1, 0, -1, -1, 3 }, { -4, 1, 0, 2, 2 }, { -3, 0, -1, 0, 4 },
              { -1, -1, -1, 1, 0 }, { 1, 1, -1, 1, 0 }, },
        },
        [PAWN] = {
            { { 0 }, { 0 }, { 0 }, { -2, 0, -9, 0, 11 },
              { -5, 0, 12, 0, 10 }, { 30, -1, 43, 46, 51 }, { 37, 42, 55, 59, 71 }, { 36, 46, 61, 76, 85 },
              { 30, 40, 55, 71, 80 }, { 0, 5, 11, 16, 20 }, },
            { { 0 }, { 0 }, { 0 }, { -5, 0, 0, 0, 5 },
              { 3, 0, 4, 0, 8 }, { 40, -1, 49, 52, 58 }, { 52, 57, 69, 72, 79 }, { 57, 67, 83, 98, 101 },
              { 51, 60, 81, 93, 97 }, { 4, 8, 21, 33, 42 }, },
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
