// gpulab_sim/device_functions.hpp — CUDA's device functions on the CPU:
// atomics (real atomics, since blocks run on several worker threads), the
// fast-math intrinsics, integer intrinsics and min/max overloads.
#ifndef GPULAB_SIM_DEVICE_FUNCTIONS_HPP
#define GPULAB_SIM_DEVICE_FUNCTIONS_HPP

#include <cmath>
#include <cstring>

// ---------------------------------------------------------------------------
// Atomics: each returns the old value, as in CUDA.
#define GPULAB_SIM_ATOMIC_INT(T)                                                                   \
    static inline T atomicAdd(T *a, T v)                                                           \
    {                                                                                              \
        return __atomic_fetch_add(a, v, __ATOMIC_RELAXED);                                         \
    }                                                                                              \
    static inline T atomicSub(T *a, T v)                                                           \
    {                                                                                              \
        return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED);                                         \
    }                                                                                              \
    static inline T atomicExch(T *a, T v)                                                          \
    {                                                                                              \
        return __atomic_exchange_n(a, v, __ATOMIC_RELAXED);                                        \
    }                                                                                              \
    static inline T atomicAnd(T *a, T v)                                                           \
    {                                                                                              \
        return __atomic_fetch_and(a, v, __ATOMIC_RELAXED);                                         \
    }                                                                                              \
    static inline T atomicOr(T *a, T v)                                                            \
    {                                                                                              \
        return __atomic_fetch_or(a, v, __ATOMIC_RELAXED);                                          \
    }                                                                                              \
    static inline T atomicXor(T *a, T v)                                                           \
    {                                                                                              \
        return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED);                                         \
    }                                                                                              \
    static inline T atomicCAS(T *a, T cmp, T v)                                                    \
    {                                                                                              \
        __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);        \
        return cmp;                                                                                \
    }                                                                                              \
    static inline T atomicMin(T *a, T v)                                                           \
    {                                                                                              \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                              \
        while (v < old &&                                                                          \
               !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
            ;                                                                                      \
        return old;                                                                                \
    }                                                                                              \
    static inline T atomicMax(T *a, T v)                                                           \
    {                                                                                              \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                              \
        while (v > old &&                                                                          \
               !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
            ;                                                                                      \
        return old;                                                                                \
    }

GPULAB_SIM_ATOMIC_INT(int)
GPULAB_SIM_ATOMIC_INT(unsigned int)
GPULAB_SIM_ATOMIC_INT(unsigned long long)
GPULAB_SIM_ATOMIC_INT(long long)
#undef GPULAB_SIM_ATOMIC_INT

// Floating-point add and exchange through compare-and-swap on the bits.
template <class F, class U>
static inline F gpulab_sim_atomic_fadd(F *a, F v)
{
    U *ua = reinterpret_cast<U *>(a);
    U old = __atomic_load_n(ua, __ATOMIC_RELAXED);
    for (;;) {
        F f;
        std::memcpy(&f, &old, sizeof(F));
        f += v;
        U next;
        std::memcpy(&next, &f, sizeof(F));
        if (__atomic_compare_exchange_n(ua, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            std::memcpy(&f, &old, sizeof(F));
            return f;
        }
    }
}
static inline float atomicAdd(float *a, float v)
{
    return gpulab_sim_atomic_fadd<float, unsigned int>(a, v);
}
static inline double atomicAdd(double *a, double v)
{
    return gpulab_sim_atomic_fadd<double, unsigned long long>(a, v);
}
static inline float atomicExch(float *a, float v)
{
    unsigned int bits, old;
    std::memcpy(&bits, &v, 4);
    old = __atomic_exchange_n(reinterpret_cast<unsigned int *>(a), bits, __ATOMIC_RELAXED);
    std::memcpy(&v, &old, 4);
    return v;
}
// atomicInc/atomicDec wrap as CUDA defines them.
static inline unsigned int atomicInc(unsigned int *a, unsigned int limit)
{
    unsigned int old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(a, &old, old >= limit ? 0u : old + 1u, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    return old;
}
static inline unsigned int atomicDec(unsigned int *a, unsigned int limit)
{
    unsigned int old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(a, &old, (old == 0u || old > limit) ? limit : old - 1u,
                                        true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    return old;
}
// The scoped variants: the simulator's atomics are atomic for every thread of
// the process (every block, every simulated device and the host), so each
// scope is the same operation.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicSub_block atomicSub
#define atomicSub_system atomicSub
#define atomicExch_block atomicExch
#define atomicExch_system atomicExch
#define atomicMin_block atomicMin
#define atomicMin_system atomicMin
#define atomicMax_block atomicMax
#define atomicMax_system atomicMax
#define atomicInc_block atomicInc
#define atomicInc_system atomicInc
#define atomicDec_block atomicDec
#define atomicDec_system atomicDec
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS
#define atomicAnd_block atomicAnd
#define atomicAnd_system atomicAnd
#define atomicOr_block atomicOr
#define atomicOr_system atomicOr
#define atomicXor_block atomicXor
#define atomicXor_system atomicXor

// clang-format off
// ---------------------------------------------------------------------------
// Math intrinsics: the fast variants compute the accurate result here.
// glibc declares some of these names itself, so they are macros here.
#define __expf(x) expf(x)
#define __exp10f(x) powf(10.0f, (x))
#define __logf(x) logf(x)
#define __log2f(x) log2f(x)
#define __log10f(x) log10f(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __powf(x, y) powf((x), (y))
#define __sincosf(x, s, c) sincosf((x), (s), (c))
#define exp10f(x) powf(10.0f, (x))
static inline float __fdividef(float x, float y) { return x / y; }
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __fadd_rn(float x, float y) { return x + y; }
static inline float __fmul_rn(float x, float y) { return x * y; }
static inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
// NaN saturates to 0, as on a GPU.
static inline float __saturatef(float x) { return !(x > 0.0f) ? 0.0f : (x > 1.0f ? 1.0f : x); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
static inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, 4); return i; }
static inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
static inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
static inline double __longlong_as_double(long long i) { double d; std::memcpy(&d, &i, 8); return d; }
static inline long long __double_as_longlong(double d) { long long i; std::memcpy(&i, &d, 8); return i; }
static inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
static inline int __float2int_rz(float x) { return (int)x; }
static inline int __float2int_rd(float x) { return (int)floorf(x); }
static inline int __float2int_ru(float x) { return (int)ceilf(x); }

// ---------------------------------------------------------------------------
// Integer intrinsics.
static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned int __brev(unsigned int x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static inline int __mul24(int x, int y) { return x * y; }
static inline unsigned __umul24(unsigned x, unsigned y) { return x * y; }
static inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static inline unsigned __umulhi(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x * y) >> 32); }
static inline int __sad(int x, int y, unsigned z) { return (int)(z + (unsigned)(x > y ? x - y : y - x)); }

// min/max as CUDA overloads them for device code, and the integer forms
// with the type in their name (umin, llmax, ...).
#define GPULAB_SIM_MINMAX(T)                                              \
    static inline T min(T a, T b) { return a < b ? a : b; }              \
    static inline T max(T a, T b) { return a > b ? a : b; }
#define GPULAB_SIM_MINMAX_NAMED(T, P)                                     \
    GPULAB_SIM_MINMAX(T)                                                  \
    static inline T P##min(T a, T b) { return min(a, b); }               \
    static inline T P##max(T a, T b) { return max(a, b); }
GPULAB_SIM_MINMAX(int)
GPULAB_SIM_MINMAX_NAMED(unsigned, u)
GPULAB_SIM_MINMAX_NAMED(long long, ll)
GPULAB_SIM_MINMAX_NAMED(unsigned long long, ull)
#undef GPULAB_SIM_MINMAX
#undef GPULAB_SIM_MINMAX_NAMED
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
// Mixed signed and unsigned (or float and double) arguments, as CUDA's
// overloads take them: the unsigned (or double) type R wins.
#define GPULAB_SIM_MINMAX_MIXED(R, A, B)                                  \
    static inline R min(A a, B b) { return min((R)a, (R)b); }            \
    static inline R min(B a, A b) { return min((R)a, (R)b); }            \
    static inline R max(A a, B b) { return max((R)a, (R)b); }            \
    static inline R max(B a, A b) { return max((R)a, (R)b); }
GPULAB_SIM_MINMAX_MIXED(unsigned, int, unsigned)
GPULAB_SIM_MINMAX_MIXED(unsigned long long, long long, unsigned long long)
GPULAB_SIM_MINMAX_MIXED(double, float, double)
#undef GPULAB_SIM_MINMAX_MIXED

// clang-format on

// Read-only cache loads are ordinary loads here.
template <class T>
static inline T __ldg(const T *p)
{
    return *p;
}

#endif // GPULAB_SIM_DEVICE_FUNCTIONS_HPP
