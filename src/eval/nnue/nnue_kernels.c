/* nnue_kernels.c - the accumulator update and output kernels: scalar, SSE2 and AVX2 (integer-exact, so equal). */
#include "nnue.h"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#define XQ_X86 1
#define XQ_SSE2 1
#include <immintrin.h>
#elif defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
/* WebAssembly with SIMD (-msimd128 -msse2): Emscripten's SSE2 header maps the SSE2 kernels onto wasm SIMD. */
#define XQ_SSE2 1
#include <emmintrin.h>
#endif

/* Scalar: out = in + add rows - sub rows. */
static void update_scalar(int16_t *out, const int16_t *in, const int16_t *const *add, int n_add,
                          const int16_t *const *sub, int n_sub, int n)
{
    for (int i = 0; i < n; i++) {
        int v = in[i];
        for (int a = 0; a < n_add; a++)
            v += add[a][i];
        for (int b = 0; b < n_sub; b++)
            v -= sub[b][i];
        out[i] = (int16_t)v;
    }
}

/* Scalar: sum of clamp(acc, 0, QA)^2 * weight over both perspectives. */
static int64_t output_scalar(const int16_t *stm, const int16_t *other, const int16_t *weight, int n)
{
    int64_t sum = 0;
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = half ? other : stm;
        const int16_t *w = weight + half * n;
        for (int i = 0; i < n; i++) {
            int v = acc[i] < 0 ? 0 : (acc[i] > NNUE_QA ? NNUE_QA : acc[i]);
            sum += (int64_t)(v * w[i]) * v;
        }
    }
    return sum;
}

enum { X_ROUND = 1 << (NNUE_X_SHIFT - 1) }; /* the second stage's input rounds to nearest */

/* Scalar: the second stage's input from both perspectives' accumulators. */
static void stage2_input_scalar(int16_t *x, const int16_t *stm, const int16_t *other, int n)
{
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = half ? other : stm;
        for (int i = 0; i < n; i++) {
            int v = acc[i] < 0 ? 0 : (acc[i] > NNUE_QA ? NNUE_QA : acc[i]);
            x[half * n + i] = (int16_t)((v * v + X_ROUND) >> NNUE_X_SHIFT);
        }
    }
}

/* Scalar: out[o] = bias[o] + row o of w . x. */
static void affine_scalar(int32_t *out, const int16_t *x, const int16_t *w, const int32_t *bias, int n_in, int n_out)
{
    for (int o = 0; o < n_out; o++) {
        const int16_t *row = w + (size_t)o * (size_t)n_in;
        int32_t sum = bias[o];
        for (int i = 0; i < n_in; i++)
            sum += x[i] * row[i];
        out[o] = sum;
    }
}

#ifdef XQ_SSE2
enum { SSE_LANES = 8, AVX_LANES = 16, FLUSH_STEPS = 64 };

