/* tune_print.c - params files and the EVAL_DEFAULTS initialiser text. */
#include "tune_print.h"

#include <stdlib.h>
#include <string.h>

static const char *const TYPE_NAME[PIECE_TYPES] = { "KING", "ADVISOR", "ELEPHANT", "HORSE",
                                                    "ROOK", "CANNON",  "PAWN" };
static const char DEFAULTS_HEAD[] = "const EvalParams EVAL_DEFAULTS = {";
static const char DEFAULTS_TAIL[] = "\n};\n";
enum { RANKS_PER_LINE = 4, TYPES_PER_LINE = 4, MAX_C_FILE = 1 << 20 };

/* Writes every weight as "name index value". */
void tune_write_params(FILE *out, const EvalParams *p)
{
    const int *w = (const int *)p;
    for (int f = 0; f < EVAL_PARAM_FIELDS; f++)
        for (size_t i = 0; i < EVAL_PARAM_FIELD[f].len; i++)
            fprintf(out, "%s %zu %d\n", EVAL_PARAM_FIELD[f].name, i, w[EVAL_PARAM_FIELD[f].offset + i]);
}

/* Prints one rank of a table, "{ 0 }" when all zero. */
static void print_rank(FILE *out, const int *row)
{
    bool zero = true;
    for (int f = 0; f < HALF_FILES; f++)
        zero = zero && row[f] == 0;
    if (zero) {
        fputs("{ 0 }", out);
        return;
    }
    fputs("{ ", out);
    for (int f = 0; f < HALF_FILES; f++)
        fprintf(out, "%d%s", row[f], f + 1 < HALF_FILES ? ", " : " }");
}

/* Prints one phase of a piece-square table, leaving out trailing all-zero ranks. */
static void print_table(FILE *out, const int (*t)[HALF_FILES])
{
    int last = RANKS - 1;
    while (last > 0) {
        bool zero = true;
        for (int f = 0; f < HALF_FILES; f++)
            zero = zero && t[last][f] == 0;
        if (!zero)
            break;
        last--;
    }
    fputs("            {", out);
    for (int r = 0; r <= last; r++) {
        fputs(r % RANKS_PER_LINE == 0 && r > 0 ? "\n              " : " ", out);
        print_rank(out, t[r]);
        fputs(",", out);
    }
    fputs(" },\n", out);
}

/* Prints `const EvalParams EVAL_DEFAULTS = { ... };`. */
void tune_print_c(FILE *out, const EvalParams *p)
{
    fprintf(out, "%s\n    .material = {\n", DEFAULTS_HEAD);
    for (int t = 0; t < PIECE_TYPES; t++)
        fprintf(out, "%s[%s] = { %d, %d },%s", t % TYPES_PER_LINE == 0 ? "        " : " ", TYPE_NAME[t],
                p->material[t][0], p->material[t][1],
                (t + 1) % TYPES_PER_LINE == 0 || t + 1 == PIECE_TYPES ? "\n" : "");
    fputs("    },\n    .pst = {\n", out);
    for (int t = 0; t < PIECE_TYPES; t++) {
        fprintf(out, "        [%s] = {\n", TYPE_NAME[t]);
        for (int ph = 0; ph < 2; ph++)
            print_table(out, (const int(*)[HALF_FILES])p->pst[t][ph]);
        fputs("        },\n", out);
    }
    fputs("    },\n    .phase_weight = {", out);
    for (int t = 0; t < PIECE_TYPES; t++)
        fprintf(out, " [%s] = %d%s", TYPE_NAME[t], p->phase_weight[t], t + 1 < PIECE_TYPES ? "," : " },\n");
    const int *w = (const int *)p;
    for (int f = 0; f < EVAL_PARAM_FIELDS; f++) {
        const EvalParamField *fd = &EVAL_PARAM_FIELD[f];
        if (!strcmp(fd->name, "material") || !strcmp(fd->name, "pst") || !strcmp(fd->name, "phase_weight"))
            continue;
        fprintf(out, "    .%s = ", fd->name);
        if (fd->len == 1) {
            fprintf(out, "%d,\n", w[fd->offset]);
            continue;
        }
        fputs("{ ", out);
        for (size_t i = 0; i < fd->len; i++)
            fprintf(out, "%d%s", w[fd->offset + i], i + 1 < fd->len ? ", " : " },\n");
    }
    fputs("};\n", out);
}

/* Replaces the EVAL_DEFAULTS initialiser in a C file. */
bool tune_patch_c(const char *path, const EvalParams *p)
{
    FILE *f = fopen(path, "r");
    char *text = malloc(MAX_C_FILE);
    size_t n = f && text ? fread(text, 1, MAX_C_FILE - 1, f) : 0;
    if (f)
        fclose(f);
    if (!n) {
        fprintf(stderr, "cannot read %s\n", path);
        free(text);
        return false;
    }
    text[n] = '\0';
    char *head = strstr(text, DEFAULTS_HEAD);
    char *tail = head ? strstr(head, DEFAULTS_TAIL) : NULL;
    if (!tail || !(f = fopen(path, "w"))) {
        fprintf(stderr, "%s: no EVAL_DEFAULTS initialiser found, or cannot write\n", path);
        free(text);
        return false;
    }
    fwrite(text, 1, (size_t)(head - text), f);
    tune_print_c(f, p);
    fputs(tail + strlen(DEFAULTS_TAIL), f);
    free(text);
    return fclose(f) == 0;
}
