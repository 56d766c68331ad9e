/*
 * train_model.c - the trainer's float network: forward pass, loss, gradient.
 *
 * The loops over the hidden units are plain C that GCC vectorises at -O3; on
 * x86-64 the two per-position passes are also built for AVX2 and picked at
 * run time (target_clones). Every loop is element-wise or sums into LANES
 * fixed partial sums, so both builds give bit-identical results.
 */
#include "train_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sanitizer runtimes are not ready when ifunc resolvers run at load time (TSan crashes): no clones there. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define XQ_NO_TARGET_CLONES
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define XQ_NO_TARGET_CLONES
#endif
#endif
#if defined(__x86_64__) && defined(__has_attribute) && !defined(XQ_NO_TARGET_CLONES)
#if __has_attribute(target_clones)
#define TRAIN_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef TRAIN_CLONES
#define TRAIN_CLONES
#endif

enum { LANES = 8 }; /* partial sums of a dot product (the order of the float additions is fixed) */
/* Grad.row_list holds row indices as uint16_t: the most rows a net has (feature set 2) must fit. */
_Static_assert(NNUE_KING_BUCKETS * NNUE_FEATURES + TRAIN_PSQ_ROWS + TRAIN_GROUP_ROWS <= UINT16_MAX + 1,
               "first-layer rows fit uint16_t");
static const double FT_INIT_STD = 0.17677669529663687; /* 1 / sqrt(NNUE_MAX_ACTIVE) */
static const double TWO_PI = 6.283185307179586;
static const double MATERIAL_ACC_MID = 0.5; /* accumulator of a material unit at an even balance */
const int TRAIN_PIECE_CP[PIECE_TYPES] = { 0, 60, 60, 130, 300, 140, 30 }; /* K A E H R C P */

/* dst[j] += src[j]. */
static inline void vec_add(float *restrict dst, const float *restrict src, int n)
{
    for (int j = 0; j < n; j++)
        dst[j] += src[j];
}

