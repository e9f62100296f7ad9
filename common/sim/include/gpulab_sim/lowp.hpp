// gpulab_sim/lowp.hpp — the 16-bit floating-point types of cuda_fp16.h and
// cuda_bf16.h on the CPU: __half (IEEE binary16: 1 sign, 5 exponent, 10
// mantissa bits) and __nv_bfloat16 (1, 8, 7), their pairs, conversions with
// CUDA's rounding modes, arithmetic, comparisons, math functions and atomics.
//
// Every result is computed exactly or in double and rounded once to the
// 16-bit format, so conversions and the basic operations (+, -, *, /, fma,
// sqrt) give the correctly rounded value a GPU gives. Double has more than
// 2p + 2 bits for both formats (p = 11 and 8), so rounding a double sum,
// product, quotient or square root of two 16-bit values again gives the
// correctly rounded result; fma rounds its double sum to odd first, which
// makes the second rounding exact as well. Written for C++11.
#ifndef GPULAB_SIM_LOWP_HPP
#define GPULAB_SIM_LOWP_HPP

#include <cmath>
#include <cstring>
#include <limits>

#include "../vector_types.h"

namespace gpulab_sim
{
namespace lowp
{

// CUDA's rounding modes: to nearest even, toward zero, down, up.
enum rmode { RN, RZ, RD, RU };

// x rounded to a binary format of `mbits` stored mantissa bits and `ebits`
// exponent bits (subnormals included); the format's bits. A NaN becomes the
// canonical NaN 0x7fff, as CUDA's conversions give it.
inline unsigned short encode(double x, int mbits, int ebits, rmode r)
{
    const unsigned bias = (1u << (ebits - 1)) - 1;
    const int emax = (int)bias, emin = 1 - (int)bias;
    const unsigned inf = ((1u << ebits) - 1) << mbits;
    if (std::isnan(x))
        return 0x7fff;
    bool neg = std::signbit(x);
    unsigned sign = neg ? 1u << (mbits + ebits) : 0u;
    double a = std::fabs(x);
    if (a == 0)
        return (unsigned short)sign;
    // Rounded past the largest finite value: infinity, or the largest finite
    // value when the mode rounds toward zero for this sign.
    bool to_inf = r == RN || (r == RU && !neg) || (r == RD && neg);
    unsigned overflow = to_inf ? inf : inf - 1;
    if (std::isinf(a))
        return (unsigned short)(sign | inf);
    int e = 0;
    std::frexp(a, &e);
    int E = e - 1; // a in [2^E, 2^(E+1))
    if (E > emax)
        return (unsigned short)(sign | overflow);
    if (E < emin)
        E = emin; // subnormal: the quantum of the smallest normal binade
    int q = E - mbits;
    double scaled = std::ldexp(a, -q); // exact: a power-of-two scaling into [0, 2^(mbits+1))
    double whole = std::floor(scaled), frac = scaled - whole;
    unsigned long long n = (unsigned long long)whole;
    bool up = false;
    switch (r) {
    case RN:
        up = frac > 0.5 || (frac == 0.5 && (n & 1u));
        break;
    case RZ:
        break;
    case RD:
        up = frac > 0 && neg;
        break;
    case RU:
        up = frac > 0 && !neg;
        break;
    }
    n += up ? 1u : 0u;
    // A carry out of the mantissa moves into the exponent field by itself.
    unsigned long long bits = ((unsigned long long)(E + (int)bias - 1) << mbits) + n;
    if (bits >= inf)
        return (unsigned short)(sign | overflow);
    return (unsigned short)(sign | (unsigned)bits);
}

// The value of a format's bits (exact in double).
inline double decode(unsigned short b, int mbits, int ebits)
{
    const int bias = (1 << (ebits - 1)) - 1;
    unsigned mant = b & ((1u << mbits) - 1);
    unsigned ex = (b >> mbits) & ((1u << ebits) - 1);
    bool neg = (b >> (mbits + ebits)) & 1u;
    double v;
    if (ex == (1u << ebits) - 1)
        v = mant ? std::numeric_limits<double>::quiet_NaN()
                 : std::numeric_limits<double>::infinity();
    else if (ex == 0)
        v = std::ldexp((double)mant, 1 - bias - mbits);
    else
        v = std::ldexp((double)(mant | (1u << mbits)), (int)ex - bias - mbits);
    return neg ? -v : v;
}

// p + c rounded to odd in double: when the sum is inexact, the neighbour
// with an odd last bit. Rounding that again to a format of at most 51 bits
// gives the correctly rounded p + c.
inline double sum_to_odd(double p, double c)
{
    double s = p + c;
    if (std::isinf(s) || std::isnan(s))
        return s;
    double bp = s - c, bc = s - bp;
    double err = (p - bp) + (c - bc); // exact: s + err == p + c
    if (err == 0)
        return s;
    unsigned long long bits;
    std::memcpy(&bits, &s, sizeof s);
    if (!(bits & 1u))
        s = std::nextafter(s, err > 0 ? std::numeric_limits<double>::infinity()
                                      : -std::numeric_limits<double>::infinity());
    return s;
}

// A 64-bit integer as a double rounded to odd (exact below 2^53).
inline double ull_to_odd(unsigned long long u)
{
    if (u < (1ull << 53))
        return (double)u;
    int extra = 11 - __builtin_clzll(u); // bits below the 53 kept
    unsigned long long kept = u >> extra;
    if (u & ((1ull << extra) - 1))
        kept |= 1u;
    return std::ldexp((double)kept, extra);
}

inline double ll_to_odd(long long v)
{
    if (v < 0)
        return -ull_to_odd(0ull - (unsigned long long)v);
    return ull_to_odd((unsigned long long)v);
}

// An integer as a double rounded to odd.
template <class I>
inline double int_to_odd(I i)
{
    return std::numeric_limits<I>::is_signed ? ll_to_odd((long long)i)
                                             : ull_to_odd((unsigned long long)i);
}

// v rounded to an integer in mode r, saturated to I's range; NaN gives 0.
template <class I>
inline I to_int(double v, rmode r)
{
    if (std::isnan(v))
        return 0;
    double t = v;
    switch (r) {
    case RN: {
        t = std::floor(v);
        double d = v - t;
        if (d > 0.5 || (d == 0.5 && std::fmod(t, 2.0) != 0))
            t += 1;
        break;
    }
    case RZ:
        t = std::trunc(v);
        break;
    case RD:
        t = std::floor(v);
        break;
    case RU:
        t = std::ceil(v);
        break;
    }
    if (t <= (double)std::numeric_limits<I>::min())
        return std::numeric_limits<I>::min();
    if (t >= (double)std::numeric_limits<I>::max())
        return std::numeric_limits<I>::max();
    return (I)t;
}

} // namespace lowp
} // namespace gpulab_sim

