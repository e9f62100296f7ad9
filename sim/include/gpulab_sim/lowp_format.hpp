// gpulab_sim/lowp_format.hpp — the 16-bit floating-point formats of
// cuda_fp16.h and cuda_bf16.h: __half (IEEE binary16: 1 sign, 5 exponent, 10
// mantissa bits) and __nv_bfloat16 (1, 8, 7), their pairs, and the rounding
// of a double to either in CUDA's four modes. The functions and operators
// on them are in lowp.hpp, which includes this.
//
// Every result is computed exactly or in double and rounded once to the
// 16-bit format, so conversions and the basic operations (+, -, *, /, fma,
// sqrt) give the correctly rounded value a GPU gives. Double has more than
// 2p + 2 bits for both formats (p = 11 and 8), so rounding a double sum,
// product, quotient or square root of two 16-bit values again gives the
// correctly rounded result; fma rounds its double sum to odd first, which
// makes the second rounding exact as well. Written for C++11.
#ifndef GPULAB_SIM_LOWP_FORMAT_HPP
#define GPULAB_SIM_LOWP_FORMAT_HPP

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

// Each type's raw struct and format, and its bits.
template <class T>
struct format;
template <>
struct format<__half> {
    typedef __half_raw raw;
    static const int mbits = 10, ebits = 5;
};
template <>
struct format<__nv_bfloat16> {
    typedef __nv_bfloat16_raw raw;
    static const int mbits = 7, ebits = 8;
};
template <class T>
inline unsigned short bits(T h)
{
    return static_cast<typename format<T>::raw>(h).x;
}
template <class T>
inline T make(unsigned short b)
{
    typename format<T>::raw r;
    r.x = b;
    return T(r);
}
template <class T>
inline double value(T h)
{
    return decode(bits(h), format<T>::mbits, format<T>::ebits);
}
template <class T>
inline T round(double v, rmode r = RN)
{
    return make<T>(encode(v, format<T>::mbits, format<T>::ebits, r));
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
// The larger (or smaller) of a and b: a NaN operand gives the other one,
// two NaNs (or one, with nan_wins) the canonical NaN; +0 is larger than -0.
template <class T>
inline T extreme(T a, T b, bool larger, bool nan_wins)
{
    bool na = isnan(a), nb = isnan(b);
    if (na || nb) {
        if (nan_wins || (na && nb))
            return canonical_nan<T>();
        return na ? b : a;
    }
    double x = value(a), y = value(b);
    if (x == y)
        return (bool)std::signbit(x) == larger ? b : a;
    return (x > y) == larger ? a : b;
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

#endif // GPULAB_SIM_LOWP_FORMAT_HPP