/* Next 64 random bits (splitmix64). */
uint64_t rng_next(TrainRng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform double in [0, 1) from the top 53 bits. */
double rng_uniform(TrainRng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* Standard normal deviate (Box-Muller, one of the pair). */
double rng_normal(TrainRng *r)
{
    double u = 1.0 - rng_uniform(r), v = rng_uniform(r);
    return sqrt(-2.0 * log(u)) * cos(TWO_PI * v);
}

/* A fresh first-layer weight. */
float rng_ft_init(TrainRng *r) { return (float)(FT_INIT_STD * rng_normal(r)); }

/* The shape of a feature set and width. */
NnueShape train_shape(int feature_set, int hidden)
{
    NnueShape s = { feature_set, nnue_feature_count(feature_set), hidden, 0, 0 };
    return s;
}

/* Bucket b's layers inside the second stage's weight and bias blocks. */
S2Layers train_s2_layers(const NnueShape *s, float *w, float *bias, int b)
{
    const size_t nb = NNUE_OUTPUT_BUCKETS, l2 = (size_t)s->l2, l3 = (size_t)s->l3, in = 2 * (size_t)s->hidden;
    const size_t bk = (size_t)b;
    S2Layers L = { w + bk * l2 * in, w + nb * l2 * in + bk * l3 * l2, w + nb * (l2 * in + l3 * l2) + bk * l3,
                   bias + bk * l2, bias + nb * l2 + bk * l3, bias + nb * (l2 + l3) + bk };
    return L;
}

/* Points the parameter views into an array laid out for a net's rows and width. */
static void set_views(float *base, const Net *net, float **ft_w, float **virt, float **ft_b, float **out_w,
                      float **out_b, float **s2_w, float **s2_b)
{
    size_t h = (size_t)net->shape.hidden;
    *ft_w = base;
    *virt = *ft_w + (size_t)net->shape.inputs * h;
    *ft_b = *ft_w + (size_t)net->rows * h;
    *out_w = *ft_b + h;
    *out_b = *out_w + NNUE_OUTPUT_BUCKETS * 2 * h;
    *s2_w = net->shape.l2 ? *out_b + NNUE_OUTPUT_BUCKETS : NULL;
    *s2_b = net->shape.l2 ? *s2_w + nnue_stage2_weights(&net->shape) : NULL;
}

/* Allocates a zeroed net of a shape. */
bool net_alloc(Net *net, const NnueShape *shape)
{
    memset(net, 0, sizeof *net);
    if (nnue_feature_count(shape->feature_set) == 0 || shape->inputs != nnue_feature_count(shape->feature_set)
        || shape->hidden < 1 || !nnue_stage2_ok(shape->l2, shape->l3))
        return false;
    size_t h = (size_t)shape->hidden;
    net->shape = *shape;
    net->psq_rows = shape->feature_set == NNUE_FEATURE_SET_KING ? TRAIN_PSQ_ROWS : 0;
    net->virt_rows = net->psq_rows + TRAIN_GROUP_ROWS;
    net->rows = shape->inputs + net->virt_rows;
    net->size = (size_t)net->rows * h + h + NNUE_OUTPUT_BUCKETS * 2 * h + NNUE_OUTPUT_BUCKETS
              + nnue_stage2_weights(shape) + nnue_stage2_biases(shape);
    net->params = calloc(net->size, sizeof *net->params);
    net->out_q = calloc(NNUE_OUTPUT_BUCKETS * 2 * h, sizeof *net->out_q);
    net->ft_eff = calloc((size_t)shape->inputs * h, sizeof *net->ft_eff);
    net->ft_bq = calloc(h, sizeof *net->ft_bq);
    net->s2_wq = calloc(nnue_stage2_weights(shape) + 1, sizeof *net->s2_wq);
    if (!net->params || !net->out_q || !net->ft_eff || !net->ft_bq || !net->s2_wq) {
        net_free(net);
        return false;
    }
    set_views(net->params, net, &net->ft_w, &net->virt, &net->ft_b, &net->out_w, &net->out_b, &net->s2_w,
              &net->s2_b);
    net->groups = net->virt + (size_t)net->psq_rows * h;
    return true;
}

/* Frees a net. */
void net_free(Net *net)
{
    free(net->params);
    free(net->out_q);
    free(net->ft_eff);
    free(net->ft_bq);
    free(net->s2_wq);
    memset(net, 0, sizeof *net);
}

/* Seeded initialisation of every parameter (the virtual rows start at zero). */
void net_init_random(Net *net, uint64_t seed)
{
    TrainRng r = { seed };
    size_t h = (size_t)net->shape.hidden;
    for (size_t i = 0; i < (size_t)net->shape.inputs * h; i++)
        net->ft_w[i] = rng_ft_init(&r);
    memset(net->virt, 0, (size_t)net->virt_rows * h * sizeof *net->virt);
    memset(net->ft_b, 0, h * sizeof *net->ft_b);
    double a = 1.0 / sqrt(2.0 * (double)h);
    for (size_t i = 0; i < NNUE_OUTPUT_BUCKETS * 2 * h; i++)
        net->out_w[i] = (float)(a * (2 * rng_uniform(&r) - 1));
    memset(net->out_b, 0, NNUE_OUTPUT_BUCKETS * sizeof *net->out_b);
    net_init_stage2(net, rng_next(&r));
    net_clip(net);
}

/* Seeded second stage whose output weights are zero (it adds nothing until trained). */
void net_init_stage2(Net *net, uint64_t seed)
{
    if (!net->shape.l2)
        return;
    TrainRng r = { seed };
    const int l2 = net->shape.l2, l3 = net->shape.l3, in = 2 * net->shape.hidden;
    memset(net->s2_b, 0, nnue_stage2_biases(&net->shape) * sizeof *net->s2_b);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
        S2Layers L = train_s2_layers(&net->shape, net->s2_w, net->s2_b, b);
        double a2 = 1.0 / sqrt((double)in), a3 = 1.0 / sqrt((double)l2);
        for (int i = 0; i < l2 * in; i++)
            L.w2[i] = (float)(a2 * (2 * rng_uniform(&r) - 1));
        for (int i = 0; i < l3 * l2; i++)
            L.w3[i] = (float)(a3 * (2 * rng_uniform(&r) - 1));
        memset(L.w4, 0, (size_t)l3 * sizeof *L.w4);
    }
    net_sync(net);
}

/* Material start: exact material balance from the first TRAIN_MATERIAL_UNITS hidden units. */
void net_init_material(Net *net)
{
    size_t h = (size_t)net->shape.hidden;
    int units = net->shape.hidden < TRAIN_MATERIAL_UNITS ? net->shape.hidden : TRAIN_MATERIAL_UNITS;
    double alpha = MATERIAL_ACC_MID / TRAIN_MATERIAL_RANGE_CP;
    double beta = 1.0 / (NNUE_SCALE * 2 * alpha * units);
    for (int j = 0; j < units; j++) {
        for (int f = 0; f < net->shape.inputs; f++)
            net->ft_w[(size_t)f * h + (size_t)j] = 0;
        net->ft_b[j] = (float)MATERIAL_ACC_MID;
        for (int g = 0; g < TRAIN_GROUPS; g++) /* groups 0..6 are the perspective's own pieces */
            net->groups[g * h + (size_t)j] =
                (float)((g < PIECE_TYPES ? 1 : -1) * alpha * TRAIN_PIECE_CP[g % PIECE_TYPES]);
        for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++) {
            net->out_w[b * 2 * h + (size_t)j] = (float)beta;
            net->out_w[b * 2 * h + h + (size_t)j] = (float)-beta;
        }
    }
    net_sync(net);
}