// ---------------------------------------------------------------------------
// The types. As in CUDA: the raw structs hold the bits; the classes convert
// to and from float (and integers). CUDA keeps the bits (__x) protected; here
// they are public, so that copying a __half with memcpy (as warp shuffles and
// programs do) draws no -Wclass-memaccess warning.

typedef struct alignas(2) {
    unsigned short x;
} __half_raw;
typedef struct alignas(4) {
    unsigned short x, y;
} __half2_raw;
typedef struct alignas(2) {
    unsigned short x;
} __nv_bfloat16_raw;
typedef struct alignas(4) {
    unsigned short x, y;
} __nv_bfloat162_raw;

// The class of one 16-bit type: T (the class), RAW, its format.
#define GPULAB_SIM_LOWP_CLASS(T, RAW, MB, EB)                                                      \
    struct alignas(2) T {                                                                          \
        unsigned short __x;                                                                        \
        static unsigned short from(double v)                                                       \
        {                                                                                          \
            return ::gpulab_sim::lowp::encode(v, MB, EB, ::gpulab_sim::lowp::RN);                  \
        }                                                                                          \
        T() = default;                                                                             \
        T(const RAW &r) : __x(r.x) {}                                                              \
        T(float f) : __x(from(f)) {}                                                               \
        T(double f) : __x(from(f)) {}                                                              \
        T(short v) : __x(from(v)) {}                                                               \
        T(unsigned short v) : __x(from(v)) {}                                                      \
        T(int v) : __x(from(v)) {}                                                                 \
        T(unsigned int v) : __x(from(v)) {}                                                        \
        T(long v) : __x(from(::gpulab_sim::lowp::ll_to_odd(v))) {}                                 \
        T(unsigned long v) : __x(from(::gpulab_sim::lowp::ull_to_odd(v))) {}                       \
        T(long long v) : __x(from(::gpulab_sim::lowp::ll_to_odd(v))) {}                            \
        T(unsigned long long v) : __x(from(::gpulab_sim::lowp::ull_to_odd(v))) {}                  \
        T &operator=(const RAW &r)                                                                 \
        {                                                                                          \
            __x = r.x;                                                                             \
            return *this;                                                                          \
        }                                                                                          \
        T &operator=(float f)                                                                      \
        {                                                                                          \
            __x = from(f);                                                                         \
            return *this;                                                                          \
        }                                                                                          \
        T &operator=(double f)                                                                     \
        {                                                                                          \
            __x = from(f);                                                                         \
            return *this;                                                                          \
        }                                                                                          \
        operator RAW() const                                                                       \
        {                                                                                          \
            RAW r;                                                                                 \
            r.x = __x;                                                                             \
            return r;                                                                              \
        }                                                                                          \
        operator float() const                                                                     \
        {                                                                                          \
            return (float)::gpulab_sim::lowp::decode(__x, MB, EB);                                 \
        }                                                                                          \
    };

GPULAB_SIM_LOWP_CLASS(__half, __half_raw, 10, 5)
GPULAB_SIM_LOWP_CLASS(__nv_bfloat16, __nv_bfloat16_raw, 7, 8)
#undef GPULAB_SIM_LOWP_CLASS

// A pair: .x (low half) and .y (high half).
#define GPULAB_SIM_LOWP_PAIR(T2, T, RAW2)                                                          \
    struct alignas(4) T2 {                                                                         \
        T x, y;                                                                                    \
        T2() = default;                                                                            \
        T2(const T &a, const T &b) : x(a), y(b) {}                                                 \
        T2(const RAW2 &r)                                                                          \
        {                                                                                          \
            std::memcpy(this, &r, sizeof r);                                                       \
        }                                                                                          \
        T2 &operator=(const RAW2 &r)                                                               \
        {                                                                                          \
            std::memcpy(this, &r, sizeof r);                                                       \
            return *this;                                                                          \
        }                                                                                          \
        operator RAW2() const                                                                      \
        {                                                                                          \
            RAW2 r;                                                                                \
            std::memcpy(&r, this, sizeof r);                                                       \
            return r;                                                                              \
        }                                                                                          \
    };

