// 41_half_arithmetic — __half and __nv_bfloat16 arithmetic is the exact
// result rounded once (to nearest even): +, -, *, / and fma on random
// operands, the pair forms and their operators, comparisons with NaN,
// __hmax/__hmin, math functions (within an ulp), shuffles of halves,
// atomicAdd on __half and __half2, and a half-precision axpy with __hfma2.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>

#include "conformance.h"

#define N 8192
#define OPS 6 // add, sub, mul, div, fma, pair add (low lane of __hadd2)

static double decode(unsigned b, int mb, int eb)
{
    int bias = (1 << (eb - 1)) - 1;
    unsigned mant = b & ((1u << mb) - 1), ex = (b >> mb) & ((1u << eb) - 1);
    double v = ex ? ldexp((double)(mant | (1u << mb)), (int)ex - bias - mb)
                  : ldexp((double)mant, 1 - bias - mb);
    return (b >> (mb + eb)) & 1u ? -v : v;
}

// x (exact) rounded to nearest even in the format of tab (see 40_half_conversions).
static unsigned ref_rn(double x, const double *tab, unsigned n)
{
    unsigned sign = signbit(x) ? 0x8000u : 0u;
    double a = fabs(x);
    if (a >= tab[n])
        return sign | n;
    unsigned lo = 0, hi = n;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (tab[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    if (tab[lo] == a)
        return sign | lo;
    double m = (tab[lo] + tab[hi]) / 2;
    return sign | (a < m ? lo : a > m ? hi : (lo & 1u ? hi : lo));
}

__global__ void half_ops(int n, const unsigned short *a, const unsigned short *b,
                         const unsigned short *c, unsigned short *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
    out[OPS * i + 0] = __half_as_ushort(__hadd(x, y));
    out[OPS * i + 1] = __half_as_ushort(x - y);
    out[OPS * i + 2] = __half_as_ushort(__hmul(x, y));
    out[OPS * i + 3] = __half_as_ushort(__hdiv(x, y));
    out[OPS * i + 4] = __half_as_ushort(__hfma(x, y, z));
    __half2 p = __hadd2(__halves2half2(x, z), __halves2half2(y, z));
    out[OPS * i + 5] = __half_as_ushort(__low2half(p));
}

__global__ void bf16_ops(int n, const unsigned short *a, const unsigned short *b,
                         const unsigned short *c, unsigned short *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 x = __ushort_as_bfloat16(a[i]), y = __ushort_as_bfloat16(b[i]),
                  z = __ushort_as_bfloat16(c[i]);
    out[OPS * i + 0] = __bfloat16_as_ushort(__hadd(x, y));
    out[OPS * i + 1] = __bfloat16_as_ushort(__hsub(x, y));
    out[OPS * i + 2] = __bfloat16_as_ushort(x * y);
    out[OPS * i + 3] = __bfloat16_as_ushort(__hdiv(x, y));
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    out[OPS * i + 4] = __bfloat16_as_ushort(__hfma(x, y, z));
#else
    out[OPS * i + 4] = 0xFFFF; // no bfloat16 fma before sm_80: not checked
#endif
    __nv_bfloat162 p = __hmul2(__halves2bfloat162(x, z), __halves2bfloat162(y, z));
    out[OPS * i + 5] = __bfloat16_as_ushort(__low2bfloat16(p));
}

// Compares one format's results with the reference. Division is checked by
// its defining property: the result's neighbours' midpoints bracket a / b.
static void check_ops(const char *fmt, const unsigned short *a, const unsigned short *b,
                      const unsigned short *c, const unsigned short *out, int mb, int eb,
                      const double *tab, unsigned n)
{
    int bad = 0, fma_tested = 0;
    for (int i = 0; i < N; i++) {
        double x = decode(a[i], mb, eb), y = decode(b[i], mb, eb), z = decode(c[i], mb, eb);
        double exact[OPS] = { x + y, x - y, x * y, 0, 0, eb == 8 ? x * y : x + y };
        for (int op = 0; op < OPS; op++) {
            unsigned got = out[OPS * i + op];
            int ok = 1;
            if (op == 3) {
                if (y == 0 || x == 0)
                    continue;
                double r = decode(got, mb, eb), ax = fabs(x), ay = fabs(y);
                unsigned rb = got & 0x7fffu;
                if (rb >= n || signbit(r) != signbit(x / y)) {
                    ok = rb == n && (tab[n - 1] + tab[n]) / 2 * ay <= ax; // overflow
                } else {
                    double lo = rb ? (tab[rb - 1] + tab[rb]) / 2 : 0,
                           hi = (tab[rb] + tab[rb + 1]) / 2;
                    // lo <= |x| / |y| <= hi, exactly: the products fit in a double.
                    ok = lo * ay <= ax && ax <= hi * ay;
                    if (ok && (lo * ay == ax || hi * ay == ax))
                        ok = !(rb & 1u); // a tie goes to the even neighbour
                }
            } else if (op == 4) {
                // Only where a * b + c is exact in float (as every GPU path computes it then).
                double s = x * y + z;
                if ((double)(float)s != s || s - z != x * y || s - x * y != z || got == 0xFFFF)
                    continue;
                fma_tested++;
                ok = got == ref_rn(s, tab, n);
            } else {
                ok = got == ref_rn(exact[op], tab, n);
            }
            if (!ok && bad++ < 8)
                conf_check(0, "%s op %d: %.9g, %.9g, %.9g gave 0x%04x (%.9g)", fmt, op, x, y, z,
                           got, decode(got, mb, eb));
        }
    }
    conf_check(bad == 0, "%s: %d results not correctly rounded", fmt, bad);
    conf_check(fma_tested > N / 8 || (eb == 8 && out[4] == 0xFFFF),
               "%s: only %d fma cases could be checked", fmt, fma_tested);
}

// Comparisons, NaN tests, max/min and math functions on fixed values.
__global__ void intrinsics(int *flags, float *math)
{
    __half one = __float2half(1.0f), two = __float2half(2.0f);
    __half nan = __ushort_as_half(0x7E00), inf = __ushort_as_half(0x7C00);
    int k = 0;
    flags[k++] = __heq(one, one) && !__heq(one, two) && __hlt(one, two) && __hle(two, two);
    flags[k++] = __hgt(two, one) && __hge(one, one) && __hne(one, two) && !__hne(one, nan);
    flags[k++] = !__heq(nan, nan) && !__hlt(nan, one) && __hneu(one, nan) && __hltu(nan, one);
    flags[k++] = __hisnan(nan) && !__hisnan(inf) && __hisinf(inf) == 1 &&
                 __hisinf(__hneg(inf)) == -1 && __hisinf(one) == 0;
    flags[k++] = __half2float(__hmax(one, two)) == 2.0f && __half2float(__hmin(one, two)) == 1.0f &&
                 __half2float(__hmax(nan, two)) == 2.0f && __half2float(__hmin(one, nan)) == 1.0f &&
                 __hisnan(__hmax_nan(one, nan));
    flags[k++] = __half2float(__habs(__float2half(-3.5f))) == 3.5f &&
                 __half2float(__hneg(one)) == -1.0f && __half2float(-two) == -2.0f;
    flags[k++] =
        (one < two) && (two > one) && (one != two) && (one == one) && (nan != nan) && !(nan == nan);
    __half2 p = __halves2half2(one, nan), q = __halves2half2(one, one);
    flags[k++] = __hbeq2(q, q) && !__hbeq2(p, q) && __heq2_mask(p, q) == 0x0000FFFFu &&
                 __half2float(__low2half(__heq2(p, q))) == 1.0f &&
                 __half2float(__high2half(__heq2(p, q))) == 0.0f;
    flags[k++] =
        __half2float(__hadd_sat(one, two)) == 1.0f && __half2float(__hsub_sat(one, two)) == 0.0f;
    __nv_bfloat16 b1 = __float2bfloat16(1.0f), b3 = __float2bfloat16(3.0f);
    flags[k++] = __hlt(b1, b3) && __heq(b1, b1) && __bfloat162float(__hmax(b1, b3)) == 3.0f &&
                 __bfloat162float(__hneg(b3)) == -3.0f && !__hisnan(b1);
    flags[k++] = __half2int_rn(__float2half(2.5f)) == 2 && __half2int_rn(__float2half(3.5f)) == 4 &&
                 __half2int_rz(__float2half(-2.75f)) == -2;
    // The pair operators: a comparison holds when it holds for both halves
    // (so p != q is false: their low halves are equal); ++ adds 1 to each.
    __half2 r = q;
    r += q;
    ++r;
    __nv_bfloat162 c = __floats2bfloat162_rn(1.0f, 3.0f), d = c++;
    flags[k++] = (q < r) && (r > q) && (q <= q) && (r >= q) && !(p == q) && (r != q) && !(p != q) &&
                 !(__halves2half2(one, two) < __halves2half2(two, one)) && (+r == r) &&
                 __low2float(r) == 3.0f && __high2float(-r) == -3.0f && (d < c) &&
                 __high2float(c) == 4.0f && __low2float(--c) == 1.0f;
    int m = 0;
    __half v = __float2half(0.75f);
    math[m++] = __half2float(hexp(v));
    math[m++] = __half2float(hlog(v));
    math[m++] = __half2float(hsqrt(v));
    math[m++] = __half2float(hrsqrt(v));
    math[m++] = __half2float(hrcp(v));
    math[m++] = __half2float(hsin(v));
    math[m++] = __half2float(hcos(v));
    math[m++] = __half2float(hexp2(v));
    math[m++] = __half2float(hlog2(v));
    __half2 e = h2exp(__halves2half2(v, two));
    math[m++] = __half2float(__low2half(e));
    math[m++] = __half2float(__high2half(e));
    math[m++] = __bfloat162float(hexp(__float2bfloat16(0.75f)));
    math[m++] = __bfloat162float(hsqrt(__float2bfloat16(2.0f)));
}

// A warp-wide half2 sum through __shfl_down_sync and a bfloat16 butterfly with
// __shfl_xor_sync (exact: small integers), then __shfl_sync of a __half.
__global__ void shuffles(float *out)
{
    int lane = threadIdx.x;
    __half2 v = __floats2half2_rn((float)lane, (float)(2 * lane));
    for (int d = 16; d > 0; d /= 2)
        v = __hadd2(v, __shfl_down_sync(0xffffffffu, v, d));
    __nv_bfloat16 b = __float2bfloat16((float)(lane + 1));
    for (int d = 1; d < 32; d *= 2)
        b = __hadd(b, __shfl_xor_sync(0xffffffffu, b, d));
    __half h = __shfl_sync(0xffffffffu, __float2half((float)lane * 0.5f), 31 - lane);
    __half u = __shfl_up_sync(0xffffffffu, __float2half((float)lane), 1);
    if (lane == 0) {
        out[0] = __low2float(v);
        out[1] = __high2float(v);
    }
    out[2 + lane] = __bfloat162float(b);
    out[34 + lane] = __half2float(h);
    out[66 + lane] = __half2float(u);
}

__global__ void atomics(__half *h, __half2 *h2)
{
    atomicAdd(h, __float2half(1.0f));
    atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
}

// y = a x + y on pairs of halves.
__global__ void haxpy(int n2, __half a, const __half2 *x, __half2 *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2)
        y[i] = __hfma2(__halves2half2(a, a), x[i], y[i]);
}

static void run_ops(const char *fmt, int bf16, const double *tab, unsigned n, unsigned *seed)
{
    static unsigned short a[N], b[N], c[N], out[OPS * N];
    for (int i = 0; i < N; i++) {
        unsigned short *v[3] = { a, b, c };
        for (int j = 0; j < 3; j++) {
            unsigned r = conf_lcg(seed);
            if (bf16) // exponents within 2^-8 .. 2^8: sums and products exact in double
                v[j][i] = (unsigned short)((r & 0x807Fu) | ((119u + (r >> 8) % 17u) << 7));
            else // any finite half
                v[j][i] = (unsigned short)((r & 0x8000u) | ((r >> 1) % 0x7C00u));
        }
    }
    unsigned short *da, *db, *dc, *dout;
    CHECK_CUDA(cudaMalloc(&da, sizeof a));
    CHECK_CUDA(cudaMalloc(&db, sizeof b));
    CHECK_CUDA(cudaMalloc(&dc, sizeof c));
    CHECK_CUDA(cudaMalloc(&dout, sizeof out));
    CHECK_CUDA(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
    if (bf16)
        bf16_ops<<<N / 256, 256>>>(N, da, db, dc, dout);
    else
        half_ops<<<N / 256, 256>>>(N, da, db, dc, dout);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    check_ops(fmt, a, b, c, out, bf16 ? 7 : 10, bf16 ? 8 : 5, tab, n);
    CHECK_CUDA(cudaFree(da));
    CHECK_CUDA(cudaFree(db));
    CHECK_CUDA(cudaFree(dc));
    CHECK_CUDA(cudaFree(dout));
}

int main(void)
{
    conf_require_device();
    static double htab[0x7C01], btab[0x7F81];
    for (unsigned k = 0; k < 0x7C00; k++)
        htab[k] = decode(k, 10, 5);
    htab[0x7C00] = 65536.0;
    for (unsigned k = 0; k < 0x7F80; k++)
        btab[k] = decode(k, 7, 8);
    btab[0x7F80] = ldexp(1.0, 128);
    unsigned seed = 12345;
    run_ops("half", 0, htab, 0x7C00, &seed);
    run_ops("bf16", 1, btab, 0x7F80, &seed);

    int *dflags, flags[16];
    float *dmath, mathv[16];
    CHECK_CUDA(cudaMalloc(&dflags, sizeof flags));
    CHECK_CUDA(cudaMalloc(&dmath, sizeof mathv));
    CHECK_CUDA(cudaMemset(dflags, 0, sizeof flags));
    intrinsics<<<1, 1>>>(dflags, dmath);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(flags, dflags, sizeof flags, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(mathv, dmath, sizeof mathv, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 12; k++)
        conf_check(flags[k] == 1, "intrinsic group %d", k);
    double x = 0.75;
    double want[13] = { exp(x),  log(x),  sqrt(x), 1 / sqrt(x), 1 / x,  sin(x),   cos(x),
                        exp2(x), log2(x), exp(x),  exp(2.0),    exp(x), sqrt(2.0) };
    for (int k = 0; k < 13; k++) {
        double tol = (k >= 11 ? 1.0 / 128 : 1.0 / 1024) * fabs(want[k]); // one ulp
        conf_check(fabs(mathv[k] - want[k]) <= tol, "math %d: got %.7g, want %.7g", k, mathv[k],
                   want[k]);
    }

    float *dsh, sh[98];
    CHECK_CUDA(cudaMalloc(&dsh, sizeof sh));
    shuffles<<<1, 32>>>(dsh);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(sh, dsh, sizeof sh, cudaMemcpyDeviceToHost));
    conf_check(sh[0] == 496.0f && sh[1] == 992.0f, "half2 shfl_down sum: %g %g", sh[0], sh[1]);
    for (int lane = 0; lane < 32; lane++) {
        conf_check(sh[2 + lane] == 528.0f, "bf16 xor sum lane %d: %g", lane, sh[2 + lane]);
        conf_check(sh[34 + lane] == (31 - lane) * 0.5f, "half shfl lane %d: %g", lane,
                   sh[34 + lane]);
        conf_check(sh[66 + lane] == (float)(lane ? lane - 1 : 0), "half shfl_up lane %d: %g", lane,
                   sh[66 + lane]);
    }

    __half *dh;
    __half2 *dh2;
    CHECK_CUDA(cudaMalloc(&dh, sizeof(__half)));
    CHECK_CUDA(cudaMalloc(&dh2, sizeof(__half2)));
    CHECK_CUDA(cudaMemset(dh, 0, sizeof(__half)));
    CHECK_CUDA(cudaMemset(dh2, 0, sizeof(__half2)));
    atomics<<<4, 256>>>(dh, dh2);
    CHECK_CUDA(cudaGetLastError());
    __half hsum;
    __half2 h2sum;
    CHECK_CUDA(cudaMemcpy(&hsum, dh, sizeof hsum, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&h2sum, dh2, sizeof h2sum, cudaMemcpyDeviceToHost));
    conf_check(__half2float(hsum) == 1024.0f, "atomicAdd(__half): %g", __half2float(hsum));
    conf_check(__low2float(h2sum) == 1024.0f && __high2float(h2sum) == 2048.0f,
               "atomicAdd(__half2): %g %g", __low2float(h2sum), __high2float(h2sum));

    // axpy: a = 0.5, x and y in [-8, 8): every a x + y is exact in double.
    enum { NH = 4096 };
    static __half2 hx[NH], hy[NH], hr[NH];
    for (int i = 0; i < NH; i++) {
        hx[i] = __floats2half2_rn(conf_lcg_float(&seed, -8, 8), conf_lcg_float(&seed, -8, 8));
        hy[i] = __floats2half2_rn(conf_lcg_float(&seed, -8, 8), conf_lcg_float(&seed, -8, 8));
    }
    __half2 *dx, *dy;
    CHECK_CUDA(cudaMalloc(&dx, sizeof hx));
    CHECK_CUDA(cudaMalloc(&dy, sizeof hy));
    CHECK_CUDA(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice));
    haxpy<<<NH / 128, 128>>>(NH, __float2half(0.5f), dx, dy);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(hr, dy, sizeof hr, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < NH; i++) {
        double wx = 0.5 * __low2float(hx[i]) + __low2float(hy[i]);
        double wy = 0.5 * __high2float(hx[i]) + __high2float(hy[i]);
        unsigned gx = __half_as_ushort(__low2half(hr[i])),
                 gy = __half_as_ushort(__high2half(hr[i]));
        if ((gx != ref_rn(wx, htab, 0x7C00) || gy != ref_rn(wy, htab, 0x7C00)) && bad++ < 5)
            conf_check(0, "haxpy %d: got %g %g, want %g %g", i, __low2float(hr[i]),
                       __high2float(hr[i]), wx, wy);
    }
    conf_check(bad == 0, "haxpy: %d pairs wrong", bad);
    // Host operators on __half, as in CUDA.
    __half h1 = __float2half(1.5f), h2 = __float2half(0.25f);
    conf_check(__half2float(h1 + h2) == 1.75f && __half2float(h1 * h2) == 0.375f &&
                   __half2float(h1 / h2) == 6.0f && __half2float(h1 - h2) == 1.25f && h2 < h1,
               "host __half operators");

    CHECK_CUDA(cudaFree(dflags));
    CHECK_CUDA(cudaFree(dmath));
    CHECK_CUDA(cudaFree(dsh));
    CHECK_CUDA(cudaFree(dh));
    CHECK_CUDA(cudaFree(dh2));
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dy));
    return conf_finish();
}