/* Allocates a zeroed gradient. */
bool grad_alloc(Grad *g, const Net *net)
{
    memset(g, 0, sizeof *g);
    g->size = net->size;
    g->hidden = net->shape.hidden;
    g->rows = net->rows;
    g->params = calloc(g->size, sizeof *g->params);
    g->touched = calloc((size_t)net->rows, 1);
    g->row_list = calloc((size_t)net->rows, sizeof *g->row_list);
    if (!g->params || !g->touched || !g->row_list) {
        grad_free(g);
        return false;
    }
    set_views(g->params, net, &g->ft_w, &g->virt, &g->ft_b, &g->out_w, &g->out_b, &g->s2_w, &g->s2_b);
    return true;
}

/* Frees a gradient. */
void grad_free(Grad *g)
{
    free(g->params);
    free(g->touched);
    free(g->row_list);
    memset(g, 0, sizeof *g);
}

/* Zeroes the touched rows and the dense parts. */
void grad_clear(Grad *g)
{
    size_t h = (size_t)g->hidden;
    for (int i = 0; i < g->row_count; i++) {
        memset(g->ft_w + g->row_list[i] * h, 0, h * sizeof *g->ft_w);
        g->touched[g->row_list[i]] = 0;
    }
    g->row_count = 0;
    memset(g->ft_b, 0, (g->size - (size_t)g->rows * h) * sizeof *g->ft_b);
}

/* Marks a row touched (listing it the first time). */
void grad_touch(Grad *g, int row)
{
    if (!g->touched[row]) {
        g->touched[row] = 1;
        g->row_list[g->row_count++] = (uint16_t)row;
    }
}

/* The virtual rows of real input r: its psq row (feature set 2), its group's material row, (group, file) and
 * (group, rank). */
int train_virtual_rows(const Net *net, int r, int rows[TRAIN_VIRT_MAX])
{
    int f = r % NNUE_FEATURES, group = f / NNUE_SQUARES, sq = f % NNUE_SQUARES, n = 0;
    int groups = net->shape.inputs + net->psq_rows; /* the first group row */
    if (net->psq_rows)
        rows[n++] = net->shape.inputs + f;
    rows[n++] = groups + group;
    rows[n++] = groups + TRAIN_VIRT_FILE + group * TRAIN_FILES + sq % TRAIN_FILES;
    rows[n++] = groups + TRAIN_VIRT_RANK + group * TRAIN_RANKS + sq / TRAIN_FILES;
    return n;
}

/* Adds each touched real row's gradient to its virtual rows (d loss / d virt = sum over its real rows). */
void grad_factorise(Grad *g, const Net *net)
{
    size_t h = (size_t)g->hidden;
    int real = g->row_count; /* the rows listed so far; virtual ones get appended */
    for (int i = 0; i < real; i++) {
        int r = g->row_list[i], vr[TRAIN_VIRT_MAX];
        if (r >= net->shape.inputs)
            continue;
        int n = train_virtual_rows(net, r, vr);
        for (int k = 0; k < n; k++) {
            grad_touch(g, vr[k]);
            vec_add(g->ft_w + (size_t)vr[k] * h, g->ft_w + (size_t)r * h, g->hidden);
        }
    }
}

/* Allocates scratch space. */
bool scratch_alloc(Scratch *s, int hidden)
{
    size_t h = (size_t)hidden;
    s->acc[0] = malloc(8 * h * sizeof(float)); /* acc 2h, h 2h, dacc 2h, dh 2h */
    if (!s->acc[0])
        return false;
    s->acc[1] = s->acc[0] + h;
    s->h = s->acc[1] + h;
    s->dacc[0] = s->h + 2 * h;
    s->dacc[1] = s->dacc[0] + h;
    s->dh = s->dacc[1] + h;
    return true;
}

