// curand_kernel.h — the simulator's cuRAND device API: generator states a
// kernel keeps in registers or device memory, curand_init, curand and the
// distributions, for XORWOW (curandState), Philox4_32_10 and MRG32k3a.
//
// Each generator is the published algorithm with cuRAND's seeding and its
// subsequence and offset skips, so a state gives the same 32-bit numbers and
// the same uniform floats and doubles as on a GPU; normal and log-normal
// values go through logf/sinf/cosf, which the CPU rounds as its C library
// does (a GPU's differ in the last bits). Skipping ahead multiplies the state
// by powers of the generator's step matrix, which the runtime computes once
// (runtime/curand.cpp). docs/simulator.md says what is left out.
#ifndef GPULAB_SIM_CURAND_KERNEL_H
#define GPULAB_SIM_CURAND_KERNEL_H

#include "cuda_runtime.h"
#include "curand.h"

#include <math.h>

extern "C" {
// v := M^(n * 2^shift) v, M the XORWOW step on its 160-bit xorshift state.
void gpulab_sim_curand_xorwow_jump(unsigned int v[5], unsigned long long n, int shift);
// (s1, s2) := (A1^e s1, A2^e s2), e = n * 2^shift, A1 and A2 MRG32k3a's
// two recurrences.
void gpulab_sim_curand_mrg_jump(unsigned int s1[3], unsigned int s2[3], unsigned long long n,
                                int shift);
// Says once, on stderr, that curand_poisson's numbers for this lambda follow
// the distribution but not cuRAND's own sequence.
void gpulab_sim_curand_poisson_note(double lambda);
}

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_2PI (6.2831855f)
#define CURAND_PI_DOUBLE (3.1415926535897932)
#define CURAND_2PI_DOUBLE (6.2831853071795860)
#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002

#define GPULAB_CURAND_FN static __forceinline__ __device__

// ---------------------------------------------------------------------------
// States (the fields cuRAND's states have, in its order).

struct curandStateXORWOW {
    unsigned int d, v[5];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
    uint4 ctr;
    uint4 output;
    uint2 key;
    unsigned int STATE;
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
    unsigned int s1[3];
    unsigned int s2[3];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

namespace gpulab_curand
{
template <typename S>
GPULAB_CURAND_FN void clear_extra(S *s)
{
    s->boxmuller_flag = 0;
    s->boxmuller_flag_double = 0;
    s->boxmuller_extra = 0.f;
    s->boxmuller_extra_double = 0.;
}
} // namespace gpulab_curand

// ---------------------------------------------------------------------------
// XORWOW (Marsaglia's xorshift with a Weyl sequence): subsequences are 2^67
// numbers apart.

GPULAB_CURAND_FN unsigned int curand(curandStateXORWOW_t *s)
{
    unsigned int t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1];
    s->v[1] = s->v[2];
    s->v[2] = s->v[3];
    s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v[4] + s->d;
}

GPULAB_CURAND_FN void skipahead(unsigned long long n, curandStateXORWOW_t *s)
{
    gpulab_sim_curand_xorwow_jump(s->v, n, 0);
    s->d += 362437u * (unsigned int)n;
}

GPULAB_CURAND_FN void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *s)
{
    // The Weyl part moves by 362437 * n * 2^67: a multiple of 2^32.
    gpulab_sim_curand_xorwow_jump(s->v, n, 67);
}

GPULAB_CURAND_FN void curand_init(unsigned long long seed, unsigned long long subsequence,
                                  unsigned long long offset, curandStateXORWOW_t *s)
{
    unsigned int t0 = 1099087573u * ((unsigned int)seed ^ 0xaad26b49u);
    unsigned int t1 = 2591861531u * ((unsigned int)(seed >> 32) ^ 0xf7dcefddu);
    s->d = 6615241u + t1 + t0;
    s->v[0] = 123456789u + t0;
    s->v[1] = 362436069u ^ t0;
    s->v[2] = 521288629u + t1;
    s->v[3] = 88675123u ^ t1;
    s->v[4] = 5783321u + t0;
    skipahead_sequence(subsequence, s);
    skipahead(offset, s);
    gpulab_curand::clear_extra(s);
}

// ---------------------------------------------------------------------------
// Philox4_32_10 (Salmon et al., counter-based): a 128-bit counter, its upper
// 64 bits the subsequence, and a 64-bit key, the seed.

