/*
 * train_model.h - the float network of the trainer (nnue_arch.h of any shape:
 * feature set, inputs, first-layer width), its forward pass, the loss, and
 * the gradient of the loss with sparse first-layer rows.
 *
 * All parameters live in one float array: ft_w[inputs][hidden] (the real
 * rows), virt[virt_rows][hidden] (the virtual rows below), ft_b[hidden],
 * out_w[NNUE_OUTPUT_BUCKETS][2 * hidden] (side to move's half first),
 * out_b[NNUE_OUTPUT_BUCKETS], then with a second stage (shape.l2, l3 > 0;
 * nnue_arch.h) its weights s2_w (l2 of every bucket [b][l2][2 * hidden], l3
 * [b][l3][l2], l4 [b][l3]) and biases s2_b (l2 [b][l2], l3 [b][l3], l4 [b]);
 * so the real and virtual rows are rows 0..rows-1 of one matrix and
 * everything after them is dense. A gradient has the same layout.
 *
 * Factorised (virtual) features: a real input stands for a piece-square
 * feature f = (g, square) of nnue_features.h (feature set 1: the input is f;
 * feature set 2: input b * 1260 + f, b the king bucket), with its group
 * g = (own/their, type) and its oriented file and rank. It also activates
 * shared virtual rows: in feature set 2 first the "psq" row f, shared by the
 * six king buckets (TRAIN_PSQ_ROWS of them, the first virtual rows), then in
 * both sets the group's "material" row, its (g, file) row and its (g, rank)
 * row (TRAIN_GROUP_ROWS). The net the forward pass, validation and export
 * use has the folded rows ft_eff[r] = clamp(ft_w[r] + psq[f] + material(g) +
 * file(g) + rank(g), +-TRAIN_FT_CLIP), summed in that order; the gradient of
 * a real row is added to its virtual rows (grad_factorise). So the exported
 * .nnue holds ft_eff and the engine knows nothing of the virtual rows.
 */
#ifndef XQ_TRAIN_MODEL_H
#define XQ_TRAIN_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "train_data.h"

enum {
    TRAIN_GROUPS = 2 * PIECE_TYPES, /* (own/their, type): the 14 groups of 90 piece-square features */
    TRAIN_FILES = 9,
    TRAIN_RANKS = 10,
    TRAIN_VIRT_FILE = TRAIN_GROUPS,                              /* first (group, file) row, within the group rows */
    TRAIN_VIRT_RANK = TRAIN_VIRT_FILE + TRAIN_GROUPS * TRAIN_FILES, /* first (group, rank) row, within them */
    TRAIN_GROUP_ROWS = TRAIN_VIRT_RANK + TRAIN_GROUPS * TRAIN_RANKS, /* 14 + 126 + 140 = 280 */
    TRAIN_PSQ_ROWS = NNUE_FEATURES,  /* feature set 2: the piece-square rows the king buckets share */
    TRAIN_VIRT_MAX = 4,              /* virtual rows of one real input: psq (set 2), material, file, rank */
};

enum {
    TRAIN_MATERIAL_UNITS = 8,       /* hidden units net_init_material uses */
    TRAIN_MATERIAL_RANGE_CP = 2000, /* material balance those units represent exactly */
};
/* Piece values of net_init_material (cp on the scale the nets learn from the Pikafish labels). */
extern const int TRAIN_PIECE_CP[PIECE_TYPES];

/* Clipping ranges kept after every step, so the quantised net cannot overflow (train_export.h). */
#define TRAIN_FT_CLIP 1.98f  /* |ft weight|, |ft bias|: * QA = 505, and 33 * 505 < 32767 (int16 accumulator) */
#define TRAIN_OUT_CLIP 1.98f /* |out weight|: * QB = 126.7, rounds to <= 127 (NNUE_OUT_WEIGHT_MAX) */
#define TRAIN_BIAS_CLIP 100.0f /* |out bias| (40000 cp): * QA * QB stays far inside int32; second-stage biases too */
#define TRAIN_S2_CLIP 1.99f  /* |second-stage weight|: * QW = 2038 <= NNUE_L_WEIGHT_MAX */