/* Frees scratch space. */
void scratch_free(Scratch *s)
{
    free(s->acc[0]);
    memset(s, 0, sizeof *s);
}

/* clamp(x, 0, 1)^2, written as two selects that compile to max and min. */
static inline float screlu(float x)
{
    x = x > 0.0f ? x : 0.0f;
    x = x < 1.0f ? x : 1.0f;
    return x * x;
}

/* h[j] = screlu(acc[j]); returns sum_j h[j] * w[j] summed in LANES partial sums. */
static inline float screlu_dot(const float *restrict acc, const float *restrict w, float *restrict h, int n)
{
    float lane[LANES] = { 0 };
    int j = 0;
    for (; j + LANES <= n; j += LANES)
        for (int k = 0; k < LANES; k++) {
            h[j + k] = screlu(acc[j + k]);
            lane[k] += h[j + k] * w[j + k];
        }
    for (; j < n; j++) {
        h[j] = screlu(acc[j]);
        lane[0] += h[j] * w[j];
    }
    float sum = 0;
    for (int k = 0; k < LANES; k++)
        sum += lane[k];
    return sum;
}

/* sum_j a[j] * b[j] in LANES partial sums. */
static inline float dot(const float *restrict a, const float *restrict b, int n)
{
    float lane[LANES] = { 0 };
    int j = 0;
    for (; j + LANES <= n; j += LANES)
        for (int k = 0; k < LANES; k++)
            lane[k] += a[j + k] * b[j + k];
    for (; j < n; j++)
        lane[0] += a[j] * b[j];
    float sum = 0;
    for (int k = 0; k < LANES; k++)
        sum += lane[k];
    return sum;
}