namespace gpulab_curand
{
GPULAB_CURAND_FN uint4 philox_round(uint4 c, uint2 k)
{
    unsigned long long p0 = 0xD2511F53ull * c.x;
    unsigned long long p1 = 0xCD9E8D57ull * c.z;
    uint4 r;
    r.x = (unsigned int)(p1 >> 32) ^ c.y ^ k.x;
    r.y = (unsigned int)p1;
    r.z = (unsigned int)(p0 >> 32) ^ c.w ^ k.y;
    r.w = (unsigned int)p0;
    return r;
}

GPULAB_CURAND_FN uint4 philox10(uint4 c, uint2 k)
{
    for (int i = 0; i < 9; i++) {
        c = philox_round(c, k);
        k.x += 0x9E3779B9u;
        k.y += 0xBB67AE85u;
    }
    return philox_round(c, k);
}

// Adds n to the counter's low 64 bits; a carry out of them goes into the
// third word, and from there to the fourth, as cuRAND's increment does.
GPULAB_CURAND_FN void philox_add(curandStatePhilox4_32_10_t *s, unsigned long long n)
{
    unsigned int lo = (unsigned int)n, hi = (unsigned int)(n >> 32);
    s->ctr.x += lo;
    if (s->ctr.x < lo)
        hi++;
    s->ctr.y += hi;
    if (hi <= s->ctr.y)
        return;
    if (++s->ctr.z)
        return;
    ++s->ctr.w;
}

GPULAB_CURAND_FN void philox_next_block(curandStatePhilox4_32_10_t *s)
{
    if (++s->ctr.x == 0 && ++s->ctr.y == 0 && ++s->ctr.z == 0)
        ++s->ctr.w;
    s->output = philox10(s->ctr, s->key);
}
} // namespace gpulab_curand

GPULAB_CURAND_FN unsigned int curand(curandStatePhilox4_32_10_t *s)
{
    unsigned int w[4] = { s->output.x, s->output.y, s->output.z, s->output.w };
    unsigned int r = w[s->STATE & 3];
    if (++s->STATE == 4) {
        gpulab_curand::philox_next_block(s);
        s->STATE = 0;
    }
    return r;
}

// Four numbers at once: the next four of the sequence.
GPULAB_CURAND_FN uint4 curand4(curandStatePhilox4_32_10_t *s)
{
    uint4 old = s->output;
    gpulab_curand::philox_next_block(s);
    unsigned int w[8] = { old.x,       old.y,       old.z,       old.w,
                          s->output.x, s->output.y, s->output.z, s->output.w };
    unsigned int k = s->STATE & 3;
    return make_uint4(w[k], w[k + 1], w[k + 2], w[k + 3]);
}

GPULAB_CURAND_FN void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *s)
{
    s->STATE += (unsigned int)(n & 3);
    n /= 4;
    if (s->STATE > 3) {
        n += 1;
        s->STATE -= 4;
    }
    gpulab_curand::philox_add(s, n);
    s->output = gpulab_curand::philox10(s->ctr, s->key);
}

GPULAB_CURAND_FN void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *s)
{
    unsigned int lo = (unsigned int)n, hi = (unsigned int)(n >> 32);
    s->ctr.z += lo;
    if (s->ctr.z < lo)
        hi++;
    s->ctr.w += hi;
    s->output = gpulab_curand::philox10(s->ctr, s->key);
}

GPULAB_CURAND_FN void curand_init(unsigned long long seed, unsigned long long subsequence,
                                  unsigned long long offset, curandStatePhilox4_32_10_t *s)
{
    s->ctr = make_uint4(0, 0, 0, 0);
    s->key = make_uint2((unsigned int)seed, (unsigned int)(seed >> 32));
    s->STATE = 0;
    gpulab_curand::clear_extra(s);
    skipahead_sequence(subsequence, s);
    skipahead(offset, s);
}

// ---------------------------------------------------------------------------
// MRG32k3a (L'Ecuyer's combined multiple recursive generator).

