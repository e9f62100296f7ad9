// cublas_small.cpp — float GEMMs with a thin side, computed here with AVX-512
// instead of by OpenBLAS, on a processor that has it.
//
// A GEMM whose result is a few columns wide (n <= 16), or whose sum is a few
// terms long (k <= 16), is most of what a CNN's layers ask of cuBLAS once
// im2col has made them products: conv forward (m = pixels, n = output
// channels), its input gradient (k = output channels) and its weight
// gradient (C = A^T B with n = output channels and k = pixels). OpenBLAS
// copies both operands into packed panels before its kernel runs, which for
// these shapes costs about as much as the products, and it chooses its
// kernels from a table of processors: one it does not know (a newer one)
// gets its AVX2 kernels even where AVX-512 runs twice as many FMAs a cycle.
// The kernels here read the operands where they are:
//
//   op(A) = A, n <= 16 or k <= 16, k <= 1024: a tile of 48 rows of C by up
//              to 8 columns in 24 registers; per step of the sum, three
//              loads of A's column and a broadcast of op(B)'s element per
//              column.
//   op(A) = A^T, op(B) = B, n <= 16: C(i, j) is a dot product of two columns
//              that lie along k; a tile of up to 4 rows by 8 columns keeps
//              16 partial sums per pair, in blocks of 512 terms.
//
// Every other shape, type or processor goes to OpenBLAS. beta = 0 means C
// is output only here too: C is not read. The sums are of the same products
// as OpenBLAS's, added in another order (op(A) = A: each in order of k, as a
// plain loop adds them), so results agree to rounding, not bit for bit, as
// cuBLAS's own differ from one GPU to another. GPULAB_SIM_BLAS=openblas sends
// every call to OpenBLAS.
#include "cublas_internal.hpp"

#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GPULAB_SMALL_GEMM 1
#define AVX512 __attribute__((target("avx512f")))
// Loops over a tile's registers, fully unrolled at any -O: an array of
// __m512 indexed in a loop that is not stays in memory.
#define GPULAB_PRAGMA(x) _Pragma(#x)
#define GPULAB_UNROLL GPULAB_PRAGMA(GCC unroll 16)
#endif