/* Sum of the four 32-bit lanes, in 64 bits. */
static int64_t sum_lanes_sse2(__m128i sum)
{
    int32_t lanes[4];
    _mm_storeu_si128((__m128i *)lanes, sum);
    return (int64_t)lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

/* SSE2: out = in + add rows - sub rows. */
static void update_sse2(int16_t *out, const int16_t *in, const int16_t *const *add, int n_add,
                        const int16_t *const *sub, int n_sub, int n)
{
    if (n_add == 1 && n_sub == 1) { /* a quiet move: one pass with both rows held (no inner loops) */
        const int16_t *a0 = add[0], *s0 = sub[0];
        for (int i = 0; i < n; i += SSE_LANES) {
            __m128i v =
                _mm_add_epi16(_mm_loadu_si128((const __m128i *)(in + i)), _mm_loadu_si128((const __m128i *)(a0 + i)));
            _mm_storeu_si128((__m128i *)(out + i), _mm_sub_epi16(v, _mm_loadu_si128((const __m128i *)(s0 + i))));
        }
        return;
    }
    if (n_add == 1 && n_sub == 2) { /* a capture */
        const int16_t *a0 = add[0], *s0 = sub[0], *s1 = sub[1];
        for (int i = 0; i < n; i += SSE_LANES) {
            __m128i v =
                _mm_add_epi16(_mm_loadu_si128((const __m128i *)(in + i)), _mm_loadu_si128((const __m128i *)(a0 + i)));
            v = _mm_sub_epi16(v, _mm_loadu_si128((const __m128i *)(s0 + i)));
            _mm_storeu_si128((__m128i *)(out + i), _mm_sub_epi16(v, _mm_loadu_si128((const __m128i *)(s1 + i))));
        }
        return;
    }
    for (int i = 0; i < n; i += SSE_LANES) {
        __m128i v = _mm_loadu_si128((const __m128i *)(in + i));
        for (int a = 0; a < n_add; a++)
            v = _mm_add_epi16(v, _mm_loadu_si128((const __m128i *)(add[a] + i)));
        for (int b = 0; b < n_sub; b++)
            v = _mm_sub_epi16(v, _mm_loadu_si128((const __m128i *)(sub[b] + i)));
        _mm_storeu_si128((__m128i *)(out + i), v);
    }
}

/* SSE2: sum over acc[0..n) of clamp(acc) * w * clamp(acc), into the 32-bit lanes of sum (at most FLUSH_STEPS
 * steps of SSE_LANES values). */
static inline __attribute__((always_inline)) __m128i output_span_sse2(__m128i sum, const int16_t *acc,
                                                                      const int16_t *w, int n)
{
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA);
    for (int i = 0; i < n; i += SSE_LANES) {
        __m128i v = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128((const __m128i *)(acc + i)), zero), qa);
        __m128i t = _mm_mullo_epi16(v, _mm_loadu_si128((const __m128i *)(w + i)));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(t, v));
    }
    return sum;
}

/* SSE2: the output sum; clamp(acc) * w fits 16 bits (|w| <= 127), madd pairs it with clamp(acc) into 32. A
 * 32-bit lane holds at most FLUSH_STEPS pair sums of 2 * 255^2 * 127 (about 1.06e9): a width whose two halves
 * take more steps is summed in spans of that many, each emptied into a 64-bit total. */
static int64_t output_sse2(const int16_t *stm, const int16_t *other, const int16_t *weight, int n)
{
    if (2 * n <= FLUSH_STEPS * SSE_LANES) /* both halves in one span (width 256) */
        return sum_lanes_sse2(output_span_sse2(output_span_sse2(_mm_setzero_si128(), stm, weight, n), other,
                                               weight + n, n));
    int64_t total = 0;
    for (int half = 0; half < 2; half++)
        for (int c = 0; c < n; c += FLUSH_STEPS * SSE_LANES) {
            const int len = n - c < FLUSH_STEPS * SSE_LANES ? n - c : FLUSH_STEPS * SSE_LANES;
            total += sum_lanes_sse2(output_span_sse2(_mm_setzero_si128(), (half ? other : stm) + c,
                                                     weight + half * n + c, len));
        }
    return total;
}

/* SSE2: the second stage's input; clamp(acc)^2 + 2^8 <= 65281 fits 16 bits unsigned, so mullo's low half and a
 * logical shift give it exactly. */
static void stage2_input_sse2(int16_t *x, const int16_t *stm, const int16_t *other, int n)
{
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA), round = _mm_set1_epi16(X_ROUND);
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = half ? other : stm;
        for (int i = 0; i < n; i += SSE_LANES) {
            __m128i v = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128((const __m128i *)(acc + i)), zero), qa);
            v = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(v, v), round), NNUE_X_SHIFT);
            _mm_storeu_si128((__m128i *)(x + half * n + i), v);
        }
    }
}

/* SSE2: the affine layer, madd pairs summed in four 32-bit lanes (no lane can overflow: nnue_arch.h). */
static void affine_sse2(int32_t *out, const int16_t *x, const int16_t *w, const int32_t *bias, int n_in, int n_out)
{
    for (int o = 0; o < n_out; o++) {
        const int16_t *row = w + (size_t)o * (size_t)n_in;
        __m128i sum = _mm_setzero_si128();
        for (int i = 0; i < n_in; i += SSE_LANES)
            sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(x + i)),
                                                    _mm_loadu_si128((const __m128i *)(row + i))));
        out[o] = bias[o] + (int32_t)sum_lanes_sse2(sum);
    }
}

