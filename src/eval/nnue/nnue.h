/*
 * nnue.h - the network evaluation: loading nets, the accumulator stack of a
 * search thread, and evaluation (architecture and file format: nnue_arch.h).
 *
 * A Network is read-only once loaded and may be shared by every thread.
 * An NnueStack lives in a search thread's state, beside its Position: the
 * search pushes an entry for each move it makes (nnue_push) and pops it when
 * it takes the move back (nnue_pop). Entries are updated lazily: a push only
 * records which pieces the move changed; nnue_evaluate brings the top
 * entry's accumulators up to date from the nearest computed ancestor, or
 * refreshes a perspective from scratch when its king crossed the mirror
 * line on the way. Position itself knows nothing of the network, so perft,
 * the rules and judge make moves as cheaply as before.
 *
 * Kernels: the accumulator and output arithmetic exist as a scalar version
 * and as SSE2 and AVX2 versions (x86), picked at run time by what the CPU
 * supports; all are integer-exact, so every version gives the same result
 * bit for bit (tests/test_nnue.c checks it).
 */
#ifndef XQ_NNUE_H
#define XQ_NNUE_H

#include <stddef.h>

#include "nnue_arch.h"
#include "board/position.h"
#include "eval/score.h"

typedef struct Network {
    int16_t ft_weight[NNUE_FEATURES * NNUE_HIDDEN]; /* row f = input f's column of the feature transformer */
    int16_t ft_bias[NNUE_HIDDEN];
    int16_t out_weight[NNUE_OUTPUT_BUCKETS][2 * NNUE_HIDDEN];
    int32_t out_bias[NNUE_OUTPUT_BUCKETS];
    char desc[NNUE_DESC_SIZE + 1]; /* the file's description, NUL-terminated */
} Network;

/* Kernel sets, from plain C up to the widest vectors. */
typedef enum NnueSimd { NNUE_SCALAR, NNUE_SSE2, NNUE_AVX2, NNUE_SIMD_LEVELS } NnueSimd;

typedef struct NnueKernels {
    NnueSimd level;
    const char *name;
    /* out = in + sum of add rows - sum of sub rows (each NNUE_HIDDEN int16) */
    void (*update)(int16_t *out, const int16_t *in, const int16_t *const *add, int n_add, const int16_t *const *sub,
                   int n_sub);
    /* sum over both halves of clamp(acc, 0, QA)^2 * weight, exactly */
    int64_t (*output)(const int16_t *stm, const int16_t *other, const int16_t *weight);
} NnueKernels;

/* A piece a move changed: its side, type and plain squares (NNUE_NO_SQ where it appears or vanishes). */
typedef struct NnueDirty {
    uint8_t side, type, from, to;
} NnueDirty;

enum { NNUE_NO_SQ = 255, NNUE_STACK = MAX_PLY + 4, NNUE_MAX_DIRTY = 2 };

typedef struct NnueAccum {
    int16_t v[2][NNUE_HIDDEN]; /* by perspective colour (RED, BLACK) */
    bool computed[2];
    uint8_t king_sq[2];        /* plain king squares at this node */
    uint8_t n_dirty;
    NnueDirty dirty[NNUE_MAX_DIRTY]; /* what the move into this node changed */
} NnueAccum;

typedef struct NnueStack {
    const NnueKernels *k;
    int top;
    uint64_t refreshes, updates; /* work counters (statistics for benchmarks and tests) */
    NnueAccum acc[NNUE_STACK];
} NnueStack;

/* Where a net's arrays are, in whatever struct holds them (the engine's Network, the trainer's quantised net). */
typedef struct NnueArrays {
    int16_t *ft_weight;                     /* [NNUE_FEATURES * NNUE_HIDDEN] */
    int16_t *ft_bias;                       /* [NNUE_HIDDEN] */
    int16_t (*out_weight)[2 * NNUE_HIDDEN]; /* [NNUE_OUTPUT_BUCKETS] */
    int32_t *out_bias;                      /* [NNUE_OUTPUT_BUCKETS] */
    char *desc;                             /* NNUE_DESC_SIZE + 1 bytes, NUL-terminated */
} NnueArrays;

/* Checks a net file image (header, size, checksum, output weight range) and fills the arrays; on error fills
 * err and writes nothing. */
bool nnue_parse_arrays(const uint8_t *data, size_t size, const NnueArrays *to, XqError *err);
/* Writes a net's arrays and description (its first NNUE_DESC_SIZE bytes) as a net file image into out
 * (NNUE_FILE_SIZE bytes). */
void nnue_serialise_arrays(const int16_t *ft_weight, const int16_t *ft_bias, const int16_t (*out_weight)[2 * NNUE_HIDDEN],
                           const int32_t *out_bias, const char *desc, uint8_t *out);
/* The checksum a net file image of size >= NNUE_HEADER_SIZE bytes should store, by the definition of the
 * version in its header: version 1, FNV-1a of the bytes after the header; later, of every byte but the
 * checksum field's. */
uint32_t nnue_file_checksum(const uint8_t *file, size_t size);
/* Parses a net file image (nnue_arch.h's format); on error fills err and leaves net untouched. */
bool nnue_parse(Network *net, const uint8_t *data, size_t size, XqError *err);
/* Loads a net file: a regular file only (fileload.h), a relative path not in the current directory also
 * looked for in exe_dir (NULL: not). On error fills err (naming the file) and leaves net untouched. */
bool nnue_load_file(Network *net, const char *path, const char *exe_dir, XqError *err);
/* Writes net in the file format into out (NNUE_HEADER_SIZE + NNUE_PAYLOAD_SIZE bytes). */
void nnue_serialise(const Network *net, uint8_t *out);
/* The net built into the executable, parsed once; NULL when the build embeds none. */
const Network *nnue_default(void);

/* The kernels of a level, or NULL where this CPU or build cannot run them. */
const NnueKernels *nnue_kernels(NnueSimd level);
/* The widest kernels this CPU runs. */
const NnueKernels *nnue_best_kernels(void);

/* Starts a stack at pos: one fully computed entry (k = the kernels to use, NULL = the best). */
void nnue_reset(NnueStack *s, const Network *net, const Position *pos, const NnueKernels *k);
/* Records move m, about to be played on pos (call before pos_make). */
void nnue_push(NnueStack *s, const Position *pos, Move m);
/* Records a null move. */
void nnue_push_null(NnueStack *s);
/* Drops the top entry (after pos_unmake / pos_unmake_null). */
static inline void nnue_pop(NnueStack *s) { s->top--; }
/* Evaluates pos (the stack's top position) for the side to move, updating the accumulators lazily. */
int nnue_evaluate(const Network *net, NnueStack *s, const Position *pos);
/* Evaluates pos from scratch, with no stack (tests, tools; slow). */
int nnue_evaluate_fresh(const Network *net, const Position *pos, const NnueKernels *k);

#endif
