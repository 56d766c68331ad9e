/* eval_params.c - the shipped evaluation weights and a loader for tuning. */
#include "eval_params.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* clang-format off */
const EvalParams EVAL_DEFAULTS = {
    .material = {
        [KING] = { 0, 0 }, [ADVISOR] = { 157, 72 }, [ELEPHANT] = { 211, 74 }, [HORSE] = { 389, 416 },
        [ROOK] = { 1146, 1223 }, [CANNON] = { 627, 421 }, [PAWN] = { 109, 103 },
    },
    .pst = {
        [KING] = {
            { { 0, 0, 0, 11, 12 }, { 0, 0, 0, -16, -18 }, { 0, 0, 0, -36, -33 }, },
            { { 0, 0, 0, 13, 3 }, { 0, 0, 0, 6, 4 }, { 0, 0, 0, -24, -17 }, },
        },
        [ADVISOR] = {
            { { 0, 0, 0, -14, 0 }, { 0, 0, 0, 0, 38 }, { 0, 0, 0, -31, 0 }, },
            { { 0, 0, 0, -18, 0 }, { 0, 0, 0, 0, -12 }, { 0, 0, 0, -16, 0 }, },
        },
        [ELEPHANT] = {
            { { 0, 0, -2, 0, 0 }, { 0 }, { -38, 0, 0, 0, 42 }, { 0 },
              { 0, 0, -34, 0, 0 }, },
            { { 0, 0, -19, 0, 0 }, { 0 }, { -25, 0, 0, 0, -8 }, { 0 },
              { 0, 0, -24, 0, 0 }, },
        },
        [HORSE] = {
            { { -21, -49, -5, -15, -20 }, { -16, -8, -14, -11, -26 }, { 3, 0, -2, 8, -3 }, { -7, 2, 9, 2, 19 },
              { 1, 14, 24, 25, 13 }, { -1, 18, 16, 33, 19 }, { 1, 32, 22, 44, 16 }, { 8, 18, 27, 39, 35 },
              { 0, 15, 36, 30, 10 }, { -9, -1, 5, 11, 0 }, },
            { { -20, -21, -5, -8, -10 }, { -13, -8, -8, -10, -17 }, { -8, -2, -13, 7, 3 }, { -2, 1, 10, 5, 18 },
              { 0, 12, 25, 20, 19 }, { -1, 9, 16, 19, 21 }, { -1, 26, 17, 27, 19 }, { 5, 13, 15, 30, 37 },
              { -5, 14, 32, 23, 20 }, { -10, -1, 6, 11, 6 }, },
        },
        [ROOK] = {
            { { -41, 7, -8, 8, 0 }, { -22, -8, -8, -13, 0 }, { -10, -6, -1, -3, 4 }, { 5, 14, 13, 22, 19 },
              { 3, 13, 19, 24, 21 }, { 6, 8, 14, 5, 20 }, { 19, 11, 42, 25, 38 }, { 8, -8, 10, 24, 23 },
              { 5, 9, 11, 21, 21 }, { 1, -3, 4, 14, 12 }, },
            { { -16, -8, -3, 4, 5 }, { -2, -5, -3, 2, 4 }, { -3, -7, -2, 1, 7 }, { 7, 11, 12, 14, 15 },
              { 4, 6, 10, 15, 17 }, { 8, -2, 10, 1, 16 }, { 22, 9, 19, 22, 37 }, { 7, -4, 8, 21, 18 },
              { 6, 2, 8, 16, 18 }, { -1, -6, 2, 5, 13 }, },
        },
        [CANNON] = {
            { { -1, -6, 4, 12, 6 }, { -1, 7, 10, 1, 10 }, { 6, 32, 23, 6, 35 }, { 1, -5, 4, -2, 1 },
              { 2, 0, 7, -5, 10 }, { -3, -6, -6, -6, 10 }, { -21, 2, -10, -12, -1 }, { 1, 1, -5, -11, 2 },
              { 4, -4, -10, -14, 0 }, { 20, 10, -4, -9, -10 }, },
            { { 0, -4, 0, 9, 3 }, { 1, 0, 2, 6, 6 }, { 2, 9, 10, 17, 13 }, { 0, -2, 2, -1, 1 },
              { 1, 2, 4, 3, 6 }, { -4, -5, -3, -5, -4 }, { -11, -1, -5, -3, -1 }, { -8, -5, -4, -3, 1 },
              { -2, -4, -6, -6, 0 }, { 4, 1, -3, 2, 0 }, },
        },
        [PAWN] = {
            { { 0 }, { 0 }, { 0 }, { -13, 0, -25, 0, 18 },
              { -27, 0, -4, 0, 9 }, { 29, 5, 65, 59, 62 }, { 29, 45, 71, 68, 73 }, { 34, 43, 60, 78, 85 },
              { 29, 39, 56, 76, 81 }, { 0, 5, 12, 18, 19 }, },
            { { 0 }, { 0 }, { 0 }, { -11, 0, -17, 0, 18 },
              { -6, 0, -3, 0, 16 }, { 38, 3, 54, 65, 70 }, { 46, 63, 85, 90, 81 }, { 54, 63, 76, 98, 93 },
              { 48, 53, 66, 75, 99 }, { 3, 5, 21, 36, 37 }, },
        },
    },
    .phase_weight = { [KING] = 0, [ADVISOR] = 0, [ELEPHANT] = 0, [HORSE] = 3, [ROOK] = 6, [CANNON] = 3, [PAWN] = 0 },
    .rook_mobility = { 8, 11 },
    .horse_mobility = { 31, 15 },
    .cannon_mobility = { 1, 1 },
    .horse_trapped = { 32, -65 },
    .empty_cannon = { 211, -10 },
    .cannon_screen_threat = { 69, 99 },
    .palace_attacker = { 25, 31 },
    .missing_advisor = { 63, -45 },
    .missing_elephant = { 42, -15 },
    .linked_pawns = { 124, -12 },
    .king_off_file = { -135, 8 },
    .rook_open_file = { 66, -5 },
    .bottom_cannon = { -86, 23 },
    .center_horse_pinned = { 145, 213 },
    .full_defence = { 15, -18 },
    .crossed_pawn_missing_advisor = { 78, 30 },
    .wing_attackers = { 7, 13 },
    .tempo = 41,
    .no_mating_material_div = 8,
};
/* clang-format on */

#define XQ_FIELD(field) { #field, offsetof(EvalParams, field) / sizeof(int), sizeof EVAL_DEFAULTS.field / sizeof(int) }
const EvalParamField EVAL_PARAM_FIELD[EVAL_PARAM_FIELDS] = {
    XQ_FIELD(material), XQ_FIELD(pst), XQ_FIELD(phase_weight), XQ_FIELD(rook_mobility), XQ_FIELD(horse_mobility),
    XQ_FIELD(cannon_mobility), XQ_FIELD(horse_trapped), XQ_FIELD(empty_cannon), XQ_FIELD(cannon_screen_threat),
    XQ_FIELD(palace_attacker), XQ_FIELD(missing_advisor), XQ_FIELD(missing_elephant), XQ_FIELD(linked_pawns),
    XQ_FIELD(king_off_file), XQ_FIELD(rook_open_file), XQ_FIELD(bottom_cannon), XQ_FIELD(center_horse_pinned),
    XQ_FIELD(full_defence), XQ_FIELD(crossed_pawn_missing_advisor), XQ_FIELD(wing_attackers),
    XQ_FIELD(tempo), XQ_FIELD(no_mating_material_div),
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
