// 40_half_conversions — __half and __nv_bfloat16 conversions, exhaustively:
// every 16-bit pattern to float and back, float to 16 bits in the four
// rounding modes at each midpoint between neighbours (and the floats either
// side), double to 16 bits near the midpoints, and to and from int.
// Expected bits come from IEEE rules on a table of every finite value.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <string.h>

#include "conformance.h"

#define HALF_INF 0x7C00 // finite positive halves: bits 0 .. 0x7BFF
#define BF16_INF 0x7F80 // finite positive bfloat16: bits 0 .. 0x7F7F
#define PROBES 6        // per pair of neighbours: midpoint and its float neighbours, both signs

// Value of bits b of a format with `mb` mantissa and `eb` exponent bits (finite only).
static double decode(unsigned b, int mb, int eb)
{
    int bias = (1 << (eb - 1)) - 1;
    unsigned mant = b & ((1u << mb) - 1), ex = (b >> mb) & ((1u << eb) - 1);
    double v = ex ? ldexp((double)(mant | (1u << mb)), (int)ex - bias - mb)
                  : ldexp((double)mant, 1 - bias - mb);
    return (b >> (mb + eb)) & 1u ? -v : v;
}

// Reference rounding: x to the format whose positive finite values are
// tab[0 .. n-1] in increasing order (bits k has value tab[k]); tab[n] is
// 2^(emax+1), the overflow threshold's upper neighbour. Modes: 0 rn, 1 rz, 2 rd, 3 ru.
static unsigned ref_round(double x, const double *tab, unsigned n, int mode)
{
    unsigned sign = signbit(x) ? 0x8000u : 0u;
    double a = fabs(x);
    if (a >= tab[n]) { // beyond 2^(emax+1): infinity or the largest finite value
        int inf = mode == 0 || (mode == 3 && !sign) || (mode == 2 && sign);
        return sign | (inf ? n : n - 1);
    }
    unsigned lo = 0, hi = n; // tab[lo] <= a < tab[hi]
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
    unsigned r = lo;
    if (mode == 0)
        r = a < m ? lo : a > m ? hi : (lo & 1u ? hi : lo);
    else if (mode == 2)
        r = sign ? hi : lo;
    else if (mode == 3)
        r = sign ? lo : hi;
    return sign | r;
}

__global__ void from_bits(int n, float *hf, unsigned short *hrt, float *bf, unsigned short *brt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f = __half2float(__ushort_as_half((unsigned short)i));
    hf[i] = f;
    hrt[i] = __half_as_ushort(__float2half(f));
    float g = __bfloat162float(__ushort_as_bfloat16((unsigned short)i));
    bf[i] = g;
    brt[i] = __bfloat16_as_ushort(__float2bfloat16(g));
}

// Six results per float probe: rn, rz, rd, ru, __float2half, and __double2half of a double probe.
__global__ void to_half(int n, const float *x, const double *d, unsigned short *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[6 * i + 0] = __half_as_ushort(__float2half_rn(x[i]));
    out[6 * i + 1] = __half_as_ushort(__float2half_rz(x[i]));
    out[6 * i + 2] = __half_as_ushort(__float2half_rd(x[i]));
    out[6 * i + 3] = __half_as_ushort(__float2half_ru(x[i]));
    out[6 * i + 4] = __half_as_ushort(__float2half(x[i]));
    out[6 * i + 5] = __half_as_ushort(__double2half(d[i]));
}

__global__ void to_bf16(int n, const float *x, const double *d, unsigned short *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[6 * i + 0] = __bfloat16_as_ushort(__float2bfloat16_rn(x[i]));
    out[6 * i + 1] = __bfloat16_as_ushort(__float2bfloat16_rz(x[i]));
    out[6 * i + 2] = __bfloat16_as_ushort(__float2bfloat16_rd(x[i]));
    out[6 * i + 3] = __bfloat16_as_ushort(__float2bfloat16_ru(x[i]));
    out[6 * i + 4] = __bfloat16_as_ushort(__float2bfloat16(x[i]));
    out[6 * i + 5] = __bfloat16_as_ushort(__double2bfloat16(d[i]));
}

// Every finite half to int in four modes; ints to half in four modes.
__global__ void ints(int n, int *hi, const int *iv, unsigned short *ih)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half h = __ushort_as_half((unsigned short)i);
    if ((i & 0x7C00) != 0x7C00) { // not inf or NaN
        hi[4 * i + 0] = __half2int_rn(h);
        hi[4 * i + 1] = __half2int_rz(h);
        hi[4 * i + 2] = __half2int_rd(h);
        hi[4 * i + 3] = __half2int_ru(h);
    }
    ih[4 * i + 0] = __half_as_ushort(__int2half_rn(iv[i]));
    ih[4 * i + 1] = __half_as_ushort(__int2half_rz(iv[i]));
    ih[4 * i + 2] = __half_as_ushort(__int2half_rd(iv[i]));
    ih[4 * i + 3] = __half_as_ushort(__int2half_ru(iv[i]));
}