namespace gpulab_curand
{
// The next value of the combined generator, in [1, m1].
GPULAB_CURAND_FN unsigned int mrg_next(curandStateMRG32k3a_t *s)
{
    const long long m1 = 4294967087LL, m2 = 4294944443LL;
    long long p1 = (1403580LL * s->s1[1] - 810728LL * (long long)s->s1[0]) % m1;
    if (p1 < 0)
        p1 += m1;
    s->s1[0] = s->s1[1];
    s->s1[1] = s->s1[2];
    s->s1[2] = (unsigned int)p1;
    long long p2 = (527612LL * s->s2[2] - 1370589LL * (long long)s->s2[0]) % m2;
    if (p2 < 0)
        p2 += m2;
    s->s2[0] = s->s2[1];
    s->s2[1] = s->s2[2];
    s->s2[2] = (unsigned int)p2;
    return p1 > p2 ? (unsigned int)(p1 - p2) : (unsigned int)(p1 - p2 + m1);
}
} // namespace gpulab_curand

GPULAB_CURAND_FN unsigned int curand(curandStateMRG32k3a_t *s)
{
    return (unsigned int)((double)gpulab_curand::mrg_next(s) * 1.000000048662);
}

GPULAB_CURAND_FN void skipahead(unsigned long long n, curandStateMRG32k3a_t *s)
{
    gpulab_sim_curand_mrg_jump(s->s1, s->s2, n, 0);
}

// cuRAND's subsequences of MRG32k3a are 2^76 numbers apart and its
// "sequences" 2^127 (measured against the toolkit's own generator).
GPULAB_CURAND_FN void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t *s)
{
    gpulab_sim_curand_mrg_jump(s->s1, s->s2, n, 76);
}

GPULAB_CURAND_FN void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t *s)
{
    gpulab_sim_curand_mrg_jump(s->s1, s->s2, n, 127);
}

GPULAB_CURAND_FN void curand_init(unsigned long long seed, unsigned long long subsequence,
                                  unsigned long long offset, curandStateMRG32k3a_t *s)
{
    const unsigned long long m1 = 4294967087ULL, m2 = 4294944443ULL;
    for (int i = 0; i < 3; i++)
        s->s1[i] = s->s2[i] = 12345u;
    if (seed != 0) {
        unsigned long long x1 = (unsigned int)seed ^ 0x55555555u;
        unsigned long long x2 = (unsigned int)(seed >> 32) ^ 0xAAAAAAAAu;
        s->s1[0] = (unsigned int)(x1 * 12345u % m1);
        s->s1[1] = (unsigned int)(x2 * 12345u % m1);
        s->s1[2] = (unsigned int)(x1 * 12345u % m1);
        s->s2[0] = (unsigned int)(x2 * 12345u % m2);
        s->s2[1] = (unsigned int)(x1 * 12345u % m2);
        s->s2[2] = (unsigned int)(x2 * 12345u % m2);
    }
    skipahead_subsequence(subsequence, s);
    skipahead(offset, s);
    gpulab_curand::clear_extra(s);
}

// ---------------------------------------------------------------------------
// Uniform: (0, 1], never 0.

namespace gpulab_curand
{
GPULAB_CURAND_FN float u32_to_float(unsigned int x)
{
    return x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
}
GPULAB_CURAND_FN double u32_to_double(unsigned int x)
{
    return x * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE;
}
GPULAB_CURAND_FN double u53_to_double(unsigned int x, unsigned int y)
{
    unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21);
    return z * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}
} // namespace gpulab_curand

GPULAB_CURAND_FN float curand_uniform(curandStateXORWOW_t *s)
{
    return gpulab_curand::u32_to_float(curand(s));
}
GPULAB_CURAND_FN float curand_uniform(curandStatePhilox4_32_10_t *s)
{
    return gpulab_curand::u32_to_float(curand(s));
}
GPULAB_CURAND_FN float curand_uniform(curandStateMRG32k3a_t *s)
{
    return (float)(gpulab_curand::mrg_next(s) * 2.3283065498378288e-10);
}
GPULAB_CURAND_FN float4 curand_uniform4(curandStatePhilox4_32_10_t *s)
{
    uint4 x = curand4(s);
    return make_float4(gpulab_curand::u32_to_float(x.x), gpulab_curand::u32_to_float(x.y),
                       gpulab_curand::u32_to_float(x.z), gpulab_curand::u32_to_float(x.w));
}
GPULAB_CURAND_FN double curand_uniform_double(curandStateXORWOW_t *s)
{
    unsigned int x = curand(s);
    unsigned int y = curand(s);
    return gpulab_curand::u53_to_double(x, y);
}
GPULAB_CURAND_FN double curand_uniform_double(curandStatePhilox4_32_10_t *s)
{
    return gpulab_curand::u32_to_double(curand(s));
}
GPULAB_CURAND_FN double curand_uniform_double(curandStateMRG32k3a_t *s)
{
    return gpulab_curand::mrg_next(s) * 2.3283065498378288e-10;
}
GPULAB_CURAND_FN double2 curand_uniform2_double(curandStatePhilox4_32_10_t *s)
{
    uint4 x = curand4(s);
    return make_double2(gpulab_curand::u53_to_double(x.x, x.y),
                        gpulab_curand::u53_to_double(x.z, x.w));
}