GPULAB_SIM_LOWP_PAIR(__half2, __half, __half2_raw)
GPULAB_SIM_LOWP_PAIR(__nv_bfloat162, __nv_bfloat16, __nv_bfloat162_raw)
#undef GPULAB_SIM_LOWP_PAIR

typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

namespace gpulab_sim
{
namespace lowp
{

// Bits and values of either type; the format's parameters by overload.
inline unsigned short bits(__half h)
{
    return static_cast<__half_raw>(h).x;
}
inline unsigned short bits(__nv_bfloat16 h)
{
    return static_cast<__nv_bfloat16_raw>(h).x;
}
template <class T>
inline T make(unsigned short b);
template <>
inline __half make<__half>(unsigned short b)
{
    __half_raw r;
    r.x = b;
    return __half(r);
}
template <>
inline __nv_bfloat16 make<__nv_bfloat16>(unsigned short b)
{
    __nv_bfloat16_raw r;
    r.x = b;
    return __nv_bfloat16(r);
}
inline int mbits(__half)
{
    return 10;
}
inline int mbits(__nv_bfloat16)
{
    return 7;
}
inline int ebits(__half)
{
    return 5;
}
inline int ebits(__nv_bfloat16)
{
    return 8;
}
template <class T>
inline double value(T h)
{
    return decode(bits(h), mbits(h), ebits(h));
}
template <class T>
inline T round(double v, rmode r = RN)
{
    return make<T>(encode(v, mbits(T()), ebits(T()), r));
}
template <class T>
inline bool isnan(T h)
{
    return std::isnan(value(h));
}
// The correctly rounded a * b + c.
template <class T>
inline T fma(T a, T b, T c)
{
    double p = value(a) * value(b); // exact: at most 22 significant bits
    return round<T>(sum_to_odd(p, value(c)));
}
// Saturation to [0, 1] (NaN gives 0), as the _sat intrinsics do.
template <class T>
inline T sat(T h)
{
    double v = value(h);
    if (std::isnan(v) || v <= 0)
        return make<T>(0);
    return v >= 1 ? round<T>(1.0) : h;
}
template <class T>
inline T canonical_nan()
{
    return make<T>(0x7fff);
}
// max and min: a NaN operand gives the other one, two NaNs the canonical NaN.
template <class T>
inline T max(T a, T b, bool nan_wins)
{
    bool na = isnan(a), nb = isnan(b);
    if (na || nb) {
        if (nan_wins || (na && nb))
            return canonical_nan<T>();
        return na ? b : a;
    }
    double x = value(a), y = value(b);
    if (x == y) // +0 is the larger zero
        return std::signbit(x) ? b : a;
    return x > y ? a : b;
}
template <class T>
inline T min(T a, T b, bool nan_wins)
{
    bool na = isnan(a), nb = isnan(b);
    if (na || nb) {
        if (nan_wins || (na && nb))
            return canonical_nan<T>();
        return na ? b : a;
    }
    double x = value(a), y = value(b);
    if (x == y) // -0 is the smaller zero
        return std::signbit(x) ? a : b;
    return x < y ? a : b;
}
// Atomic read-modify-write of a 16-bit value (2-byte compare-and-swap).
template <class T, class F>
inline T atomic_update(T *p, F f)
{
    unsigned short *u = reinterpret_cast<unsigned short *>(p);
    unsigned short old = __atomic_load_n(u, __ATOMIC_RELAXED);
    for (;;) {
        unsigned short next = bits(f(make<T>(old)));
        if (__atomic_compare_exchange_n(u, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return make<T>(old);
    }
}

} // namespace lowp
} // namespace gpulab_sim

// ---------------------------------------------------------------------------
// The functions of cuda_fp16.h and cuda_bf16.h. Names of the form __hadd are
// overloaded on __half and __nv_bfloat16, as in CUDA; the conversions carry
// the type in their name. Device-only functions of CUDA (hexp, __hfma, ...)
// work in host code here too.

#define GPULAB_SIM_LOWP_R ::gpulab_sim::lowp::round
#define GPULAB_SIM_LOWP_V ::gpulab_sim::lowp::value

// Conversions between T and float, double and integers; NAME is the type's
// name in the function names (half, bfloat16).
#define GPULAB_SIM_LOWP_CONVERSIONS(T, T2, NAME)                                                   \
    static inline T __float2##NAME(float a)                                                        \
    {                                                                                              \
        return GPULAB_SIM_LOWP_R<T>(a);                                                            \
    }                                                                                              \
    static inline T __float2##NAME##_rn(float a)                                                   \
    {                                                                                              \
        return GPULAB_SIM_LOWP_R<T>(a);                                                            \
    }                                                                                              \
    static inline T __float2##NAME##_rz(float a)                                                   \
    {                                                                                              \
        return GPULAB_SIM_LOWP_R<T>(a, ::gpulab_sim::lowp::RZ);                                    \
    }                                                                                              \
    static inline T __float2##NAME##_rd(float a)                                                   \
    {                                                                                              \
        return GPULAB_SIM_LOWP_R<T>(a, ::gpulab_sim::lowp::RD);                                    \
    }                                                                                              \
    static inline T __float2##NAME##_ru(float a)                                                   \
    {                                                                                              \
        return GPULAB_SIM_LOWP_R<T>(a, ::gpulab_sim::lowp::RU);                                    \
    }                                                                                              \
    static inline T __double2##NAME(double a)                                                      \
    {                                                                                              \
        return GPULAB_SIM_LOWP_R<T>(a);                                                            \
    }                                                                                              \
    static inline float __##NAME##2float(T a)                                                      \
    {                                                                                              \
        return (float)GPULAB_SIM_LOWP_V(a);                                                        \
    }                                                                                              \
    static inline T2 __float2##NAME##2_rn(float a)                                                 \
    {                                                                                              \
        return T2(GPULAB_SIM_LOWP_R<T>(a), GPULAB_SIM_LOWP_R<T>(a));                               \
    }                                                                                              \
    static inline T2 __floats2##NAME##2_rn(float a, float b)                                       \
    {                                                                                              \
        return T2(GPULAB_SIM_LOWP_R<T>(a), GPULAB_SIM_LOWP_R<T>(b));                               \
    }                                                                                              \
    static inline T2 __float22##NAME##2_rn(float2 a)                                               \
    {                                                                                              \
        return T2(GPULAB_SIM_LOWP_R<T>(a.x), GPULAB_SIM_LOWP_R<T>(a.y));                           \
    }                                                                                              \
    static inline float2 __##NAME##22float2(T2 a)                                                  \
    {                                                                                              \
        float2 r;                                                                                  \
        r.x = (float)GPULAB_SIM_LOWP_V(a.x);                                                       \
        r.y = (float)GPULAB_SIM_LOWP_V(a.y);                                                       \
        return r;                                                                                  \
    }                                                                                              \
    static inline short __##NAME##_as_short(T h)                                                   \
    {                                                                                              \
        return (short)::gpulab_sim::lowp::bits(h);                                                 \
    }                                                                                              \
    static inline unsigned short __##NAME##_as_ushort(T h)                                         \
    {                                                                                              \
        return ::gpulab_sim::lowp::bits(h);                                                        \
    }                                                                                              \
    static inline T __short_as_##NAME(short i)                                                     \
    {                                                                                              \
        return ::gpulab_sim::lowp::make<T>((unsigned short)i);                                     \
    }                                                                                              \
    static inline T __ushort_as_##NAME(unsigned short i)                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::make<T>(i);                                                     \
    }                                                                                              \
    static inline signed char __##NAME##2char_rz(T h)                                              \
    {                                                                                              \
        return ::gpulab_sim::lowp::to_int<signed char>(GPULAB_SIM_LOWP_V(h),                       \
                                                       ::gpulab_sim::lowp::RZ);                    \
    }                                                                                              \
    static inline unsigned char __##NAME##2uchar_rz(T h)                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::to_int<unsigned char>(GPULAB_SIM_LOWP_V(h),                     \
                                                         ::gpulab_sim::lowp::RZ);                  \
    }                                                                                              \
    GPULAB_SIM_LOWP_INT(T, NAME, short, short)                                                     \
    GPULAB_SIM_LOWP_INT(T, NAME, unsigned short, ushort)                                           \
    GPULAB_SIM_LOWP_INT(T, NAME, int, int)                                                         \
    GPULAB_SIM_LOWP_INT(T, NAME, unsigned int, uint)                                               \
    GPULAB_SIM_LOWP_INT(T, NAME, long long, ll)                                                    \
    GPULAB_SIM_LOWP_INT(T, NAME, unsigned long long, ull)