#endif

#ifdef XQ_X86
/* AVX2: out = in + add rows - sub rows. */
__attribute__((target("avx2"))) static void update_avx2(int16_t *out, const int16_t *in, const int16_t *const *add,
                                                        int n_add, const int16_t *const *sub, int n_sub, int n)
{
    if (n_add == 1 && n_sub == 1) { /* a quiet move: one pass with both rows held (no inner loops) */
        const int16_t *a0 = add[0], *s0 = sub[0];
        for (int i = 0; i < n; i += AVX_LANES) {
            __m256i v = _mm256_add_epi16(_mm256_loadu_si256((const __m256i *)(in + i)),
                                         _mm256_loadu_si256((const __m256i *)(a0 + i)));
            _mm256_storeu_si256((__m256i *)(out + i),
                                _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(s0 + i))));
        }
        return;
    }
    if (n_add == 1 && n_sub == 2) { /* a capture */
        const int16_t *a0 = add[0], *s0 = sub[0], *s1 = sub[1];
        for (int i = 0; i < n; i += AVX_LANES) {
            __m256i v = _mm256_add_epi16(_mm256_loadu_si256((const __m256i *)(in + i)),
                                         _mm256_loadu_si256((const __m256i *)(a0 + i)));
            v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(s0 + i)));
            _mm256_storeu_si256((__m256i *)(out + i),
                                _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(s1 + i))));
        }
        return;
    }
    for (int i = 0; i < n; i += AVX_LANES) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(in + i));
        for (int a = 0; a < n_add; a++)
            v = _mm256_add_epi16(v, _mm256_loadu_si256((const __m256i *)(add[a] + i)));
        for (int b = 0; b < n_sub; b++)
            v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(sub[b] + i)));
        _mm256_storeu_si256((__m256i *)(out + i), v);
    }
}

/* Sum of the eight 32-bit lanes, in 64 bits. */
__attribute__((target("avx2"))) static int64_t sum_lanes_avx2(__m256i sum)
{
    int32_t lanes[8];
    _mm256_storeu_si256((__m256i *)lanes, sum);
    int64_t total = 0;
    for (int k = 0; k < 8; k++)
        total += lanes[k];
    return total;
}

/* AVX2: as output_span_sse2 with twice the lanes. */
__attribute__((target("avx2"), always_inline)) static inline __m256i output_span_avx2(__m256i sum, const int16_t *acc,
                                                                                    const int16_t *w, int n)
{
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    for (int i = 0; i < n; i += AVX_LANES) {
        __m256i v = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(acc + i)), zero), qa);
        __m256i t = _mm256_mullo_epi16(v, _mm256_loadu_si256((const __m256i *)(w + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(t, v));
    }
    return sum;
}

/* AVX2: the output sum, as output_sse2 with twice the lanes (widths up to 512 in one span). */
__attribute__((target("avx2"))) static int64_t output_avx2(const int16_t *stm, const int16_t *other,
                                                           const int16_t *weight, int n)
{
    if (n == NNUE_HIDDEN_V1) /* the shipped width, its loops unrolled as a constant */
        return sum_lanes_avx2(output_span_avx2(output_span_avx2(_mm256_setzero_si256(), stm, weight, NNUE_HIDDEN_V1),
                                               other, weight + NNUE_HIDDEN_V1, NNUE_HIDDEN_V1));
    if (2 * n <= FLUSH_STEPS * AVX_LANES)
        return sum_lanes_avx2(output_span_avx2(output_span_avx2(_mm256_setzero_si256(), stm, weight, n), other,
                                               weight + n, n));
    int64_t total = 0;
    for (int half = 0; half < 2; half++)
        for (int c = 0; c < n; c += FLUSH_STEPS * AVX_LANES) {
            const int len = n - c < FLUSH_STEPS * AVX_LANES ? n - c : FLUSH_STEPS * AVX_LANES;
            total += sum_lanes_avx2(output_span_avx2(_mm256_setzero_si256(), (half ? other : stm) + c,
                                                     weight + half * n + c, len));
        }
    return total;
}
/* AVX2: as stage2_input_sse2 with twice the lanes. */
__attribute__((target("avx2"))) static void stage2_input_avx2(int16_t *x, const int16_t *stm, const int16_t *other,
                                                              int n)
{
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA), round = _mm256_set1_epi16(X_ROUND);
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = half ? other : stm;
        for (int i = 0; i < n; i += AVX_LANES) {
            __m256i v = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(acc + i)), zero), qa);
            v = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(v, v), round), NNUE_X_SHIFT);
            _mm256_storeu_si256((__m256i *)(x + half * n + i), v);
        }
    }
}

