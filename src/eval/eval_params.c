/* eval_params.c - the shipped evaluation weights and a loader for tuning. */
#include "eval_params.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* clang-format off */
const EvalParams EVAL_DEFAULTS = {
    .material = {
        [KING] = { 0, 0 }, [ADVISOR] = { 454, 61 }, [ELEPHANT] = { 159, 66 }, [HORSE] = { 356, 429 },
        [ROOK] = { 1112, 1122 }, [CANNON] = { 511, 393 }, [PAWN] = { 117, 129 },
    },
    .pst = {
        [KING] = {
            { { 0, 0, 0, 22, 16 }, { 0, 0, 0, -19, -24 }, { 0, 0, 0, -39, -36 }, },
            { { 0, 0, 0, 14, 10 }, { 0, 0, 0, 5, 6 }, { 0, 0, 0, -31, -20 }, },
        },
        [ADVISOR] = {
            { { 0, 0, 0, -12, 0 }, { 0, 0, 0, 0, 47 }, { 0, 0, 0, -46, 0 }, },
            { { 0, 0, 0, -20, 0 }, { 0, 0, 0, 0, -14 }, { 0, 0, 0, -16, 0 }, },
        },
        [ELEPHANT] = {
            { { 0, 0, 1, 0, 0 }, { 0 }, { -52, 0, 0, 0, 53 }, { 0 },
              { 0, 0, -43, 0, 0 }, },
            { { 0, 0, -21, 0, 0 }, { 0 }, { -27, 0, 0, 0, -10 }, { 0 },
              { 0, 0, -24, 0, 0 }, },
        },
        [HORSE] = {
            { { -21, -60, -5, -17, -20 }, { -22, -9, -25, -13, -22 }, { 2, 0, -3, 10, -5 }, { -7, -2, 7, -3, 25 },
              { 2, 17, 32, 26, 15 }, { -1, 19, 12, 39, 24 }, { -1, 41, 20, 53, 14 }, { 11, 16, 24, 41, 39 },
              { 0, 14, 43, 30, 10 }, { -8, -1, 5, 11, 0 }, },
            { { -20, -24, -5, -8, -10 }, { -16, -9, -13, -16, -22 }, { -9, -3, -25, 10, 2 }, { -2, -4, 9, 1, 22 },
              { 0, 14, 33, 20, 21 }, { -1, 8, 11, 21, 25 }, { 0, 33, 16, 29, 16 }, { 9, 10, 10, 30, 42 },
              { -4, 17, 39, 21, 20 }, { -9, 0, 7, 12, 7 }, },
        },
        [ROOK] = {
            { { -47, 3, -11, 9, 0 }, { -34, -18, -17, -19, -1 }, { -15, -13, -2, -8, 4 }, { 8, 14, 19, 33, 25 },
              { 6, 15, 26, 32, 24 }, { 5, 7, 16, 1, 25 }, { 24, 9, 57, 28, 46 }, { 11, -18, 11, 23, 24 },
              { 4, 9, 12, 21, 21 }, { 1, -7, 4, 12, 13 }, },
            { { -21, -15, -6, 2, 5 }, { -4, -8, -6, 0, 3 }, { -6, -11, -4, -2, 8 }, { 11, 15, 16, 20, 21 },
              { 8, 8, 13, 17, 20 }, { 8, -5, 10, -4, 19 }, { 28, 14, 26, 19, 42 }, { 9, -9, 8, 22, 20 },
              { 6, -1, 6, 14, 19 }, { -2, -12, 0, 1, 15 }, },
        },
        [CANNON] = {
            { { -1, -9, 4, 17, 8 }, { -1, 8, 13, 0, 13 }, { 10, 36, 40, 11, 47 }, { 2, -7, 8, -4, -1 },
              { 4, 3, 11, -7, 13 }, { -5, -11, -10, -11, 12 }, { -31, 2, -18, -19, -4 }, { -1, -6, -9, -16, -2 },
              { 2, -13, -16, -21, 0 }, { 28, 17, -6, -10, -10 }, },
            { { 0, -5, 1, 15, 7 }, { 2, -1, 2, 9, 10 }, { 3, 10, 16, 25, 20 }, { 0, -3, 3, -3, -1 },
              { 1, 2, 6, 4, 5 }, { -5, -10, -4, -7, -10 }, { -14, -4, -8, -4, -5 }, { -10, -8, -7, -6, -1 },
              { -2, -6, -10, -11, 0 }, { 7, 3, -4, 2, 0 }, },
        },
        [PAWN] = {
            { { 0 }, { 0 }, { 0 }, { -19, 0, -35, 0, 26 },
              { -37, 0, -9, 0, 8 }, { 29, 11, 77, 68, 69 }, { 25, 47, 83, 74, 75 }, { 31, 41, 58, 80, 85 },
              { 28, 39, 57, 82, 82 }, { 0, 5, 13, 19, 18 }, },
            { { 0 }, { 0 }, { 0 }, { -15, 0, -22, 0, 26 },
              { -6, 0, -4, 0, 22 }, { 38, 7, 56, 76, 78 }, { 45, 68, 95, 99, 82 }, { 50, 61, 71, 97, 87 },
              { 45, 48, 56, 67, 100 }, { 2, 2, 20, 34, 32 }, },
        },
    },
    .phase_weight = { [KING] = 0, [ADVISOR] = 0, [ELEPHANT] = 0, [HORSE] = 3, [ROOK] = 6, [CANNON] = 3, [PAWN] = 0 },
    .rook_mobility_mg = { -4, 18, 19, 27, 34, 52, 76, 69, 70, 72, 73, 97, 97, 95, 123, 111, 107, 110 },
    .rook_mobility_eg = { -40, -116, -116, -72, 22, 48, 74, 123, 143, 150, 157, 145, 151, 166, 169, 193, 168, 176 },
    .horse_mobility_mg = { 12, 44, 67, 99, 126, 150, 171, 218, 222 },
    .horse_mobility_eg = { -83, -8, 6, 35, 66, 90, 104, 105, 112 },
    .cannon_mobility_mg = { -33, -24, -25, -22, -15, -6, -17, -15, -5, -15, -17, -9, -8, -24, -11, -7, -1, -38 },
    .cannon_mobility_eg = { -71, -50, -31, -7, -1, 3, 6, -2, -1, 20, 18, 14, 14, 32, 24, 28, 32, 31 },
    .empty_cannon = { 178, -13 },
    .cannon_screen_threat = { 73, 100 },
    .palace_attacker = { 18, 26 },
    .missing_advisor = { 63, -42 },
    .missing_elephant = { 31, -18 },
    .linked_pawns = { 3, 0 },
    .king_off_file = { -123, 13 },
    .rook_open_file = { 60, -21 },
    .bottom_cannon = { -49, 0 },
    .center_horse_pinned = { 67, 292 },
    .full_defence = { -41, 3 },
    .crossed_pawn_missing_advisor = { 69, 14 },
    .attacker_vs_defender_mg = { 57, -29, 13, 18, 74, -1, 15, -16 },
    .attacker_vs_defender_eg = { 75, -6, 18, -29, 42, -16, -17, -2 },
    .wing_attackers = { 6, 26 },
    .tempo = 50,
    .no_mating_material_div = 8,
};
/* clang-format on */