// ---------------------------------------------------------------------------
// Normal (Box-Muller, two values per transform; the second is kept in the
// state for the next call) and log-normal.

namespace gpulab_curand
{
GPULAB_CURAND_FN float2 box_muller(unsigned int x, unsigned int y)
{
    float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2);
    float v = y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2);
    float r = sqrtf(-2.0f * logf(u));
    return make_float2(sinf(v) * r, cosf(v) * r);
}

GPULAB_CURAND_FN double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0,
                                           unsigned int y1)
{
    unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << 21);
    unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
    double u = zx * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
    double v = zy * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE;
    double r = sqrt(-2.0 * log(u));
    return make_double2(sin(v * CURAND_PI_DOUBLE) * r, cos(v * CURAND_PI_DOUBLE) * r);
}

GPULAB_CURAND_FN float2 normal2(curandStateXORWOW_t *s)
{
    unsigned int x = curand(s);
    unsigned int y = curand(s);
    return box_muller(x, y);
}
GPULAB_CURAND_FN float2 normal2(curandStatePhilox4_32_10_t *s)
{
    unsigned int x = curand(s);
    unsigned int y = curand(s);
    return box_muller(x, y);
}
GPULAB_CURAND_FN float2 normal2(curandStateMRG32k3a_t *s)
{
    float x = curand_uniform(s);
    float y = curand_uniform(s) * CURAND_2PI;
    float r = sqrtf(-2.0f * logf(x));
    return make_float2(sinf(y) * r, cosf(y) * r);
}

GPULAB_CURAND_FN double2 normal2_double(curandStateXORWOW_t *s)
{
    unsigned int x0 = curand(s), x1 = curand(s), y0 = curand(s), y1 = curand(s);
    return box_muller_double(x0, x1, y0, y1);
}
GPULAB_CURAND_FN double2 normal2_double(curandStatePhilox4_32_10_t *s)
{
    uint4 x = curand4(s);
    return box_muller_double(x.x, x.y, x.z, x.w);
}
GPULAB_CURAND_FN double2 normal2_double(curandStateMRG32k3a_t *s)
{
    double x = curand_uniform_double(s);
    double y = curand_uniform_double(s) * 2.0;
    double r = sqrt(-2.0 * log(x));
    return make_double2(sin(y * CURAND_PI_DOUBLE) * r, cos(y * CURAND_PI_DOUBLE) * r);
}

// One value of a pair: the first from a new transform, the second from the
// state (flag says which kind of value is kept there).
template <typename S>
GPULAB_CURAND_FN float normal_one(S *s, int flag, float mean, float stddev)
{
    if (s->boxmuller_flag != flag) {
        float2 v = normal2(s);
        float a = mean + stddev * v.x, b = mean + stddev * v.y;
        s->boxmuller_extra = flag == EXTRA_FLAG_LOG_NORMAL ? expf(b) : b;
        s->boxmuller_flag = flag;
        return flag == EXTRA_FLAG_LOG_NORMAL ? expf(a) : a;
    }
    s->boxmuller_flag = 0;
    return s->boxmuller_extra;
}
template <typename S>
GPULAB_CURAND_FN double normal_one_double(S *s, int flag, double mean, double stddev)
{
    if (s->boxmuller_flag_double != flag) {
        double2 v = normal2_double(s);
        double a = mean + stddev * v.x, b = mean + stddev * v.y;
        s->boxmuller_extra_double = flag == EXTRA_FLAG_LOG_NORMAL ? exp(b) : b;
        s->boxmuller_flag_double = flag;
        return flag == EXTRA_FLAG_LOG_NORMAL ? exp(a) : a;
    }
    s->boxmuller_flag_double = 0;
    return s->boxmuller_extra_double;
}
} // namespace gpulab_curand