/*
 * The network's parameters (views into one array). With qat ("quantisation-aware" training), the
 * forward and backward passes use weights rounded to the .nnue grid: out_q, the output weights
 * (round(w * QB) / QB, |.| <= 127 / QB), ft_eff, the folded first-layer rows, and ft_bq, the
 * first-layer biases (both round(w * QA) / QA); the gradient of a rounded weight is applied to the
 * float one (straight-through). So the float net is the integer net up to its arithmetic's rounding.
 * Without qat they are copies. net_sync refreshes all three.
 */
typedef struct Net {
    NnueShape shape; /* feature set, inputs (the real rows), hidden (the width) */
    int psq_rows;    /* virtual psq rows: TRAIN_PSQ_ROWS in feature set 2, 0 in set 1 */
    int virt_rows;   /* psq_rows + TRAIN_GROUP_ROWS */
    int rows;        /* real and virtual first-layer rows: shape.inputs + virt_rows */
    bool qat;
    bool factorised; /* train the virtual rows (grad_factorise); without it they stay as they are */
    size_t size;     /* floats in params */
    float *params;
    float *ft_w, *virt, *ft_b, *out_w, *out_b;
    float *s2_w, *s2_b; /* the second stage's weights and biases (train_s2_layers); NULL without one */
    float *groups;   /* the group rows (material, file, rank): virt + psq_rows rows */
    float *ft_eff;   /* [inputs][hidden], the folded rows, derived from ft_w and virt */
    float *out_q;    /* [NNUE_OUTPUT_BUCKETS][2 * hidden], derived from out_w */
    float *ft_bq;    /* [hidden], derived from ft_b */
    float *s2_wq;    /* the second stage's weights, derived from s2_w (on the grid of 1 / NNUE_QW with qat) */
} Net;

/* One bucket's second stage inside the weight and bias blocks of a net (or gradient) of a shape. */
typedef struct S2Layers {
    float *w2, *w3, *w4; /* [l2][2 * hidden], [l3][l2], [l3] */
    float *b2, *b3, *b4; /* [l2], [l3], [1] */
} S2Layers;

/* Bucket b's layers in the blocks w (nnue_stage2_weights floats) and bias (nnue_stage2_biases). */
S2Layers train_s2_layers(const NnueShape *s, float *w, float *bias, int b);

/* A gradient in the net's layout, with the list of first-layer rows (real and virtual) it touched. */
typedef struct Grad {
    size_t size;
    int hidden, rows;   /* the net's width and first-layer rows */
    float *params;
    float *ft_w, *virt, *ft_b, *out_w, *out_b, *s2_w, *s2_b;
    uint8_t *touched;   /* [rows]: row has a non-zero entry */
    uint16_t *row_list; /* the touched rows, in the order first touched */
    int row_count;
} Grad;

/* Per-thread work space of a forward/backward pass. */
typedef struct Scratch {
    float *acc[2], *h, *dacc[2];
    float *dh; /* [2 * hidden]: d loss / d h through the second stage */
    float a2[NNUE_L2_MAX], y[NNUE_L2_MAX], a3[NNUE_L3_MAX], z[NNUE_L3_MAX]; /* its sums and activations */
} Scratch;

/* Loss settings. */
typedef struct LossSpec {
    double k;      /* sigmoid scale in centipawns */
    double lambda; /* weight of the game result in the target */
    double power;  /* loss = |p - t|^power */
} LossSpec;

/* The shape of a feature set (NNUE_FEATURE_SET_PSQ or _KING) and width (any width >= 1 trains; the engine runs
 * nnue_shape_ok ones, so only those are exported), without a second stage. */
NnueShape train_shape(int feature_set, int hidden);
/* Allocates a zeroed net of a shape; false if the shape is not one (a feature set with its input count, a width
 * >= 1, second-stage widths both 0 or both in 1..NNUE_L2_MAX, 1..NNUE_L3_MAX) or out of memory. */