#define XQ_FIELD(field) { #field, offsetof(EvalParams, field) / sizeof(int), sizeof EVAL_DEFAULTS.field / sizeof(int) }
const EvalParamField EVAL_PARAM_FIELD[EVAL_PARAM_FIELDS] = {
    XQ_FIELD(material), XQ_FIELD(pst), XQ_FIELD(phase_weight), XQ_FIELD(rook_mobility_mg),
    XQ_FIELD(rook_mobility_eg), XQ_FIELD(horse_mobility_mg), XQ_FIELD(horse_mobility_eg), XQ_FIELD(cannon_mobility_mg),
    XQ_FIELD(cannon_mobility_eg), XQ_FIELD(empty_cannon), XQ_FIELD(cannon_screen_threat),
    XQ_FIELD(palace_attacker), XQ_FIELD(missing_advisor), XQ_FIELD(missing_elephant), XQ_FIELD(linked_pawns),
    XQ_FIELD(king_off_file), XQ_FIELD(rook_open_file), XQ_FIELD(bottom_cannon), XQ_FIELD(center_horse_pinned),
    XQ_FIELD(full_defence), XQ_FIELD(crossed_pawn_missing_advisor), XQ_FIELD(attacker_vs_defender_mg),
    XQ_FIELD(attacker_vs_defender_eg), XQ_FIELD(wing_attackers),
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