#define GPULAB_CURAND_DISTRIBUTIONS(S)                                                             \
    GPULAB_CURAND_FN float curand_normal(S *s)                                                     \
    {                                                                                              \
        return gpulab_curand::normal_one(s, EXTRA_FLAG_NORMAL, 0.0f, 1.0f);                        \
    }                                                                                              \
    GPULAB_CURAND_FN double curand_normal_double(S *s)                                             \
    {                                                                                              \
        return gpulab_curand::normal_one_double(s, EXTRA_FLAG_NORMAL, 0.0, 1.0);                   \
    }                                                                                              \
    GPULAB_CURAND_FN float curand_log_normal(S *s, float mean, float stddev)                       \
    {                                                                                              \
        return gpulab_curand::normal_one(s, EXTRA_FLAG_LOG_NORMAL, mean, stddev);                  \
    }                                                                                              \
    GPULAB_CURAND_FN double curand_log_normal_double(S *s, double mean, double stddev)             \
    {                                                                                              \
        return gpulab_curand::normal_one_double(s, EXTRA_FLAG_LOG_NORMAL, mean, stddev);           \
    }                                                                                              \
    GPULAB_CURAND_FN float2 curand_normal2(S *s)                                                   \
    {                                                                                              \
        return gpulab_curand::normal2(s);                                                          \
    }                                                                                              \
    GPULAB_CURAND_FN double2 curand_normal2_double(S *s)                                           \
    {                                                                                              \
        return gpulab_curand::normal2_double(s);                                                   \
    }                                                                                              \
    GPULAB_CURAND_FN float2 curand_log_normal2(S *s, float mean, float stddev)                     \
    {                                                                                              \
        float2 v = gpulab_curand::normal2(s);                                                      \
        return make_float2(expf(mean + stddev * v.x), expf(mean + stddev * v.y));                  \
    }                                                                                              \
    GPULAB_CURAND_FN unsigned int curand_poisson(S *s, double lambda)                              \
    {                                                                                              \
        return gpulab_curand::poisson(s, lambda);                                                  \
    }

namespace gpulab_curand
{
// Poisson: for lambda < 64 Knuth's product of uniforms, and above 4000 the
// rounded normal approximation, both as cuRAND draws them; between, cuRAND
// uses a rejection method of its own, and the simulator inverts the
// distribution from one uniform at a time (right in distribution, not
// cuRAND's numbers: said once on stderr).
template <typename S>
GPULAB_CURAND_FN unsigned int poisson(S *s, double lambda)
{
    if (lambda < 64) {
        unsigned int k = 0;
        float p = expf((float)lambda);
        do {
            k++;
            p *= curand_uniform(s);
        } while (p > 1.0);
        return k - 1;
    }
    if (lambda > 4000)
        return (unsigned int)(sqrt(lambda) * normal_one_double(s, EXTRA_FLAG_NORMAL, 0.0, 1.0) +
                              lambda + 0.5);
    gpulab_sim_curand_poisson_note(lambda);
    double u = curand_uniform_double(s);
    // Start at the mode and walk outward in whichever direction u points.
    unsigned int k = (unsigned int)lambda;
    double pk = exp(-lambda + k * log(lambda) - lgamma(k + 1.0));
    double below = 0; // P(X < k)
    for (unsigned int j = 0; j < k; j++)
        below += exp(-lambda + j * log(lambda) - lgamma(j + 1.0));
    if (u <= below) {
        double c = below;
        while (k > 0) {
            double pj = exp(-lambda + (k - 1) * log(lambda) - lgamma((double)k));
            if (u > c - pj)
                return k - 1;
            c -= pj;
            k--;
        }
        return 0;
    }
    double c = below + pk;
    while (u > c && pk > 0) {
        k++;
        pk *= lambda / k;
        c += pk;
    }
    return k;
}
} // namespace gpulab_curand

GPULAB_CURAND_DISTRIBUTIONS(curandStateXORWOW_t)
GPULAB_CURAND_DISTRIBUTIONS(curandStatePhilox4_32_10_t)
GPULAB_CURAND_DISTRIBUTIONS(curandStateMRG32k3a_t)

GPULAB_CURAND_FN float4 curand_normal4(curandStatePhilox4_32_10_t *s)
{
    uint4 x = curand4(s);
    float2 a = gpulab_curand::box_muller(x.x, x.y), b = gpulab_curand::box_muller(x.z, x.w);
    return make_float4(a.x, a.y, b.x, b.y);
}

#endif
