/*
 * nnue.h - the network evaluation: nets (loaded from files, nnue_file.c), the
 * accumulator stack of a search thread, and evaluation (architecture and file
 * format: nnue_arch.h).
 *
 * A Network is read-only once loaded and may be shared by every thread; its
 * shape (feature set, inputs, first-layer width) comes from its file.
 * An NnueStack lives in a search thread's state, beside its Position: the
 * search pushes an entry for each move it makes (nnue_push) and pops it when
 * it takes the move back (nnue_pop). Entries are updated lazily: a push only
 * records which pieces the move changed; nnue_evaluate brings the top
 * entry's accumulators up to date from the nearest computed ancestor. When a
 * perspective's view changed on the way (its king moved to another bucket or
 * across the mirror line, nnue_features.h), that perspective is refreshed
 * from the stack's accumulator cache instead: one accumulator per king square
 * and perspective, with the pieces it was computed for, brought to the
 * current board by the difference (Stockfish's "Finny tables"), so a king
 * move costs the pieces that moved since that square was last seen, not a
 * sum over every piece. Position itself knows nothing of the network, so
 * perft, the rules and judge make moves as cheaply as before.
 *
 * Kernels: the accumulator and output arithmetic, and a second stage's input
 * and first affine layer (nnue_arch.h; its small layers after that are plain
 * C), exist as a scalar version and as SSE2 and AVX2 versions (x86), picked
 * at run time by what the CPU supports; all are integer-exact, so every
 * version gives the same result bit for bit (tests/test_nnue.c checks it).
 */
#ifndef XQ_NNUE_H
#define XQ_NNUE_H

#include <stddef.h>

#include "nnue_arch.h"
#include "board/position.h"
#include "eval/score.h"

/* A net: its shape and arrays (one allocation, 64-byte aligned rows; nnue_net_new / nnue_net_free). */
typedef struct Network {
    NnueShape shape;
    int16_t *ft_weight;  /* [inputs][hidden]: row f = input f's column of the feature transformer */
    int16_t *ft_bias;    /* [hidden] */
    int16_t *out_weight; /* [NNUE_OUTPUT_BUCKETS][2 * hidden], side to move's half first (nnue_out_row) */
    int32_t *out_bias;   /* [NNUE_OUTPUT_BUCKETS] */
    /* the second stage (NULL without one, shape.l2 == 0), by bucket; rows of the previous layer's width */
    int16_t *l2_weight;  /* [NNUE_OUTPUT_BUCKETS][l2][2 * hidden] */
    int32_t *l2_bias;    /* [NNUE_OUTPUT_BUCKETS][l2] */
    int16_t *l3_weight;  /* [NNUE_OUTPUT_BUCKETS][l3][l2] */
    int32_t *l3_bias;    /* [NNUE_OUTPUT_BUCKETS][l3] */
    int16_t *l4_weight;  /* [NNUE_OUTPUT_BUCKETS][l3] */
    int32_t *l4_bias;    /* [NNUE_OUTPUT_BUCKETS] */
    char desc[NNUE_DESC_SIZE_V2 + 1]; /* the file's description, NUL-terminated */
    void *block;         /* the allocation the arrays live in */
} Network;

/* Kernel sets, from plain C up to the widest vectors. */
typedef enum NnueSimd { NNUE_SCALAR, NNUE_SSE2, NNUE_AVX2, NNUE_SIMD_LEVELS } NnueSimd;

typedef struct NnueKernels {
    NnueSimd level;
    const char *name;
    /* out = in + sum of add rows - sum of sub rows (each n int16; n a multiple of NNUE_HIDDEN_STEP) */
    void (*update)(int16_t *out, const int16_t *in, const int16_t *const *add, int n_add, const int16_t *const *sub,
                   int n_sub, int n);
    /* sum over both halves (n each) of clamp(acc, 0, QA)^2 * weight, exactly */
    int64_t (*output)(const int16_t *stm, const int16_t *other, const int16_t *weight, int n);
    /* the second stage's input: x[i] = (clamp(acc, 0, QA)^2 + 2^8) >> 9 for stm's n values, then other's */
    void (*stage2_input)(int16_t *x, const int16_t *stm, const int16_t *other, int n);
    /* out[o] = bias[o] + sum_i x[i] * w[o * n_in + i] (int32, exact: nnue_arch.h bounds it), o < n_out; n_in a
     * multiple of 2 * NNUE_HIDDEN_STEP */
    void (*affine)(int32_t *out, const int16_t *x, const int16_t *w, const int32_t *bias, int n_in, int n_out);
} NnueKernels;