// T to and from integer type I (named IN in the function names), in the
// four rounding modes.
#define GPULAB_SIM_LOWP_INT(T, NAME, I, IN)                                                        \
    GPULAB_SIM_LOWP_INT_MODE(T, NAME, I, IN, rn, RN)                                               \
    GPULAB_SIM_LOWP_INT_MODE(T, NAME, I, IN, rz, RZ)                                               \
    GPULAB_SIM_LOWP_INT_MODE(T, NAME, I, IN, rd, RD)                                               \
    GPULAB_SIM_LOWP_INT_MODE(T, NAME, I, IN, ru, RU)
#define GPULAB_SIM_LOWP_INT_MODE(T, NAME, I, IN, M, MODE)                                          \
    static inline I __##NAME##2##IN##_##M(T h)                                                     \
    {                                                                                              \
        return ::gpulab_sim::lowp::to_int<I>(GPULAB_SIM_LOWP_V(h), ::gpulab_sim::lowp::MODE);      \
    }                                                                                              \
    static inline T __##IN##2##NAME##_##M(I i)                                                     \
    {                                                                                              \
        return GPULAB_SIM_LOWP_R<T>(::gpulab_sim::lowp::int_to_odd(i), ::gpulab_sim::lowp::MODE);  \
    }

GPULAB_SIM_LOWP_CONVERSIONS(__half, __half2, half)
GPULAB_SIM_LOWP_CONVERSIONS(__nv_bfloat16, __nv_bfloat162, bfloat16)
#undef GPULAB_SIM_LOWP_CONVERSIONS
#undef GPULAB_SIM_LOWP_INT
#undef GPULAB_SIM_LOWP_INT_MODE