static int ref_int(double v, int mode)
{
    double t = mode == 1 ? trunc(v) : mode == 2 ? floor(v) : mode == 3 ? ceil(v) : floor(v);
    if (mode == 0) {
        double d = v - t;
        if (d > 0.5 || (d == 0.5 && fmod(t, 2.0) != 0))
            t += 1;
    }
    return (int)t;
}

// Probes for one format: for each pair of neighbours k, k+1 (k + 1 == n is the
// overflow threshold), the midpoint and the floats just below and above it,
// positive and negative; the doubles just below and above the midpoint.
static void make_probes(const double *tab, unsigned n, float *x, double *d)
{
    for (unsigned k = 0; k < n; k++) {
        double m = (tab[k] + tab[k + 1]) / 2;
        float fm = (float)m;
        float f[3] = { nextafterf(fm, 0.0f), fm, nextafterf(fm, INFINITY) };
        double dm[3] = { nextafter(m, 0.0), m, nextafter(m, INFINITY) };
        for (int j = 0; j < 3; j++) {
            x[PROBES * k + 2 * j] = f[j];
            x[PROBES * k + 2 * j + 1] = -f[j];
            d[PROBES * k + 2 * j] = dm[j];
            d[PROBES * k + 2 * j + 1] = -dm[j];
        }
    }
}

// Runs one format's probes and compares with the reference.
static void check_probes(const char *fmt, const double *tab, unsigned n, int bf16)
{
    int count = (int)(n * PROBES);
    size_t fb = count * sizeof(float), db = count * sizeof(double), ob = 6 * count * 2;
    float *x = (float *)malloc(fb), *dx;
    double *d = (double *)malloc(db), *dd;
    unsigned short *out = (unsigned short *)malloc(ob), *dout;
    make_probes(tab, n, x, d);
    CHECK_CUDA(cudaMalloc(&dx, fb));
    CHECK_CUDA(cudaMalloc(&dd, db));
    CHECK_CUDA(cudaMalloc(&dout, ob));
    CHECK_CUDA(cudaMemcpy(dx, x, fb, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dd, d, db, cudaMemcpyHostToDevice));
    if (bf16)
        to_bf16<<<(count + 255) / 256, 256>>>(count, dx, dd, dout);
    else
        to_half<<<(count + 255) / 256, 256>>>(count, dx, dd, dout);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out, dout, ob, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < count && bad < 10; i++) {
        for (int mode = 0; mode < 6; mode++) {
            unsigned want = mode < 4    ? ref_round(x[i], tab, n, mode)
                            : mode == 4 ? ref_round(x[i], tab, n, 0)
                                        : ref_round(d[i], tab, n, 0);
            unsigned got = out[6 * i + mode];
            if (got != want) {
                bad++;
                conf_check(0, "%s: probe %.9g (double %.17g) mode %d: got 0x%04x, want 0x%04x", fmt,
                           x[i], d[i], mode, got, want);
            }
        }
    }
    conf_check(bad == 0, "%s: %d probes of %d rounded wrongly", fmt, bad, count);
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dd));
    CHECK_CUDA(cudaFree(dout));
    free(x);
    free(d);
    free(out);
}