/* clamp(x, 0, 1). */
static inline float crelu(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

/* The bucket's second stage on the activations s->h (2 * hidden): fills its sums and activations in s, returns its
 * output. */
static float forward_stage2(const Net *net, int bucket, Scratch *s)
{
    const int l2 = net->shape.l2, l3 = net->shape.l3, in = 2 * net->shape.hidden;
    S2Layers L = train_s2_layers(&net->shape, net->s2_wq, net->s2_b, bucket);
    for (int i = 0; i < l2; i++) {
        s->a2[i] = L.b2[i] + dot(L.w2 + (size_t)i * (size_t)in, s->h, in);
        s->y[i] = crelu(s->a2[i]);
    }
    float out = L.b4[0];
    for (int j = 0; j < l3; j++) {
        s->a3[j] = L.b3[j] + dot(L.w3 + j * l2, s->y, l2);
        s->z[j] = crelu(s->a3[j]);
        out += L.w4[j] * s->z[j];
    }
    return out;
}

/* Forward pass: fills s (accumulators, activations); returns the output (eval / NNUE_SCALE). */
TRAIN_CLONES static float forward(const Net *net, const TrainFeatures *f, Scratch *s)
{
    int n = net->shape.hidden;
    const float *w = net->out_q + (size_t)f->bucket * 2 * (size_t)n;
    float out = net->out_b[f->bucket];
    for (int k = 0; k < 2; k++) {
        float *acc = s->acc[k];
        memcpy(acc, net->ft_bq, (size_t)n * sizeof *acc);
        for (int i = 0; i < f->count[k]; i++)
            vec_add(acc, net->ft_eff + (size_t)f->index[k][i] * (size_t)n, n);
        out += screlu_dot(acc, w + k * n, s->h + k * n, n);
    }
    if (net->shape.l2)
        out += forward_stage2(net, f->bucket, s);
    return out;
}

/* Backward through the bucket's second stage from d(loss)/d(out) = g: adds its parameters' gradient to grad and
 * sets s->dh = d(loss)/d(h) through it. */
static void backward_stage2(const Net *net, int bucket, float g, Scratch *s, Grad *grad)
{
    const int l2 = net->shape.l2, l3 = net->shape.l3, in = 2 * net->shape.hidden;
    S2Layers L = train_s2_layers(&net->shape, net->s2_wq, net->s2_b, bucket);
    S2Layers G = train_s2_layers(&net->shape, grad->s2_w, grad->s2_b, bucket);
    float dy[NNUE_L2_MAX] = { 0 };
    G.b4[0] += g;
    for (int j = 0; j < l3; j++) {
        G.w4[j] += g * s->z[j];
        float da3 = s->a3[j] > 0.0f && s->a3[j] < 1.0f ? g * L.w4[j] : 0.0f;
        if (da3 == 0.0f)
            continue;
        G.b3[j] += da3;
        for (int i = 0; i < l2; i++) {
            G.w3[j * l2 + i] += da3 * s->y[i];
            dy[i] += da3 * L.w3[j * l2 + i];
        }
    }
    memset(s->dh, 0, (size_t)in * sizeof *s->dh);
    for (int i = 0; i < l2; i++) {
        float da2 = s->a2[i] > 0.0f && s->a2[i] < 1.0f ? dy[i] : 0.0f;
        if (da2 == 0.0f)
            continue;
        G.b2[i] += da2;
        float *gw = G.w2 + (size_t)i * (size_t)in;
        const float *w = L.w2 + (size_t)i * (size_t)in;
        for (int j = 0; j < in; j++) {
            gw[j] += da2 * s->h[j];
            s->dh[j] += da2 * w[j];
        }
    }
}

/* Backward pass from d(loss)/d(out) = g: adds the gradient of every parameter the position uses. */
TRAIN_CLONES static void backward(const Net *net, const TrainFeatures *f, float g, Scratch *s, Grad *grad)
{
    int n = net->shape.hidden;
    size_t hn = (size_t)n;
    const float *w = net->out_q + (size_t)f->bucket * 2 * hn;
    float *gw = grad->out_w + (size_t)f->bucket * 2 * hn;
    grad->out_b[f->bucket] += g;
    if (net->shape.l2)
        backward_stage2(net, f->bucket, g, s, grad);
    for (int k = 0; k < 2; k++) {
        const float *acc = s->acc[k], *h = s->h + k * n, *wk = w + k * n;
        const float *dh = net->shape.l2 ? s->dh + k * n : NULL; /* the second stage's share of d loss / d h */
        float *dacc = s->dacc[k], *gwk = gw + k * n;
        for (int j = 0; j < n; j++) {
            float x = acc[j];
            float inside = x > 0.0f ? 2.0f * x : 0.0f; /* the slope of screlu: 2x on (0, 1), else 0 */
            float slope = x < 1.0f ? inside : 0.0f;
            float d = g * wk[j] * slope;
            if (dh)
                d += dh[j] * slope;
            dacc[j] = d;
            gwk[j] += g * h[j];
        }
    }
    for (int j = 0; j < n; j++)
        grad->ft_b[j] += s->dacc[0][j] + s->dacc[1][j];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < f->count[k]; i++) {
            int row = f->index[k][i];
            grad_touch(grad, row);
            vec_add(grad->ft_w + (size_t)row * hn, s->dacc[k], n);
        }
}

/* Float evaluation in centipawns. */
double net_eval_cp(const Net *net, const TrainPos *p, Scratch *s)
{
    TrainFeatures f;
    train_features(p, net->shape.feature_set, &f);
    return (double)forward(net, &f, s) * NNUE_SCALE;
}

/* Loss of a prediction of output `out` for target t. */
static double loss_of(double out, double t, const LossSpec *loss, double *dloss_dout)
{
    double pred = train_sigmoid(out * NNUE_SCALE / loss->k);
    double d = pred - t, a = fabs(d);
    double l = loss->power == 2.0 ? a * a : pow(a, loss->power);
    if (dloss_dout) {
        double dl_dp = loss->power == 2.0 ? 2.0 * d : loss->power * pow(a, loss->power - 1.0) * (d < 0 ? -1.0 : 1.0);
        *dloss_dout = dl_dp * pred * (1.0 - pred) * NNUE_SCALE / loss->k;
    }
    return l;
}

/* Loss of one position. */
double net_loss(const Net *net, const TrainPos *p, const LossSpec *loss, Scratch *s)
{
    TrainFeatures f;
    train_features(p, net->shape.feature_set, &f);
    return loss_of(forward(net, &f, s), train_target(p, loss->k, loss->lambda), loss, NULL);
}

/* Adds weight * gradient of one position's loss to g; returns the loss. */
double net_loss_grad(const Net *net, const TrainPos *p, const LossSpec *loss, float weight, Grad *g, Scratch *s)
{
    TrainFeatures f;
    train_features(p, net->shape.feature_set, &f);
    double dout;
    double l = loss_of(forward(net, &f, s), train_target(p, loss->k, loss->lambda), loss, &dout);
    backward(net, &f, (float)(dout * weight), s, g);
    return l;
}

