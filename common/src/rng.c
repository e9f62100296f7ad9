/*
 * Deterministic random numbers: see lab/rng.h.
 *
 * Bit-for-bit reproducibility rests on three things: integer PCG32, which is
 * exact everywhere; floating point limited to IEEE basic operations (+, -, *,
 * /, sqrt are correctly rounded, frexp and the scalings are exact); and no
 * fused multiply-add. GCC does not contract a*b+c into an FMA in ISO C mode
 * (the build uses -std=c11); clang does unless told otherwise, hence the
 * pragma. common/tests/rng_reference.py recomputes every distribution in
 * Python and the unit-rng-reference test compares the bits.
 */
#include "lab/rng.h"

#include <math.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---------------------------------------------------------------------------
 * PCG32, as in the reference pcg_basic.c
 */

#define LAB_PCG_MULT 6364136223846793005ULL

uint32_t lab_rng_u32(lab_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * LAB_PCG_MULT + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31u));
}

void lab_rng_seed(lab_rng *rng, uint64_t seed, uint64_t stream)
{
    rng->state = 0u;
    rng->inc = (stream << 1u) | 1u;
    lab_rng_u32(rng);
    rng->state += seed;
    lab_rng_u32(rng);
}

uint32_t lab_rng_below(lab_rng *rng, uint32_t bound)
{
    if (bound == 0)
        return 0;
    /* 2^32 mod bound: the draws below it would favour small results. */
    uint32_t threshold = (0u - bound) % bound;
    for (;;) {
        uint32_t r = lab_rng_u32(rng);
        if (r >= threshold)
            return r % bound;
    }
}

/* ---------------------------------------------------------------------------
 * Uniform floats
 */

float lab_rng_uniform(lab_rng *rng)
{
    return (float)(lab_rng_u32(rng) >> 8) * 0x1p-24f;
}

float lab_rng_uniform_range(lab_rng *rng, float lo, float hi)
{
    double u = (double)lab_rng_uniform(rng);
    if (!(hi > lo))
        return lo;
    float r = (float)((double)lo + ((double)hi - (double)lo) * u);
    if (r >= hi)
        r = nextafterf(hi, lo);
    return r;
}

void lab_rng_fill_uniform(lab_rng *rng, float *out, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        out[i] = lab_rng_uniform_range(rng, lo, hi);
}

/* ---------------------------------------------------------------------------
 * Portable logarithm
 *
 * x = m * 2^e with m in [sqrt(1/2), sqrt(2)), so ln x = e ln 2 + ln m and
 * ln m = 2 atanh(t) = 2 (t + t^3/3 + t^5/5 + ...) with t = (m - 1) / (m + 1),
 * |t| <= 0.1716. Eleven terms leave a truncation error below 1e-18 relative.
 * ln 2 is split in a part with trailing zeros (e * LN2_HI is exact) and the rest.
 */

#define LAB_LOG_TERMS 11

static const double lab_ln2_hi = 0x1.62e42feep-1;
static const double lab_ln2_lo = 0x1.a39ef35793c76p-33;
static const double lab_sqrt_half = 0x1.6a09e667f3bcdp-1;

/* 2 atanh(t) for |t| <= 0.1716, Horner in t^2 with coefficients 1/(2k+1). */
static double lab_log_series(double t)
{
    double t2 = t * t;
    double p = 1.0 / (2 * LAB_LOG_TERMS - 1);
    for (int k = LAB_LOG_TERMS - 2; k >= 0; k--)
        p = 1.0 / (2 * k + 1) + t2 * p;
    return 2.0 * (t * p);
}

double lab_rng_log(double x)
{
    if (isnan(x) || x < 0.0)
        return NAN;
    if (x == 0.0)
        return -INFINITY;
    if (isinf(x))
        return x;
    int e;
    double m = frexp(x, &e); /* exact: m in [0.5, 1) */
    if (m < lab_sqrt_half) {
        m *= 2.0;
        e -= 1;
    }
    double t = (m - 1.0) / (m + 1.0);
    return (double)e * lab_ln2_hi + ((double)e * lab_ln2_lo + lab_log_series(t));
}

/* ---------------------------------------------------------------------------
 * Normals (Marsaglia's polar method)
 */

/* A double in [-1, 1) from one 32-bit draw (exact). */
static double lab_rng_signed_unit(lab_rng *rng)
{
    return (double)lab_rng_u32(rng) * 0x1p-31 - 1.0;
}

float lab_rng_normal(lab_rng *rng, float mean, float stddev)
{
    double u, v, s;
    do {
        u = lab_rng_signed_unit(rng);
        v = lab_rng_signed_unit(rng);
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double z = u * sqrt(-2.0 * lab_rng_log(s) / s);
    return (float)((double)mean + (double)stddev * z);
}

void lab_rng_fill_normal(lab_rng *rng, float *out, size_t n, float mean, float stddev)
{
    for (size_t i = 0; i < n; i++)
        out[i] = lab_rng_normal(rng, mean, stddev);
}
