/*
 * nnue_speed.c - measures the network's evaluation speed: evaluations per
 * second from scratch (a full refresh of both accumulators), incremental
 * (one move made and the accumulators updated, as the search does) and after
 * a king move (made from a computed position and taken back: a refresh of
 * the mover's view through the cache per king square where the feature set
 * has king buckets), for each kernel set this CPU runs. Positions come from
 * seeded random games, so runs are repeatable; the speed is the median of
 * several passes.
 *
 *   nnue_speed [-net FILE | -random SET:WIDTH] [-positions N] [-passes P]
 * Without -net it uses the built-in net (or, if the build has none, a seeded random one of version 2's
 * shape); -random 2:512 times a seeded random net of feature set 2 and width 512 (speed does not depend on
 * the weights).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "eval/nnue/nnue.h"
#include "base/platform.h"

enum { DEFAULT_POSITIONS = 20000, DEFAULT_PASSES = 5, MAX_PASSES = 99, GAME_PLIES = 100 };

/* xorshift64* step. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* A seeded random net (only its speed matters). */
static Network *random_net(const NnueShape *shape)
{
    Network *net = nnue_net_new(shape);
    uint64_t s = 1;
    if (!net)
        return NULL;
    const size_t h = (size_t)net->shape.hidden;
    for (size_t i = 0; i < (size_t)net->shape.inputs * h; i++)
        net->ft_weight[i] = (int16_t)(rnd(&s) % 81) - 40;
    for (size_t i = 0; i < NNUE_OUTPUT_BUCKETS * 2 * h; i++)
        net->out_weight[i] = (int16_t)(rnd(&s) % 255) - NNUE_OUT_WEIGHT_MAX;
    snprintf(net->desc, sizeof net->desc, "random");
    return net;
}

/* Moves of seeded random games from the start position, n in all (restarting games as needed). */
static Move *random_moves(int n, int *game_len)
{
    Move *moves = malloc(sizeof *moves * (size_t)n);
    Position *pos = malloc(sizeof *pos);
    uint64_t s = 7;
    XqError err;
    if (!moves || !pos) {
        free(moves);
        free(pos);
        return NULL;
    }
    pos_from_fen(pos, START_FEN, &err);
    for (int i = 0, ply = 0; i < n; i++, ply++) {
        Move list[MAX_MOVES];
        int k = gen_legal(pos, list);
        if (k == 0 || ply == GAME_PLIES) {
            pos_from_fen(pos, START_FEN, &err);
            ply = 0;
            k = gen_legal(pos, list);
        }
        moves[i] = list[rnd(&s) % (uint64_t)k];
        game_len[i] = ply;
        pos_make(pos, moves[i]);
    }
    free(pos);
    return moves;
}

/* Compares two doubles for qsort. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum Mode { MODE_INCREMENTAL, MODE_FRESH, MODE_KING, MODES };
static const char *const MODE_NAME[MODES] = { "incremental", "full refresh", "king move" };

/* Makes a legal king move of the side to move (the first generated), evaluates it incrementally and takes it
 * back; returns 1 if there was one (its score added to *checksum), else 0. */
static int king_move_eval(const Network *net, NnueStack *stack, Position *pos, int64_t *checksum)
{
    Move list[MAX_MOVES];
    int n = gen_legal(pos, list);
    for (int i = 0; i < n; i++)
        if (piece_type(pos->board[move_from(list[i])]) == KING) {
            nnue_push(stack, pos, list[i]);
            pos_make(pos, list[i]);
            *checksum += nnue_evaluate(net, stack, pos);
            pos_unmake(pos);
            nnue_pop(stack);
            return 1;
        }
    return 0;
}