int main(void)
{
    conf_require_device();
    const int n = 65536;
    static double htab[HALF_INF + 1], btab[BF16_INF + 1];
    for (unsigned k = 0; k < HALF_INF; k++)
        htab[k] = decode(k, 10, 5);
    htab[HALF_INF] = 65536.0;
    for (unsigned k = 0; k < BF16_INF; k++)
        btab[k] = decode(k, 7, 8);
    btab[BF16_INF] = ldexp(1.0, 128);

    // Every pattern to float (exact) and back (the same bits; NaN stays NaN).
    float *hf, *bf, *h_hf = (float *)malloc(n * 4), *h_bf = (float *)malloc(n * 4);
    unsigned short *hrt, *brt, *h_hrt = (unsigned short *)malloc(n * 2),
                               *h_brt = (unsigned short *)malloc(n * 2);
    CHECK_CUDA(cudaMalloc(&hf, n * 4));
    CHECK_CUDA(cudaMalloc(&bf, n * 4));
    CHECK_CUDA(cudaMalloc(&hrt, n * 2));
    CHECK_CUDA(cudaMalloc(&brt, n * 2));
    from_bits<<<n / 256, 256>>>(n, hf, hrt, bf, brt);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_hf, hf, n * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_bf, bf, n * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_hrt, hrt, n * 2, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_brt, brt, n * 2, cudaMemcpyDeviceToHost));
    int bad_h = 0, bad_b = 0;
    for (int i = 0; i < n; i++) {
        unsigned e16 = i & 0x7C00, eb = i & 0x7F80;
        double want_h = e16 == 0x7C00 ? ((i & 0x3FF) ? NAN : (i & 0x8000 ? -INFINITY : INFINITY))
                                      : decode((unsigned)i, 10, 5);
        double want_b = eb == 0x7F80 ? ((i & 0x7F) ? NAN : (i & 0x8000 ? -INFINITY : INFINITY))
                                     : decode((unsigned)i, 7, 8);
        int ok_h = isnan(want_h)
                       ? isnan(h_hf[i]) && (h_hrt[i] & 0x7C00) == 0x7C00 && (h_hrt[i] & 0x3FF)
                       : h_hf[i] == want_h && !!signbit(h_hf[i]) == !!(i & 0x8000) && h_hrt[i] == i;
        int ok_b = isnan(want_b)
                       ? isnan(h_bf[i]) && (h_brt[i] & 0x7F80) == 0x7F80 && (h_brt[i] & 0x7F)
                       : h_bf[i] == want_b && !!signbit(h_bf[i]) == !!(i & 0x8000) && h_brt[i] == i;
        if (!ok_h && bad_h++ < 5)
            conf_check(0, "half 0x%04x: float %.9g back 0x%04x, want %.9g", i, h_hf[i], h_hrt[i],
                       want_h);
        if (!ok_b && bad_b++ < 5)
            conf_check(0, "bf16 0x%04x: float %.9g back 0x%04x, want %.9g", i, h_bf[i], h_brt[i],
                       want_b);
    }
    conf_check(bad_h == 0 && bad_b == 0, "%d half and %d bf16 patterns wrong", bad_h, bad_b);

    check_probes("half", htab, HALF_INF, 0);
    check_probes("bf16", btab, BF16_INF, 1);

    // Integers: every finite half to int, and 65536 ints (-70000 .. ~61000, both
    // signs of the overflow threshold) to half.
    int *d_hi, *d_iv, *hi = (int *)malloc(n * 16), *iv = (int *)malloc(n * 4);
    unsigned short *d_ih, *ih = (unsigned short *)malloc(n * 8);
    for (int i = 0; i < n; i++)
        iv[i] = i < 1024 ? (i & 1 ? 65504 + (i >> 1) - 256 : -65504 - (i >> 1) + 256)
                         : (i * 2 - 70000) + (i % 7 == 0 ? 70001 : 0);
    CHECK_CUDA(cudaMalloc(&d_hi, n * 16));
    CHECK_CUDA(cudaMalloc(&d_iv, n * 4));
    CHECK_CUDA(cudaMalloc(&d_ih, n * 8));
    CHECK_CUDA(cudaMemcpy(d_iv, iv, n * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_hi, 0, n * 16));
    ints<<<n / 256, 256>>>(n, d_hi, d_iv, d_ih);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(hi, d_hi, n * 16, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ih, d_ih, n * 8, cudaMemcpyDeviceToHost));
    int bad_i = 0;
    for (int i = 0; i < n; i++) {
        for (int mode = 0; mode < 4; mode++) {
            if ((i & 0x7C00) != 0x7C00) {
                int want = ref_int(decode((unsigned)i, 10, 5), mode);
                if (hi[4 * i + mode] != want && bad_i++ < 5)
                    conf_check(0, "__half2int mode %d of 0x%04x: got %d, want %d", mode, i,
                               hi[4 * i + mode], want);
            }
            unsigned want = ref_round((double)iv[i], htab, HALF_INF, mode);
            if (ih[4 * i + mode] != want && bad_i++ < 5)
                conf_check(0, "__int2half mode %d of %d: got 0x%04x, want 0x%04x", mode, iv[i],
                           ih[4 * i + mode], want);
        }
    }
    conf_check(bad_i == 0, "%d integer conversions wrong", bad_i);

    // Host code has the same conversions.
    conf_check(__half_as_ushort(__float2half(1.0f)) == 0x3C00, "host __float2half(1)");
    conf_check(__half2float(__ushort_as_half(0x3555)) == (float)decode(0x3555, 10, 5),
               "host __half2float");
    conf_check(__bfloat16_as_ushort(__float2bfloat16(-2.0f)) == 0xC000, "host __float2bfloat16");
    __half2 p = __floats2half2_rn(0.5f, -3.0f);
    conf_check(
        __low2float(p) == 0.5f && __high2float(p) == -3.0f && __half2float(__low2half(p)) == 0.5f &&
            __half2float(__high2half(__halves2half2(__float2half(1.0f), __float2half(7.0f)))) ==
                7.0f,
        "half2 parts");
    __nv_bfloat162 q = __floats2bfloat162_rn(1.5f, 2.5f);
    conf_check(__low2float(q) == 1.5f && __high2float(q) == 2.5f &&
                   __bfloat162float(__high2bfloat16(q)) == 2.5f,
               "bfloat162 parts");
    p = __float2half2_rn(0.25f);
    conf_check(__low2float(p) == 0.25f && __high2float(p) == 0.25f, "__float2half2_rn");

    CHECK_CUDA(cudaFree(hf));
    CHECK_CUDA(cudaFree(bf));
    CHECK_CUDA(cudaFree(hrt));
    CHECK_CUDA(cudaFree(brt));
    CHECK_CUDA(cudaFree(d_hi));
    CHECK_CUDA(cudaFree(d_iv));
    CHECK_CUDA(cudaFree(d_ih));
    free(h_hf);
    free(h_bf);
    free(h_hrt);
    free(h_brt);
    free(hi);
    free(iv);
    free(ih);
    return conf_finish();
}
