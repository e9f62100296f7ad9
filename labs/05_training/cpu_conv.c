/*
 * cpu_conv.c - the CPU trainer's vector loops (API and layout: cpu_conv.h).
 * Compiled three times (CMakeLists.txt), L5_CONV_ISA naming the set:
 *   3  AVX-512: 16-float vectors, 32 registers;
 *   2  AVX2 + FMA: 8-float vectors, 16 registers;
 *   1  the compiler's default (SSE2 on x86-64): 4-float vectors.
 * The vectors are GCC's generic vectors (vector_size); each set gets
 * register blocks that fit its registers, so the sums never spill.
 *
 * The plain loops they compute (n pixels, K = rows of X, M = rows of out):
 *   for m, p: out[m][p] = init[m] + sum over r of wt[r][m] * in[off[r] + p]
 *   for m, r: G[m][r] += sum over p of D[m][p] * in[off[r] + p]
 * conv_tile keeps M rows x PV vectors of pixels in registers while r runs,
 * loading PV vectors of X and M weights per r. wgrad_rows keeps MB x RB
 * blocks of G as vectors over pixels, then adds each vector's lanes.
 */
#include "cpu_conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef L5_CONV_ISA
#define L5_CONV_ISA 1
#endif

#if L5_CONV_ISA == 3
#define L5_LANES 16
#define L5_SET(x) x##_avx512
#define L5_SET_NAME "avx512"
#define L5_TILE_M 8 /* conv_tile: 8 rows x 3 vectors, 24 registers of sums */
#define L5_TILE_PV 3
#define L5_TILE6_PV 4 /* 6 rows x 4 vectors */
#define L5_WG4_RB 4   /* wgrad: 4 x 4 and 6 x 4 blocks */
#define L5_WG6_RB 4
#elif L5_CONV_ISA == 2
#define L5_LANES 8
#define L5_SET(x) x##_avx2
#define L5_SET_NAME "avx2"
#else
#define L5_LANES 4
#define L5_SET(x) x##_generic
#define L5_SET_NAME "generic"
#endif
#ifndef L5_TILE_M /* 16 registers: blocks of 12 sums, room for the operands */
#define L5_TILE_M 4
#define L5_TILE_PV 3
#define L5_TILE6_PV 2
#define L5_WG4_RB 3
#define L5_WG6_RB 2
#endif

typedef float l5_vf __attribute__((vector_size(L5_LANES * sizeof(float))));

/* every loop over a block's rows and vectors unrolled: the sums stay in registers */
#define L5_UNROLL _Pragma("GCC unroll 32")
#define L5_LOAD(v, p) memcpy(&(v), (p), sizeof(l5_vf))
#define L5_STORE(p, v) memcpy((p), &(v), sizeof(l5_vf))

/* out[m ldo + p] = init[m] (0 when init is NULL) + sum over r < K, in order,
 * of wt[r ldw + m] in[off[r] + p], for m < M and p < n: runs of PV vectors,
 * then single vectors for the rest of n. */
#define L5_CONV_TILE(NAME, M, PV)                                                                  \
    static void NAME(float *restrict out, size_t ldo, const float *restrict wt, int ldw,           \
                     const float *restrict in, const int *restrict off, int K, size_t n,           \
                     const float *restrict init)                                                   \
    {                                                                                              \
        size_t p = 0;                                                                              \
        for (; p + L5_LANES * (PV) <= n; p += L5_LANES * (PV))                                     \
            L5_CONV_RUN(M, PV)                                                                     \
        for (; p < n; p += L5_LANES)                                                               \
            L5_CONV_RUN(M, 1)                                                                      \
    }
#define L5_CONV_RUN(M, PV)                                                                         \
    {                                                                                              \
        l5_vf acc[M][PV];                                                                          \
        L5_UNROLL                                                                                  \
        for (int m = 0; m < (M); m++)                                                              \
            L5_UNROLL                                                                              \
        for (int v = 0; v < (PV); v++) {                                                           \
            acc[m][v] = (l5_vf){ 0 };                                                              \
            acc[m][v] += init ? init[m] : 0.0f;                                                    \
        }                                                                                          \
        for (int r = 0; r < K; r++) {                                                              \
            const float *x = in + off[r] + p, *w = wt + (size_t)r * ldw;                           \
            l5_vf xv[PV];                                                                          \
            L5_UNROLL                                                                              \
            for (int v = 0; v < (PV); v++)                                                         \
                L5_LOAD(xv[v], x + L5_LANES * v);                                                  \
            L5_UNROLL                                                                              \
            for (int m = 0; m < (M); m++)                                                          \
                L5_UNROLL                                                                          \
            for (int v = 0; v < (PV); v++)                                                         \
                acc[m][v] += w[m] * xv[v];                                                         \
        }                                                                                          \
        L5_UNROLL                                                                                  \
        for (int m = 0; m < (M); m++)                                                              \
            L5_UNROLL                                                                              \
        for (int v = 0; v < (PV); v++)                                                             \
            L5_STORE(out + (size_t)m * ldo + p + L5_LANES * v, acc[m][v]);                         \
    }