/* Clamps n floats to [-lim, lim]. */
static void clip_range(float *x, size_t n, float lim)
{
    for (size_t i = 0; i < n; i++)
        x[i] = x[i] < -lim ? -lim : x[i] > lim ? lim : x[i];
}

/* Clips every parameter to its range. */
void net_clip(Net *net)
{
    size_t h = (size_t)net->shape.hidden;
    clip_range(net->ft_w, ((size_t)net->rows + 1) * h, TRAIN_FT_CLIP); /* ft_w, virt, then ft_b */
    clip_range(net->out_w, NNUE_OUTPUT_BUCKETS * 2 * h, TRAIN_OUT_CLIP);
    clip_range(net->out_b, NNUE_OUTPUT_BUCKETS, TRAIN_BIAS_CLIP);
    if (net->shape.l2) {
        clip_range(net->s2_w, nnue_stage2_weights(&net->shape), TRAIN_S2_CLIP);
        clip_range(net->s2_b, nnue_stage2_biases(&net->shape), TRAIN_BIAS_CLIP);
    }
    net_sync(net);
}

/* An output weight on the .nnue grid. */
long net_out_weight_q(float w)
{
    double r = round((double)w * NNUE_QB);
    return r < -NNUE_OUT_WEIGHT_MAX ? -NNUE_OUT_WEIGHT_MAX : r > NNUE_OUT_WEIGHT_MAX ? NNUE_OUT_WEIGHT_MAX : (long)r;
}

/* A first-layer weight on the .nnue grid (round(w * QA) / QA). */
static inline float ft_on_grid(float w) { return roundf(w * NNUE_QA) / NNUE_QA; }

/* ft_eff = clamp(ft_w + its virtual rows, added in their order) for every real input, on the grid with qat. */
static void fold_rows(Net *net)
{
    size_t h = (size_t)net->shape.hidden;
    for (int r = 0; r < net->shape.inputs; r++) {
        int vr[TRAIN_VIRT_MAX], n = train_virtual_rows(net, r, vr);
        float *e = net->ft_eff + (size_t)r * h;
        memcpy(e, net->ft_w + (size_t)r * h, h * sizeof *e);
        for (int k = 0; k < n; k++) /* e = ((w + v0) + v1) + ...: the same sums, row after row */
            vec_add(e, net->ft_w + (size_t)vr[k] * h, (int)h);
        for (size_t j = 0; j < h; j++) {
            float x = e[j];
            e[j] = x < -TRAIN_FT_CLIP ? -TRAIN_FT_CLIP : x > TRAIN_FT_CLIP ? TRAIN_FT_CLIP : x;
            if (net->qat)
                e[j] = ft_on_grid(e[j]);
        }
    }
}

/* Folds the virtual rows into the real ones and zeroes them and their moments. */
void net_unfactorise(Net *net, float *m, float *v)
{
    size_t h = (size_t)net->shape.hidden, real = (size_t)net->shape.inputs * h, vn = (size_t)net->virt_rows * h;
    fold_rows(net);
    memcpy(net->ft_w, net->ft_eff, real * sizeof *net->ft_w);
    memset(net->virt, 0, vn * sizeof *net->virt);
    if (m)
        memset(m + real, 0, vn * sizeof *m);
    if (v)
        memset(v + real, 0, vn * sizeof *v);
}

/* Refreshes ft_eff (the folded rows), ft_bq and out_q. */
void net_sync(Net *net)
{
    fold_rows(net);
    for (int j = 0; j < net->shape.hidden; j++)
        net->ft_bq[j] = net->qat ? ft_on_grid(net->ft_b[j]) : net->ft_b[j];
    size_t n = NNUE_OUTPUT_BUCKETS * 2 * (size_t)net->shape.hidden, n2 = nnue_stage2_weights(&net->shape);
    if (!net->qat) {
        memcpy(net->out_q, net->out_w, n * sizeof *net->out_q);
        if (n2)
            memcpy(net->s2_wq, net->s2_w, n2 * sizeof *net->s2_wq);
        return;
    }
    for (size_t i = 0; i < n; i++)
        net->out_q[i] = (float)net_out_weight_q(net->out_w[i]) / NNUE_QB;
    for (size_t i = 0; i < n2; i++)
        net->s2_wq[i] = roundf(net->s2_w[i] * NNUE_QW) / NNUE_QW;
}