// Parts of pairs, and pairs from parts. NAME2 names the pair (half2, bfloat162).
#define GPULAB_SIM_LOWP_PARTS(T, T2, NAME, NAME2)                                                  \
    static inline T2 make_##NAME2(T x, T y)                                                        \
    {                                                                                              \
        return T2(x, y);                                                                           \
    }                                                                                              \
    static inline T2 __##NAME2##NAME2(T a)                                                         \
    {                                                                                              \
        return T2(a, a);                                                                           \
    }                                                                                              \
    static inline T2 __halves2##NAME2(T a, T b)                                                    \
    {                                                                                              \
        return T2(a, b);                                                                           \
    }                                                                                              \
    static inline T __low2##NAME(T2 a)                                                             \
    {                                                                                              \
        return a.x;                                                                                \
    }                                                                                              \
    static inline T __high2##NAME(T2 a)                                                            \
    {                                                                                              \
        return a.y;                                                                                \
    }                                                                                              \
    static inline float __low2float(T2 a)                                                          \
    {                                                                                              \
        return (float)GPULAB_SIM_LOWP_V(a.x);                                                      \
    }                                                                                              \
    static inline float __high2float(T2 a)                                                         \
    {                                                                                              \
        return (float)GPULAB_SIM_LOWP_V(a.y);                                                      \
    }                                                                                              \
    static inline T2 __low2##NAME2(T2 a)                                                           \
    {                                                                                              \
        return T2(a.x, a.x);                                                                       \
    }                                                                                              \
    static inline T2 __high2##NAME2(T2 a)                                                          \
    {                                                                                              \
        return T2(a.y, a.y);                                                                       \
    }                                                                                              \
    static inline T2 __lowhigh2highlow(T2 a)                                                       \
    {                                                                                              \
        return T2(a.y, a.x);                                                                       \
    }                                                                                              \
    static inline T2 __lows2##NAME2(T2 a, T2 b)                                                    \
    {                                                                                              \
        return T2(a.x, b.x);                                                                       \
    }                                                                                              \
    static inline T2 __highs2##NAME2(T2 a, T2 b)                                                   \
    {                                                                                              \
        return T2(a.y, b.y);                                                                       \
    }

GPULAB_SIM_LOWP_PARTS(__half, __half2, half, half2)
GPULAB_SIM_LOWP_PARTS(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)
#undef GPULAB_SIM_LOWP_PARTS

// Arithmetic, comparisons and math on T and its pair T2.
#define GPULAB_SIM_LOWP_BIN(T, NAME, EXPR)                                                         \
    static inline T NAME(T a, T b)                                                                 \
    {                                                                                              \
        double x = GPULAB_SIM_LOWP_V(a), y = GPULAB_SIM_LOWP_V(b);                                 \
        return GPULAB_SIM_LOWP_R<T>(EXPR);                                                         \
    }
#define GPULAB_SIM_LOWP_BIN2(T2, NAME, ONE)                                                        \
    static inline T2 NAME(T2 a, T2 b)                                                              \
    {                                                                                              \
        return T2(ONE(a.x, b.x), ONE(a.y, b.y));                                                   \
    }