/* A piece a move changed: its side, type and plain squares (NNUE_NO_SQ where it appears or vanishes). */
typedef struct NnueDirty {
    uint8_t side, type, from, to;
} NnueDirty;

enum { NNUE_NO_SQ = 255, NNUE_STACK = MAX_PLY + 4, NNUE_MAX_DIRTY = 2 };

typedef struct NnueAccum {
    int16_t v[2][NNUE_HIDDEN_MAX]; /* by perspective colour (RED, BLACK); the net's width used */
    bool computed[2];
    uint8_t king_sq[2];        /* plain king squares at this node */
    uint8_t n_dirty;
    NnueDirty dirty[NNUE_MAX_DIRTY]; /* what the move into this node changed */
} NnueAccum;

/* One cached accumulator: a perspective's with its king on one palace square, and the board it holds. */
typedef struct NnueCacheEntry {
    int16_t v[NNUE_HIDDEN_MAX];
    uint8_t sq[2 * SIDE_PIECES]; /* plain square of each piece identity it counts, NNUE_NO_SQ for none */
} NnueCacheEntry;

typedef struct NnueStack {
    const NnueKernels *k;
    int top;
    uint64_t refreshes, updates; /* work counters, cumulative: nnue_reset keeps them, the owner zeroes them */
    uint64_t cache_rows;         /* rows the cache added or removed on refreshes */
    NnueCacheEntry cache[2][NNUE_KING_SLOTS]; /* by perspective and king slot (nnue_king_slot) */
    NnueAccum acc[NNUE_STACK];
} NnueStack;

/* Allocates a zeroed net of a shape (nnue_shape_ok); NULL if the shape is not one or out of memory. */
Network *nnue_net_new(const NnueShape *shape);
/* Frees a net of nnue_net_new (NULL is fine). */
void nnue_net_free(Network *net);
/* Output weights of bucket b (2 * hidden of them). */
static inline int16_t *nnue_out_row(const Network *net, int b)
{
    return net->out_weight + (size_t)b * 2 * (size_t)net->shape.hidden;
}

/* Checks a net file image (header, size, checksum, output weight range) and returns a new net of its shape;
 * NULL with err filled on any error. */
Network *nnue_parse(const uint8_t *data, size_t size, XqError *err);
/* Loads a net file: a regular file only (fileload.h), a relative path not in the current directory also
 * looked for in exe_dir (NULL: not). NULL with err filled (naming the file) on any error. */
Network *nnue_load_file(const char *path, const char *exe_dir, XqError *err);
/* Bytes of net's file image (nnue_file_size of its shape). */
size_t nnue_net_file_size(const Network *net);
/* Writes net as a version 3 file image (nnue_net_file_size bytes) into out, with its description's first
 * NNUE_DESC_SIZE bytes. */
void nnue_serialise(const Network *net, uint8_t *out);
/* The checksum a net file image of size >= NNUE_HEADER_SIZE bytes should store, by the definition of the
 * version in its header: version 1, FNV-1a of the bytes after the header; later, of every byte but the
 * checksum field's. */
uint32_t nnue_file_checksum(const uint8_t *file, size_t size);
/* The net built into the executable, parsed once; NULL when the build embeds none. */
const Network *nnue_default(void);

/* The kernels of a level, or NULL where this CPU or build cannot run them. */
const NnueKernels *nnue_kernels(NnueSimd level);
/* The widest kernels this CPU runs. */
const NnueKernels *nnue_best_kernels(void);

/* Starts a stack at pos: one fully computed entry and an empty cache (k = the kernels to use, NULL = the best). */
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