bool net_alloc(Net *net, const NnueShape *shape);
/* Frees a net. */
void net_free(Net *net);
/* Seeded initialisation: ft weights normal with std 1/sqrt(32), ft bias 0, out weights uniform +-1/sqrt(2 hidden),
 * out bias 0, the second stage as net_init_stage2. */
void net_init_random(Net *net, uint64_t seed);
/* Seeded second stage: l2 and l3 weights uniform +-1/sqrt(inputs), biases 0, and l4 (its output) zero, so the
 * second stage adds nothing until trained and a net given one evaluates as before. */
void net_init_stage2(Net *net, uint64_t seed);
/*
 * Material start (after net_init_random): hidden units 0..TRAIN_MATERIAL_UNITS-1 get zero real rows,
 * bias 0.5, material rows +-alpha * TRAIN_PIECE_CP[type] (own +, their -) and output weights +beta
 * (side to move's half) and -beta (the other's) in every bucket. Both perspectives then hold
 * 0.5 +- alpha * M (M: material balance from the side to move's view, cp), and
 * (0.5 + a M)^2 - (0.5 - a M)^2 = 2 a M, so those units add exactly M / NNUE_SCALE to the output
 * while |M| <= TRAIN_MATERIAL_RANGE_CP.
 */
void net_init_material(Net *net);
/* Allocates a zeroed gradient for a net; false if out of memory. */
bool grad_alloc(Grad *g, const Net *net);
/* Frees a gradient. */
void grad_free(Grad *g);
/* Zeroes the touched first-layer rows and every dense part (after a reduction). */
void grad_clear(Grad *g);
/* Marks a first-layer row (real or virtual) touched. */
void grad_touch(Grad *g, int row);
/* Adds the gradient of each touched real row of net's shape to its virtual rows, marking them touched. */
void grad_factorise(Grad *g, const Net *net);
/* The virtual rows (indices into the whole row matrix, >= shape.inputs) of real input r of a net: psq (feature
 * set 2), material, file, rank. Returns their count (3 or 4). */
int train_virtual_rows(const Net *net, int r, int rows[TRAIN_VIRT_MAX]);
/* Folds the virtual rows into the real ones (ft_w = ft_eff) and zeroes them (and their moments m, v if given). */
void net_unfactorise(Net *net, float *m, float *v);
/* Allocates scratch space for a hidden width; false if out of memory. */
bool scratch_alloc(Scratch *s, int hidden);
/* Frees scratch space. */
void scratch_free(Scratch *s);
/* Float evaluation in centipawns from the side to move's view. */
double net_eval_cp(const Net *net, const TrainPos *p, Scratch *s);
/* Loss of one position. */
double net_loss(const Net *net, const TrainPos *p, const LossSpec *loss, Scratch *s);
/* Adds weight * d(loss)/d(params) of one position to g; returns the position's loss. */
double net_loss_grad(const Net *net, const TrainPos *p, const LossSpec *loss, float weight, Grad *g, Scratch *s);
/* Clips every parameter to its TRAIN_*_CLIP range, then refreshes out_q (net_sync). */
void net_clip(Net *net);
/* Refreshes ft_eff from ft_w and virt, and out_q from out_w (call after changing parameters by hand). */
void net_sync(Net *net);
/* An output weight on the .nnue grid: round(w * QB) clamped to +-NNUE_OUT_WEIGHT_MAX. */
long net_out_weight_q(float w);

/* A seeded 64-bit generator (splitmix64). */
typedef struct TrainRng {
    uint64_t state;
} TrainRng;

/* Next 64 random bits. */
uint64_t rng_next(TrainRng *r);
/* Uniform double in [0, 1). */
double rng_uniform(TrainRng *r);
/* Standard normal deviate. */
double rng_normal(TrainRng *r);
/* First-layer init: a normal deviate of the standard deviation fresh real rows get (1 / sqrt(NNUE_MAX_ACTIVE)). */
float rng_ft_init(TrainRng *r);

#endif