L5_CONV_TILE(tile_m, L5_TILE_M, L5_TILE_PV)
L5_CONV_TILE(tile_6, 6, L5_TILE6_PV)

static void conv_tile(float *out, size_t ldo, int M, const float *wt, const float *in,
                      const int *off, int K, size_t n, const float *init)
{
    int m0 = 0;
    for (; M % L5_TILE_M == 0 && m0 < M; m0 += L5_TILE_M)
        tile_m(out + (size_t)m0 * ldo, ldo, wt + m0, M, in, off, K, n, init ? init + m0 : NULL);
    for (; M % 6 == 0 && m0 < M; m0 += 6)
        tile_6(out + (size_t)m0 * ldo, ldo, wt + m0, M, in, off, K, n, init ? init + m0 : NULL);
    for (; m0 < M; m0++) /* other widths: a row at a time, the slow, general way */
        for (size_t p = 0; p < n; p++) {
            float s = init ? init[m0] : 0.0f;
            for (int r = 0; r < K; r++)
                s += wt[(size_t)r * M + m0] * in[off[r] + p];
            out[(size_t)m0 * ldo + p] = s;
        }
}

/* The lanes of v added as a tree: lane i + lane i + L/2, then the same on
 * the first half, ... (a fixed order). */
static inline float lane_sum(const l5_vf *v)
{
    float s[L5_LANES];
    memcpy(s, v, sizeof(s));
    for (int w = L5_LANES / 2; w >= 1; w /= 2)
        for (int i = 0; i < w; i++)
            s[i] += s[i + w];
    return s[0];
}

#if L5_LANES == 16 && (defined(__clang__) || __GNUC__ >= 12) /* __builtin_shufflevector */
/* out[j] = lane_sum(&a[j]) for j < 16, the same tree for 16 vectors at once:
 * each round adds two shuffles of pairs of vectors (15 shuffled additions
 * instead of 16 horizontal sums). */