#define GPULAB_SIM_LOWP_CMP(T, T2, NAME, EXPR, UNORDERED)                                          \
    static inline bool __h##NAME(T a, T b)                                                         \
    {                                                                                              \
        double x = GPULAB_SIM_LOWP_V(a), y = GPULAB_SIM_LOWP_V(b);                                 \
        return EXPR;                                                                               \
    }                                                                                              \
    static inline bool __h##NAME##u(T a, T b)                                                      \
    {                                                                                              \
        double x = GPULAB_SIM_LOWP_V(a), y = GPULAB_SIM_LOWP_V(b);                                 \
        return (std::isnan(x) || std::isnan(y)) ? true : (UNORDERED);                              \
    }                                                                                              \
    static inline T2 __h##NAME##2(T2 a, T2 b)                                                      \
    {                                                                                              \
        return T2(GPULAB_SIM_LOWP_R<T>(__h##NAME(a.x, b.x) ? 1.0 : 0.0),                           \
                  GPULAB_SIM_LOWP_R<T>(__h##NAME(a.y, b.y) ? 1.0 : 0.0));                          \
    }                                                                                              \
    static inline T2 __h##NAME##u2(T2 a, T2 b)                                                     \
    {                                                                                              \
        return T2(GPULAB_SIM_LOWP_R<T>(__h##NAME##u(a.x, b.x) ? 1.0 : 0.0),                        \
                  GPULAB_SIM_LOWP_R<T>(__h##NAME##u(a.y, b.y) ? 1.0 : 0.0));                       \
    }                                                                                              \
    static inline unsigned __h##NAME##2_mask(T2 a, T2 b)                                           \
    {                                                                                              \
        return (__h##NAME(a.x, b.x) ? 0xffffu : 0u) | (__h##NAME(a.y, b.y) ? 0xffff0000u : 0u);    \
    }                                                                                              \
    static inline unsigned __h##NAME##u2_mask(T2 a, T2 b)                                          \
    {                                                                                              \
        return (__h##NAME##u(a.x, b.x) ? 0xffffu : 0u) |                                           \
               (__h##NAME##u(a.y, b.y) ? 0xffff0000u : 0u);                                        \
    }                                                                                              \
    static inline bool __hb##NAME##2(T2 a, T2 b)                                                   \
    {                                                                                              \
        return __h##NAME(a.x, b.x) && __h##NAME(a.y, b.y);                                         \
    }                                                                                              \
    static inline bool __hb##NAME##u2(T2 a, T2 b)                                                  \
    {                                                                                              \
        return __h##NAME##u(a.x, b.x) && __h##NAME##u(a.y, b.y);                                   \
    }
#define GPULAB_SIM_LOWP_MATH(T, T2, NAME, EXPR)                                                    \
    static inline T h##NAME(T a)                                                                   \
    {                                                                                              \
        double x = GPULAB_SIM_LOWP_V(a);                                                           \
        return GPULAB_SIM_LOWP_R<T>(EXPR);                                                         \
    }                                                                                              \
    static inline T2 h2##NAME(T2 a)                                                                \
    {                                                                                              \
        return T2(h##NAME(a.x), h##NAME(a.y));                                                     \
    }

#define GPULAB_SIM_LOWP_OPS(T, T2)                                                                 \
    GPULAB_SIM_LOWP_BIN(T, __hadd, x + y)                                                          \
    GPULAB_SIM_LOWP_BIN(T, __hsub, x - y)                                                          \
    GPULAB_SIM_LOWP_BIN(T, __hmul, x *y)                                                           \
    GPULAB_SIM_LOWP_BIN(T, __hdiv, x / y)                                                          \
    GPULAB_SIM_LOWP_BIN(T, __hadd_rn, x + y)                                                       \
    GPULAB_SIM_LOWP_BIN(T, __hsub_rn, x - y)                                                       \
    GPULAB_SIM_LOWP_BIN(T, __hmul_rn, x *y)                                                        \
    static inline T __hadd_sat(T a, T b)                                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::sat(__hadd(a, b));                                              \
    }                                                                                              \
    static inline T __hsub_sat(T a, T b)                                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::sat(__hsub(a, b));                                              \
    }                                                                                              \
    static inline T __hmul_sat(T a, T b)                                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::sat(__hmul(a, b));                                              \
    }                                                                                              \
    static inline T __hfma(T a, T b, T c)                                                          \
    {                                                                                              \
        return ::gpulab_sim::lowp::fma(a, b, c);                                                   \
    }                                                                                              \
    static inline T __hfma_sat(T a, T b, T c)                                                      \
    {                                                                                              \
        return ::gpulab_sim::lowp::sat(::gpulab_sim::lowp::fma(a, b, c));                          \
    }                                                                                              \
    static inline T __hfma_relu(T a, T b, T c)                                                     \
    {                                                                                              \
        T r = ::gpulab_sim::lowp::fma(a, b, c);                                                    \
        if (::gpulab_sim::lowp::isnan(r))                                                          \
            return ::gpulab_sim::lowp::canonical_nan<T>();                                         \
        return GPULAB_SIM_LOWP_V(r) < 0 ? ::gpulab_sim::lowp::make<T>(0) : r;                      \
    }                                                                                              \
    static inline T __hneg(T a)                                                                    \
    {                                                                                              \
        return ::gpulab_sim::lowp::make<T>(                                                        \
            (unsigned short)(::gpulab_sim::lowp::bits(a) ^ 0x8000u));                              \
    }                                                                                              \
    static inline T __habs(T a)                                                                    \
    {                                                                                              \
        return ::gpulab_sim::lowp::make<T>(                                                        \
            (unsigned short)(::gpulab_sim::lowp::bits(a) & 0x7fffu));                              \
    }                                                                                              \
    static inline T __hmax(T a, T b)                                                               \
    {                                                                                              \
        return ::gpulab_sim::lowp::max(a, b, false);                                               \
    }                                                                                              \
    static inline T __hmin(T a, T b)                                                               \
    {                                                                                              \
        return ::gpulab_sim::lowp::min(a, b, false);                                               \
    }                                                                                              \
    static inline T __hmax_nan(T a, T b)                                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::max(a, b, true);                                                \
    }                                                                                              \
    static inline T __hmin_nan(T a, T b)                                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::min(a, b, true);                                                \
    }                                                                                              \
    static inline bool __hisnan(T a)                                                               \
    {                                                                                              \
        return ::gpulab_sim::lowp::isnan(a);                                                       \
    }                                                                                              \
    static inline int __hisinf(T a)                                                                \
    {                                                                                              \
        double x = GPULAB_SIM_LOWP_V(a);                                                           \
        return std::isinf(x) ? (x < 0 ? -1 : 1) : 0;                                               \
    }                                                                                              \
    GPULAB_SIM_LOWP_BIN2(T2, __hadd2, __hadd)                                                      \
    GPULAB_SIM_LOWP_BIN2(T2, __hsub2, __hsub)                                                      \
    GPULAB_SIM_LOWP_BIN2(T2, __hmul2, __hmul)                                                      \
    GPULAB_SIM_LOWP_BIN2(T2, __h2div, __hdiv)                                                      \
    GPULAB_SIM_LOWP_BIN2(T2, __hadd2_rn, __hadd)                                                   \
    GPULAB_SIM_LOWP_BIN2(T2, __hsub2_rn, __hsub)                                                   \
    GPULAB_SIM_LOWP_BIN2(T2, __hmul2_rn, __hmul)                                                   \
    GPULAB_SIM_LOWP_BIN2(T2, __hadd2_sat, __hadd_sat)                                              \
    GPULAB_SIM_LOWP_BIN2(T2, __hsub2_sat, __hsub_sat)                                              \
    GPULAB_SIM_LOWP_BIN2(T2, __hmul2_sat, __hmul_sat)                                              \
    GPULAB_SIM_LOWP_BIN2(T2, __hmax2, __hmax)                                                      \
    GPULAB_SIM_LOWP_BIN2(T2, __hmin2, __hmin)                                                      \
    GPULAB_SIM_LOWP_BIN2(T2, __hmax2_nan, __hmax_nan)                                              \
    GPULAB_SIM_LOWP_BIN2(T2, __hmin2_nan, __hmin_nan)                                              \
    static inline T2 __hfma2(T2 a, T2 b, T2 c)                                                     \
    {                                                                                              \
        return T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));                                   \
    }                                                                                              \
    static inline T2 __hfma2_sat(T2 a, T2 b, T2 c)                                                 \
    {                                                                                              \
        return T2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));                           \
    }                                                                                              \
    static inline T2 __hfma2_relu(T2 a, T2 b, T2 c)                                                \
    {                                                                                              \
        return T2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));                         \
    }                                                                                              \
    static inline T2 __hneg2(T2 a)                                                                 \
    {                                                                                              \
        return T2(__hneg(a.x), __hneg(a.y));                                                       \
    }                                                                                              \
    static inline T2 __habs2(T2 a)                                                                 \
    {                                                                                              \
        return T2(__habs(a.x), __habs(a.y));                                                       \
    }                                                                                              \
    static inline T2 __hisnan2(T2 a)                                                               \
    {                                                                                              \
        return T2(GPULAB_SIM_LOWP_R<T>(__hisnan(a.x) ? 1.0 : 0.0),                                 \
                  GPULAB_SIM_LOWP_R<T>(__hisnan(a.y) ? 1.0 : 0.0));                                \
    }                                                                                              \
    GPULAB_SIM_LOWP_CMP(T, T2, eq, x == y, x == y)                                                 \
    GPULAB_SIM_LOWP_CMP(T, T2, ne, x<y || x> y, x != y)                                            \
    GPULAB_SIM_LOWP_CMP(T, T2, lt, x < y, x < y)                                                   \
    GPULAB_SIM_LOWP_CMP(T, T2, le, x <= y, x <= y)                                                 \
    GPULAB_SIM_LOWP_CMP(T, T2, gt, x > y, x > y)                                                   \
    GPULAB_SIM_LOWP_CMP(T, T2, ge, x >= y, x >= y)                                                 \
    GPULAB_SIM_LOWP_MATH(T, T2, sqrt, std::sqrt(x))                                                \
    GPULAB_SIM_LOWP_MATH(T, T2, rsqrt, 1.0 / std::sqrt(x))                                         \
    GPULAB_SIM_LOWP_MATH(T, T2, rcp, 1.0 / x)                                                      \
    GPULAB_SIM_LOWP_MATH(T, T2, exp, std::exp(x))                                                  \
    GPULAB_SIM_LOWP_MATH(T, T2, exp2, std::exp2(x))                                                \
    GPULAB_SIM_LOWP_MATH(T, T2, exp10, std::pow(10.0, x))                                          \
    GPULAB_SIM_LOWP_MATH(T, T2, log, std::log(x))                                                  \
    GPULAB_SIM_LOWP_MATH(T, T2, log2, std::log2(x))                                                \
    GPULAB_SIM_LOWP_MATH(T, T2, log10, std::log10(x))                                              \
    GPULAB_SIM_LOWP_MATH(T, T2, sin, std::sin(x))                                                  \
    GPULAB_SIM_LOWP_MATH(T, T2, cos, std::cos(x))                                                  \
    GPULAB_SIM_LOWP_MATH(T, T2, tanh, std::tanh(x))                                                \
    GPULAB_SIM_LOWP_MATH(T, T2, trunc, std::trunc(x))                                              \
    GPULAB_SIM_LOWP_MATH(T, T2, ceil, std::ceil(x))                                                \
    GPULAB_SIM_LOWP_MATH(T, T2, floor, std::floor(x))                                              \
    GPULAB_SIM_LOWP_MATH(T, T2, rint, std::nearbyint(x))                                           \
    static inline T operator+(const T &a, const T &b)                                              \
    {                                                                                              \
        return __hadd(a, b);                                                                       \
    }                                                                                              \
    static inline T operator-(const T &a, const T &b)                                              \
    {                                                                                              \
        return __hsub(a, b);                                                                       \
    }                                                                                              \
    static inline T operator*(const T &a, const T &b)                                              \
    {                                                                                              \
        return __hmul(a, b);                                                                       \
    }                                                                                              \
    static inline T operator/(const T &a, const T &b)                                              \
    {                                                                                              \
        return __hdiv(a, b);                                                                       \
    }                                                                                              \
    static inline T &operator+=(T &a, const T &b)                                                  \
    {                                                                                              \
        return a = __hadd(a, b);                                                                   \
    }                                                                                              \
    static inline T &operator-=(T &a, const T &b)                                                  \
    {                                                                                              \
        return a = __hsub(a, b);                                                                   \
    }                                                                                              \
    static inline T &operator*=(T &a, const T &b)                                                  \
    {                                                                                              \
        return a = __hmul(a, b);                                                                   \
    }                                                                                              \
    static inline T &operator/=(T &a, const T &b)                                                  \
    {                                                                                              \
        return a = __hdiv(a, b);                                                                   \
    }                                                                                              \
    static inline T operator+(const T &a)                                                          \
    {                                                                                              \
        return a;                                                                                  \
    }                                                                                              \
    static inline T operator-(const T &a)                                                          \
    {                                                                                              \
        return __hneg(a);                                                                          \
    }                                                                                              \
    static inline T &operator++(T &a)                                                              \
    {                                                                                              \
        return a = __hadd(a, GPULAB_SIM_LOWP_R<T>(1.0));                                           \
    }                                                                                              \
    static inline T &operator--(T &a)                                                              \
    {                                                                                              \
        return a = __hsub(a, GPULAB_SIM_LOWP_R<T>(1.0));                                           \
    }                                                                                              \
    static inline T operator++(T &a, int)                                                          \
    {                                                                                              \
        T old = a;                                                                                 \
        ++a;                                                                                       \
        return old;                                                                                \
    }                                                                                              \
    static inline T operator--(T &a, int)                                                          \
    {                                                                                              \
        T old = a;                                                                                 \
        --a;                                                                                       \
        return old;                                                                                \
    }                                                                                              \
    static inline bool operator==(const T &a, const T &b)                                          \
    {                                                                                              \
        return __heq(a, b);                                                                        \
    }                                                                                              \
    static inline bool operator!=(const T &a, const T &b)                                          \
    {                                                                                              \
        return __hneu(a, b);                                                                       \
    }                                                                                              \
    static inline bool operator<(const T &a, const T &b)                                           \
    {                                                                                              \
        return __hlt(a, b);                                                                        \
    }                                                                                              \
    static inline bool operator<=(const T &a, const T &b)                                          \
    {                                                                                              \
        return __hle(a, b);                                                                        \
    }                                                                                              \
    static inline bool operator>(const T &a, const T &b)                                           \
    {                                                                                              \
        return __hgt(a, b);                                                                        \
    }                                                                                              \
    static inline bool operator>=(const T &a, const T &b)                                          \
    {                                                                                              \
        return __hge(a, b);                                                                        \
    }                                                                                              \
    static inline T2 operator+(const T2 &a, const T2 &b)                                           \
    {                                                                                              \
        return __hadd2(a, b);                                                                      \
    }                                                                                              \
    static inline T2 operator-(const T2 &a, const T2 &b)                                           \
    {                                                                                              \
        return __hsub2(a, b);                                                                      \
    }                                                                                              \
    static inline T2 operator*(const T2 &a, const T2 &b)                                           \
    {                                                                                              \
        return __hmul2(a, b);                                                                      \
    }                                                                                              \
    static inline T2 operator/(const T2 &a, const T2 &b)                                           \
    {                                                                                              \
        return __h2div(a, b);                                                                      \
    }                                                                                              \
    static inline T2 &operator+=(T2 &a, const T2 &b)                                               \
    {                                                                                              \
        return a = __hadd2(a, b);                                                                  \
    }                                                                                              \
    static inline T2 &operator-=(T2 &a, const T2 &b)                                               \
    {                                                                                              \
        return a = __hsub2(a, b);                                                                  \
    }                                                                                              \
    static inline T2 &operator*=(T2 &a, const T2 &b)                                               \
    {                                                                                              \
        return a = __hmul2(a, b);                                                                  \
    }                                                                                              \
    static inline T2 &operator/=(T2 &a, const T2 &b)                                               \
    {                                                                                              \
        return a = __h2div(a, b);                                                                  \
    }                                                                                              \
    static inline T2 operator-(const T2 &a)                                                        \
    {                                                                                              \
        return __hneg2(a);                                                                         \
    }                                                                                              \
    static inline bool operator==(const T2 &a, const T2 &b)                                        \
    {                                                                                              \
        return __hbeq2(a, b);                                                                      \
    }                                                                                              \
    static inline bool operator!=(const T2 &a, const T2 &b)                                        \
    {                                                                                              \
        return __hbneu2(a, b);                                                                     \
    }                                                                                              \
    static inline T atomicAdd(T *address, T val)                                                   \
    {                                                                                              \
        return ::gpulab_sim::lowp::atomic_update(address, [val](T old) { return old + val; });     \
    }                                                                                              \
    static inline T2 atomicAdd(T2 *address, T2 val)                                                \
    {                                                                                              \
        T2 old;                                                                                    \
        old.x = atomicAdd(&address->x, val.x);                                                     \
        old.y = atomicAdd(&address->y, val.y);                                                     \
        return old;                                                                                \
    }

GPULAB_SIM_LOWP_OPS(__half, __half2)
GPULAB_SIM_LOWP_OPS(__nv_bfloat16, __nv_bfloat162)
#undef GPULAB_SIM_LOWP_OPS
#undef GPULAB_SIM_LOWP_BIN
#undef GPULAB_SIM_LOWP_BIN2
#undef GPULAB_SIM_LOWP_CMP
#undef GPULAB_SIM_LOWP_MATH

// Conversions between the two 16-bit types (one rounding: __half values are exact in double).
static inline __nv_bfloat16 __half2bfloat16(__half h)
{
    return GPULAB_SIM_LOWP_R<__nv_bfloat16>(GPULAB_SIM_LOWP_V(h));
}
static inline __half __bfloat162half(__nv_bfloat16 h)
{
    return GPULAB_SIM_LOWP_R<__half>(GPULAB_SIM_LOWP_V(h));
}

#undef GPULAB_SIM_LOWP_R
#undef GPULAB_SIM_LOWP_V

// Constants of cuda_fp16.h and cuda_bf16.h.
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

#endif // GPULAB_SIM_LOWP_HPP