/* Replays the moves, evaluating after each one by the mode; returns evaluations/s (king moves: of those). */
static double run_pass(const Network *net, const NnueKernels *k, const Move *moves, const int *ply, int n,
                       enum Mode mode, Position *pos, NnueStack *stack, int64_t *checksum)
{
    XqError err;
    pos_from_fen(pos, START_FEN, &err);
    nnue_reset(stack, net, pos, k);
    int64_t t0 = now_us(), evals = 0;
    for (int i = 0; i < n; i++) {
        if (ply[i] == 0 && i > 0) {
            pos_from_fen(pos, START_FEN, &err);
            nnue_reset(stack, net, pos, k);
        }
        if (stack->top == NNUE_STACK - 1) { /* keep a search-like depth: restart the stack here */
            nnue_reset(stack, net, pos, k);
        }
        nnue_push(stack, pos, moves[i]);
        pos_make(pos, moves[i]);
        if (mode == MODE_KING) { /* the position itself is computed first (not timed apart: it is a move) */
            *checksum += nnue_evaluate(net, stack, pos);
            evals += king_move_eval(net, stack, pos, checksum);
        } else {
            *checksum += mode == MODE_FRESH ? nnue_evaluate_fresh(net, pos, k) : nnue_evaluate(net, stack, pos);
            evals++;
        }
    }
    int64_t us = now_us() - t0;
    return us > 0 ? (double)evals * 1e6 / (double)us : 0;
}

/* Parses the command line, then times every kernel set both ways. */
int main(int argc, char **argv)
{
    const char *net_file = NULL;
    int n = DEFAULT_POSITIONS, passes = DEFAULT_PASSES;
    NnueShape shape = NNUE_SHAPE_V1;
    bool random = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-net") == 0 && i + 1 < argc)
            net_file = argv[++i];
        else if (strcmp(argv[i], "-random") == 0 && i + 1 < argc
                 && sscanf(argv[++i], "%d:%d", &shape.feature_set, &shape.hidden) == 2) {
            shape.inputs = nnue_feature_count(shape.feature_set);
            random = true;
            if (!nnue_shape_ok(&shape)) {
                fprintf(stderr, "error: -random: feature set 1 or 2, a width in multiples of %d up to %d\n",
                        NNUE_HIDDEN_STEP, NNUE_HIDDEN_MAX);
                return 2;
            }
        }
        else if (strcmp(argv[i], "-positions") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "-passes") == 0 && i + 1 < argc)
            passes = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: nnue_speed [-net FILE | -random SET:WIDTH] [-positions N] [-passes P]\n");
            return 2;
        }
    }
    if (n < 1 || passes < 1 || passes > MAX_PASSES) {
        fprintf(stderr, "error: -positions must be >= 1 and -passes 1..%d\n", MAX_PASSES);
        return 2;
    }
    tables_init();
    Network *own = NULL;
    const Network *net = nnue_default();
    XqError err;
    if (net_file) {
        own = nnue_load_file(net_file, NULL, &err);
        if (!own) {
            fprintf(stderr, "error: %s\n", err.msg);
            return 1;
        }
        net = own;
    } else if (random || !net) {
        net = own = random_net(&shape);
    }
    int *ply = malloc(sizeof *ply * (size_t)n);
    Move *moves = ply ? random_moves(n, ply) : NULL;
    Position *pos = malloc(sizeof *pos);
    NnueStack *stack = malloc(sizeof *stack);
    if (!net || !moves || !pos || !stack) {
        fprintf(stderr, "error: out of memory\n");
        return 1;
    }
    printf("net: %s (feature set %d, %d inputs, width %d); %d positions from random games, median of %d passes\n",
           net->desc, net->shape.feature_set, net->shape.inputs, net->shape.hidden, n, passes);
    for (int level = 0; level < NNUE_SIMD_LEVELS; level++) {
        const NnueKernels *k = nnue_kernels((NnueSimd)level);
        if (!k)
            continue;
        double rate[MODES][MAX_PASSES];
        int64_t sum[MODES] = { 0 };
        for (int p = 0; p < passes; p++)
            for (int mode = 0; mode < MODES; mode++)
                rate[mode][p] = run_pass(net, k, moves, ply, n, (enum Mode)mode, pos, stack, &sum[mode]);
        printf("%-6s", k->name);
        for (int mode = 0; mode < MODES; mode++) {
            qsort(rate[mode], (size_t)passes, sizeof(double), cmp_double);
            printf("  %s %9.0f/s", MODE_NAME[mode], rate[mode][passes / 2]);
        }
        printf("  (%s)\n", sum[MODE_INCREMENTAL] == sum[MODE_FRESH] ? "same scores" : "SCORES DIFFER");
        if (sum[MODE_INCREMENTAL] != sum[MODE_FRESH])
            return 1;
    }
    free(stack);
    free(pos);
    free(moves);
    free(ply);
    nnue_net_free(own);
    return 0;
}