#define L5_SHUF(x, y, ...) __builtin_shufflevector(x, y, __VA_ARGS__)
static inline void lane_sums_16(float *out, const l5_vf *a)
{
    l5_vf b[8], c[4], d[2], e;
    for (int k = 0; k < 8; k++) /* lanes 0-7: a[2k]'s i + (i + 8), 8-15: a[2k+1]'s */
        b[k] = L5_SHUF(a[2 * k], a[2 * k + 1], 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22,
                       23) +
               L5_SHUF(a[2 * k], a[2 * k + 1], 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29,
                       30, 31);
    for (int k = 0; k < 4; k++) /* 4 lanes each for a[4k .. 4k+3] */
        c[k] = L5_SHUF(b[2 * k], b[2 * k + 1], 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26,
                       27) +
               L5_SHUF(b[2 * k], b[2 * k + 1], 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29,
                       30, 31);
    for (int k = 0; k < 2; k++) /* 2 lanes each for a[8k .. 8k+7] */
        d[k] = L5_SHUF(c[2 * k], c[2 * k + 1], 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28,
                       29) +
               L5_SHUF(c[2 * k], c[2 * k + 1], 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27,
                       30, 31);
    e = L5_SHUF(d[0], d[1], 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30) +
        L5_SHUF(d[0], d[1], 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    L5_STORE(out, e);
}
#endif

/* out[j] = lane_sum(&a[j]) for j < count. */
static inline void lane_sums(float *out, const l5_vf *a, int count)
{
    int j = 0;
#if L5_LANES == 16 && (defined(__clang__) || __GNUC__ >= 12)
    for (; j + 16 <= count; j += 16)
        lane_sums_16(out + j, a + j);
#endif
    for (; j < count; j++)
        out[j] = lane_sum(&a[j]);
}

/* G[m K + r] += sum over p < n of D[m ldd + p] in[off[r] + p], for m < MB
 * and r0 <= r < r0 + RB: the block summed in registers over p, then its
 * lanes added. */
#define L5_WGRAD_BLOCK(NAME, MB, RB)                                                               \
    static void NAME(float *restrict g, int K, const float *restrict d, size_t ldd,                \
                     const float *restrict in, const int *restrict off, int r0, size_t n)          \
    {                                                                                              \
        l5_vf acc[MB][RB];                                                                         \
        float sum[(MB) * (RB)];                                                                    \
        L5_UNROLL                                                                                  \
        for (int i = 0; i < (MB); i++)                                                             \
            L5_UNROLL                                                                              \
        for (int j = 0; j < (RB); j++)                                                             \
            acc[i][j] = (l5_vf){ 0 };                                                              \
        for (size_t p = 0; p < n; p += L5_LANES) {                                                 \
            l5_vf dv[MB], xv[RB];                                                                  \
            L5_UNROLL                                                                              \
            for (int i = 0; i < (MB); i++)                                                         \
                L5_LOAD(dv[i], d + (size_t)i * ldd + p);                                           \
            L5_UNROLL                                                                              \
            for (int j = 0; j < (RB); j++)                                                         \
                L5_LOAD(xv[j], in + off[r0 + j] + p);                                              \
            L5_UNROLL                                                                              \
            for (int i = 0; i < (MB); i++)                                                         \
                L5_UNROLL                                                                          \
            for (int j = 0; j < (RB); j++)                                                         \
                acc[i][j] += dv[i] * xv[j];                                                        \
        }                                                                                          \
        lane_sums(sum, &acc[0][0], (MB) * (RB));                                                   \
        L5_UNROLL                                                                                  \
        for (int i = 0; i < (MB); i++)                                                             \
            L5_UNROLL                                                                              \
        for (int j = 0; j < (RB); j++)                                                             \
            g[(size_t)i * K + r0 + j] += sum[i * (RB) + j];                                        \
    }
L5_WGRAD_BLOCK(wgrad_6xb, 6, L5_WG6_RB)
L5_WGRAD_BLOCK(wgrad_6x1, 6, 1)
L5_WGRAD_BLOCK(wgrad_4xb, 4, L5_WG4_RB)
L5_WGRAD_BLOCK(wgrad_4x1, 4, 1)
L5_WGRAD_BLOCK(wgrad_1x1, 1, 1)

typedef void l5_wgrad_fn(float *, int, const float *, size_t, const float *, const int *, int,
                         size_t);

static void wgrad_rows(float *g, int M, int K, const float *d, size_t ldd, const float *in,
                       const int *off, size_t n)
{
    int mb = M % 6 == 0 ? 6 : M % 4 == 0 ? 4 : 1;
    int rb = mb == 6 ? L5_WG6_RB : L5_WG4_RB;
    l5_wgrad_fn *block = mb == 6 ? wgrad_6xb : mb == 4 ? wgrad_4xb : NULL;
    l5_wgrad_fn *one = mb == 6 ? wgrad_6x1 : mb == 4 ? wgrad_4x1 : wgrad_1x1;
    for (int m = 0; m < M; m += mb) {
        float *gm = g + (size_t)m * K;
        const float *dm = d + (size_t)m * ldd;
        int r = 0;
        for (; block && r + rb <= K; r += rb)
            block(gm, K, dm, ldd, in, off, r, n);
        for (; r < K; r++)
            one(gm, K, dm, ldd, in, off, r, n);
    }
}

static void row_sums(float *restrict g, int M, const float *restrict d, size_t n)
{
    for (int m = 0; m < M; m++) {
        l5_vf acc = { 0 }, v;
        for (size_t p = 0; p < n; p += L5_LANES) {
            L5_LOAD(v, d + (size_t)m * n + p);
            acc += v;
        }
        g[m] += lane_sum(&acc);
    }
}

/* rows rows of n floats from src to dst, inline: the rows here are 2 to 32
 * floats, too short for a memcpy call to pay (it was ~8% of the time).
 * GCC would turn the loop back into memcpy calls; the attribute stops it. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static void
copy_rows(float *restrict dst, size_t dst_stride, const float *restrict src, size_t src_stride,
          int rows, int n)
{
    for (int r = 0; r < rows; r++, dst += dst_stride, src += src_stride) {
        int j = 0;
        for (; j + 4 <= n; j += 4)
            memcpy(dst + j, src + j, 4 * sizeof(float));
        for (; j < n; j++)
            dst[j] = src[j];
    }
}

/* y = max(x, 0). */
static void relu_forward(float *restrict y, const float *restrict x, size_t n)
{
    for (size_t j = 0; j < n; j++)
        y[j] = x[j] > 0.0f ? x[j] : 0.0f;
}

/* dx = dy where the output y is positive. */
static void relu_backward(float *restrict dx, const float *restrict dy, const float *restrict y,
                          size_t n)
{
    for (size_t j = 0; j < n; j++)
        dx[j] = y[j] > 0.0f ? dy[j] : 0.0f;
}

/* 2x2, stride 2, x (C, H, W) to y (C, OH, OW); argmax[o] is the index in x
 * of output o's maximum, the first one on ties (as in PyTorch). When W is
 * even, a channel's pairs of neighbours (x[2k], x[2k+1]) are first reduced
 * to the larger one and where it was (a loop over every pair of the plane,
 * which vectorises), then each output takes the larger of its two pairs,
 * the upper on ties: the same choice as a scan of the window in row-major
 * order replacing on > (NaNs aside). */
static void maxpool_forward(int *restrict argmax, float *restrict y, const float *restrict x, int C,
                            int H, int W, int OH, int OW)
{
    enum { MAX_PAIRS = 1024 };
    float hv[MAX_PAIRS];
    int hi[MAX_PAIRS];
    const int pairs = H * OW;
    for (int c = 0; c < C; c++) {
        const float *xc = x + (size_t)c * H * W;
        if (W == 2 * OW && pairs <= MAX_PAIRS) {
            for (int k = 0; k < pairs; k++) {
                float a = xc[2 * k], b = xc[2 * k + 1];
                hi[k] = b > a;
                hv[k] = b > a ? b : a;
            }
            for (int oy = 0; oy < OH; oy++)
                for (int ox = 0; ox < OW; ox++) {
                    int k0 = 2 * oy * OW + ox, k1 = k0 + OW, low = hv[k1] > hv[k0];
                    int o = (c * OH + oy) * OW + ox;
                    y[o] = low ? hv[k1] : hv[k0];
                    argmax[o] = (c * H + 2 * oy + low) * W + 2 * ox + (low ? hi[k1] : hi[k0]);
                }
            continue;
        }
        for (int oy = 0; oy < OH; oy++) { /* odd widths: scan each window */
            const int row = (c * H + 2 * oy) * W, o0 = (c * OH + oy) * OW;
            for (int ox = 0; ox < OW; ox++) {
                const float *t = x + row + 2 * ox;
                float best = t[0]; /* replaced on > only: the first maximum wins */
                int at = 0;
                at = t[1] > best ? 1 : at;
                best = t[1] > best ? t[1] : best;
                at = t[W] > best ? W : at;
                best = t[W] > best ? t[W] : best;
                at = t[W + 1] > best ? W + 1 : at;
                best = t[W + 1] > best ? t[W + 1] : best;
                y[o0 + ox] = best;
                argmax[o0 + ox] = row + 2 * ox + at;
            }
        }
    }
}

const l5_conv_ops L5_SET(l5_conv_ops) = {
    L5_SET_NAME, conv_tile,    wgrad_rows,    row_sums,
    copy_rows,   relu_forward, relu_backward, maxpool_forward,
};

#if L5_CONV_ISA == 1
/* The other sets exist when CMake built them (x86-64, GCC or Clang). */
#ifdef L5_CONV_X86_SETS
extern const l5_conv_ops l5_conv_ops_avx512, l5_conv_ops_avx2;
#endif

const l5_conv_ops *l5_conv_ops_pick(char *why, size_t why_len)
{
    const l5_conv_ops *best = &l5_conv_ops_generic, *avx2 = NULL, *avx512 = NULL;
#ifdef L5_CONV_X86_SETS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        best = avx2 = &l5_conv_ops_avx2;
    if (avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
        best = avx512 = &l5_conv_ops_avx512;
#endif
    const char *want = getenv("GPULAB_LAB05_ISA");
    if (!want || !*want)
        return best;
    const l5_conv_ops *named = !strcmp(want, "generic")  ? &l5_conv_ops_generic
                               : !strcmp(want, "avx2")   ? avx2
                               : !strcmp(want, "avx512") ? avx512
                                                         : NULL;
    if (!named)
        snprintf(why, why_len,
                 "GPULAB_LAB05_ISA=%s: not an instruction set this build and CPU have (the "
                 "widest here: %s; the names: avx512, avx2, generic)",
                 want, best->name);
    return named;
}
#endif