namespace gpulab_sim
{
namespace blas
{

#if GPULAB_SMALL_GEMM
namespace
{

bool use_small()
{
    static const bool on = [] {
        const char *s = std::getenv("GPULAB_SIM_BLAS");
        if (s && std::strcmp(s, "openblas") == 0)
            return false;
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") != 0;
    }();
    return on;
}

AVX512 inline __mmask16 rows_mask(long left)
{
    return left >= 16  ? (__mmask16)0xffff
           : left <= 0 ? (__mmask16)0
                       : (__mmask16)((1u << left) - 1);
}

// The sum of v's 16 lanes, pairwise (GCC 12 warns on _mm512_reduce_add_ps).
AVX512 inline float lanes_sum(__m512 v)
{
    alignas(64) float t[16];
    _mm512_store_ps(t, v);
    for (int w = 8; w >= 1; w /= 2)
        for (int i = 0; i < w; i++)
            t[i] += t[i + w];
    return t[0];
}

// C(i, j) = alpha s + beta C(i, j) for 16 rows (those in mask) of column p.
AVX512 inline void put(float *p, __mmask16 mask, __m512 s, float alpha, float beta)
{
    __m512 v = _mm512_mul_ps(_mm512_set1_ps(alpha), s);
    if (beta != 0.0f)
        v = _mm512_fmadd_ps(_mm512_set1_ps(beta), _mm512_maskz_loadu_ps(mask, p), v);
    _mm512_mask_storeu_ps(p, mask, v);
}

// op(A) = A: rows [0, rows) (at most 48) by NC columns of C, the sum over k
// in order; op(B)(kk, j) = B[kk * sbk + j * sbj].
template <int NC>
AVX512 void a_tile(long rows, long k, const float *A, long lda, const float *B, long sbk, long sbj,
                   float alpha, float beta, float *C, long ldc)
{
    const __mmask16 m0 = rows_mask(rows), m1 = rows_mask(rows - 16), m2 = rows_mask(rows - 32);
    __m512 c0[NC], c1[NC], c2[NC];
    GPULAB_UNROLL
    for (int j = 0; j < NC; j++)
        c0[j] = c1[j] = c2[j] = _mm512_setzero_ps();
    for (long kk = 0; kk < k; kk++) {
        const float *a = A + kk * lda, *b = B + kk * sbk;
        __m512 a0 = _mm512_maskz_loadu_ps(m0, a), a1 = _mm512_maskz_loadu_ps(m1, a + 16),
               a2 = _mm512_maskz_loadu_ps(m2, a + 32);
        GPULAB_UNROLL
        for (int j = 0; j < NC; j++) {
            __m512 bj = _mm512_set1_ps(b[j * sbj]);
            c0[j] = _mm512_fmadd_ps(a0, bj, c0[j]);
            c1[j] = _mm512_fmadd_ps(a1, bj, c1[j]);
            c2[j] = _mm512_fmadd_ps(a2, bj, c2[j]);
        }
    }
    GPULAB_UNROLL
    for (int j = 0; j < NC; j++) {
        float *p = C + j * ldc;
        put(p, m0, c0[j], alpha, beta);
        if (m1)
            put(p + 16, m1, c1[j], alpha, beta);
        if (m2)
            put(p + 32, m2, c2[j], alpha, beta);
    }
}

// a_tile for 1 to 8 columns.
using a_tile_fn = void (*)(long, long, const float *, long, const float *, long, long, float, float,
                           float *, long);
const a_tile_fn a_tiles[8] = { a_tile<1>, a_tile<2>, a_tile<3>, a_tile<4>,
                               a_tile<5>, a_tile<6>, a_tile<7>, a_tile<8> };

// Row tiles outer, column blocks inner: a tile's 48 rows of A (k <= 1024
// columns of them) are read from the core's cache for each block of 8
// columns of C.
AVX512 void a_gemm(long m, long n, long k, const float *A, long lda, const float *B, long sbk,
                   long sbj, float alpha, float beta, float *C, long ldc)
{
    for (long i = 0; i < m; i += 48) {
        long rows = m - i < 48 ? m - i : 48;
        for (long j = 0; j < n; j += 8) {
            const float *a = A + i, *b = B + j * sbj;
            float *c = C + i + j * ldc;
            a_tiles[(n - j < 8 ? n - j : 8) - 1](rows, k, a, lda, b, sbk, sbj, alpha, beta, c, ldc);
        }
    }
}

// op(A) = A^T, op(B) = B: S(i, j) += the products A[kk + i lda] B[kk + j ldb]
// over kk < k, in 16 lanes (lane l takes kk = l mod 16), for NI rows (ni of
// them real) and NJ columns of S (16 floats per entry, lds entries apart
// from one column to the next).
template <int NI, int NJ>
AVX512 void t_tile(int ni, long k, const float *A, long lda, const float *B, long ldb, float *S,
                   long lds)
{
    __m512 s[NI][NJ];
    GPULAB_UNROLL
    for (int i = 0; i < NI; i++)
        GPULAB_UNROLL
    for (int j = 0; j < NJ; j++)
        s[i][j] = _mm512_setzero_ps();
    for (long kk = 0; kk < k; kk += 16) {
        __mmask16 mk = rows_mask(k - kk);
        __m512 a[NI];
        GPULAB_UNROLL
        for (int i = 0; i < NI; i++)
            a[i] = _mm512_maskz_loadu_ps(i < ni ? mk : (__mmask16)0, A + i * lda + kk);
        GPULAB_UNROLL
        for (int j = 0; j < NJ; j++) {
            __m512 b = _mm512_maskz_loadu_ps(mk, B + j * ldb + kk);
            GPULAB_UNROLL
            for (int i = 0; i < NI; i++)
                s[i][j] = _mm512_fmadd_ps(a[i], b, s[i][j]);
        }
    }
    GPULAB_UNROLL
    for (int i = 0; i < NI; i++)
        GPULAB_UNROLL
    for (int j = 0; j < NJ; j++)
        if (i < ni) {
            float *p = S + 16 * (i + j * lds);
            _mm512_storeu_ps(p, _mm512_add_ps(_mm512_loadu_ps(p), s[i][j]));
        }
}

// Rows per tile: up to 24 sums in registers, at most 4 rows.
template <int NJ>
AVX512 void t_rows(long m, long k, const float *A, long lda, const float *B, long ldb, float *S,
                   long lds)
{
    constexpr int NI = NJ >= 6 ? 24 / NJ : 4;
    for (long i = 0; i < m; i += NI)
        t_tile<NI, NJ>(m - i < NI ? (int)(m - i) : NI, k, A + i * lda, lda, B, ldb, S + 16 * i,
                       lds);
}

// t_rows for 1 to 8 columns.
using t_rows_fn = void (*)(long, long, const float *, long, const float *, long, float *, long);
const t_rows_fn t_all[8] = { t_rows<1>, t_rows<2>, t_rows<3>, t_rows<4>,
                             t_rows<5>, t_rows<6>, t_rows<7>, t_rows<8> };

// The sums in blocks of 512 terms: a block of 8 of op(B)'s columns (16 KiB)
// stays in the core's first-level cache while every row of A^T takes its
// turn; S (m x n entries of 16 lanes) adds up the blocks' lanes, summed
// once at the end.
AVX512 void t_gemm(long m, long n, long k, const float *A, long lda, const float *B, long ldb,
                   float alpha, float beta, float *C, long ldc)
{
    constexpr long KB = 512;
    std::vector<float> S((size_t)(m * n) * 16, 0.0f);
    for (long k0 = 0; k0 < k; k0 += KB) {
        long kl = k - k0 < KB ? k - k0 : KB;
        for (long j = 0; j < n; j += 8) {
            const float *a = A + k0, *b = B + j * ldb + k0;
            float *s = S.data() + 16 * j * m;
            t_all[(n - j < 8 ? n - j : 8) - 1](m, kl, a, lda, b, ldb, s, m);
        }
    }
    for (long j = 0; j < n; j++)
        for (long i = 0; i < m; i++) {
            float *p = C + i + j * ldc;
            float v = alpha * lanes_sum(_mm512_loadu_ps(&S[16 * (size_t)(i + j * m)]));
            *p = beta != 0.0f ? v + beta * *p : v;
        }
}

} // namespace

bool small_sgemm(const gemm_shape &g, float alpha, const float *A, const float *B, float beta,
                 float *C)
{
    // k = 0 (C = beta C) and alpha = 0 (A and B not read) stay with OpenBLAS.
    if (g.k <= 0 || alpha == 0.0f || !use_small())
        return false;
    bool at = g.ta != CUBLAS_OP_N, bt = g.tb != CUBLAS_OP_N;
    if (!at && (g.n <= 16 || g.k <= 16) && g.k <= 1024) {
        a_gemm(g.m, g.n, g.k, A, g.lda, B, bt ? g.ldb : 1, bt ? 1 : g.ldb, alpha, beta, C, g.ldc);
        return true;
    }
    // op(B) is read again for each tile of rows: at most 1 MiB of it, a
    // size that stays in a core's cache.
    if (at && !bt && g.n <= 16 && g.k >= 64 && (long)g.n * g.k <= (1L << 18)) {
        t_gemm(g.m, g.n, g.k, A, g.lda, B, g.ldb, alpha, beta, C, g.ldc);
        return true;
    }
    return false;
}

#else

bool small_sgemm(const gemm_shape &, float, const float *, const float *, float, float *)
{
    return false;
}

#endif

} // namespace blas
} // namespace gpulab_sim