/* AVX2: the affine layer, four rows at a time sharing each load of x (madd pairs in 32-bit lanes). */
__attribute__((target("avx2"))) static void affine_avx2(int32_t *out, const int16_t *x, const int16_t *w,
                                                        const int32_t *bias, int n_in, int n_out)
{
    enum { ROWS = 4 };
    int o = 0;
    for (; o + ROWS <= n_out; o += ROWS) {
        const int16_t *r0 = w + (size_t)o * (size_t)n_in, *r1 = r0 + n_in, *r2 = r1 + n_in, *r3 = r2 + n_in;
        __m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
        for (int i = 0; i < n_in; i += AVX_LANES) {
            const __m256i v = _mm256_loadu_si256((const __m256i *)(x + i));
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(v, _mm256_loadu_si256((const __m256i *)(r0 + i))));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(v, _mm256_loadu_si256((const __m256i *)(r1 + i))));
            s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(v, _mm256_loadu_si256((const __m256i *)(r2 + i))));
            s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(v, _mm256_loadu_si256((const __m256i *)(r3 + i))));
        }
        out[o] = bias[o] + (int32_t)sum_lanes_avx2(s0);
        out[o + 1] = bias[o + 1] + (int32_t)sum_lanes_avx2(s1);
        out[o + 2] = bias[o + 2] + (int32_t)sum_lanes_avx2(s2);
        out[o + 3] = bias[o + 3] + (int32_t)sum_lanes_avx2(s3);
    }
    for (; o < n_out; o++) {
        const int16_t *row = w + (size_t)o * (size_t)n_in;
        __m256i sum = _mm256_setzero_si256();
        for (int i = 0; i < n_in; i += AVX_LANES)
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(x + i)),
                                                          _mm256_loadu_si256((const __m256i *)(row + i))));
        out[o] = bias[o] + (int32_t)sum_lanes_avx2(sum);
    }
}
#endif

static const NnueKernels KERNELS[NNUE_SIMD_LEVELS] = {
    { NNUE_SCALAR, "scalar", update_scalar, output_scalar, stage2_input_scalar, affine_scalar },
#ifdef XQ_SSE2
    { NNUE_SSE2, "sse2", update_sse2, output_sse2, stage2_input_sse2, affine_sse2 },
#endif
#ifdef XQ_X86
    { NNUE_AVX2, "avx2", update_avx2, output_avx2, stage2_input_avx2, affine_avx2 },
#endif
};

/* The kernels of a level, or NULL where this CPU or build cannot run them. */
const NnueKernels *nnue_kernels(NnueSimd level)
{
    switch (level) {
    case NNUE_SCALAR: return &KERNELS[NNUE_SCALAR];
#if defined(XQ_SSE2) && !defined(XQ_X86)
    case NNUE_SSE2: return &KERNELS[NNUE_SSE2]; /* wasm SIMD: a runtime without it cannot load the module */
#endif
#ifdef XQ_X86
    case NNUE_SSE2: return __builtin_cpu_supports("sse2") ? &KERNELS[NNUE_SSE2] : NULL;
    case NNUE_AVX2: return __builtin_cpu_supports("avx2") ? &KERNELS[NNUE_AVX2] : NULL;
#endif
    default: return NULL;
    }
}

/* The widest kernels this CPU runs. */
const NnueKernels *nnue_best_kernels(void)
{
    for (int level = NNUE_SIMD_LEVELS - 1; level > NNUE_SCALAR; level--) {
        const NnueKernels *k = nnue_kernels((NnueSimd)level);
        if (k)
            return k;
    }
    return &KERNELS[NNUE_SCALAR];
}
