// gpulab_sim/lowp.hpp — the functions and operators of cuda_fp16.h and
// cuda_bf16.h on the CPU, over the two 16-bit types of lowp_format.hpp
// (__half, __nv_bfloat16) and their pairs: conversions with CUDA's rounding
// modes, arithmetic, comparisons, math functions and atomics. Each is
// written once, for a type T and its pair T2, and made for both types.
#ifndef GPULAB_SIM_LOWP_HPP
#define GPULAB_SIM_LOWP_HPP

#include "lowp_format.hpp"

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

// The operators of T or of its pair (X), on the functions that compute them.
#define GPULAB_SIM_LOWP_OPERATORS(X, ONE, ADD, SUB, MUL, DIV, NEG, EQ, NE, LT, LE, GT, GE)         \
    GPULAB_SIM_LOWP_OPERATOR(X, X, +, ADD)                                                         \
    GPULAB_SIM_LOWP_OPERATOR(X, X, -, SUB)                                                         \
    GPULAB_SIM_LOWP_OPERATOR(X, X, *, MUL)                                                         \
    GPULAB_SIM_LOWP_OPERATOR(X, X, /, DIV)                                                         \
    GPULAB_SIM_LOWP_OPERATOR(X, bool, ==, EQ)                                                      \
    GPULAB_SIM_LOWP_OPERATOR(X, bool, !=, NE)                                                      \
    GPULAB_SIM_LOWP_OPERATOR(X, bool, <, LT)                                                       \
    GPULAB_SIM_LOWP_OPERATOR(X, bool, <=, LE)                                                      \
    GPULAB_SIM_LOWP_OPERATOR(X, bool, >, GT)                                                       \
    GPULAB_SIM_LOWP_OPERATOR(X, bool, >=, GE)                                                      \
    GPULAB_SIM_LOWP_ASSIGN(X, +=, ADD)                                                             \
    GPULAB_SIM_LOWP_ASSIGN(X, -=, SUB)                                                             \
    GPULAB_SIM_LOWP_ASSIGN(X, *=, MUL)                                                             \
    GPULAB_SIM_LOWP_ASSIGN(X, /=, DIV)                                                             \
    static inline X operator+(const X &a)                                                          \
    {                                                                                              \
        return a;                                                                                  \
    }                                                                                              \
    static inline X operator-(const X &a)                                                          \
    {                                                                                              \
        return NEG(a);                                                                             \
    }                                                                                              \
    static inline X &operator++(X &a)                                                              \
    {                                                                                              \
        return a = ADD(a, ONE);                                                                    \
    }                                                                                              \
    static inline X &operator--(X &a)                                                              \
    {                                                                                              \
        return a = SUB(a, ONE);                                                                    \
    }                                                                                              \
    static inline X operator++(X &a, int)                                                          \
    {                                                                                              \
        X old = a;                                                                                 \
        a = ADD(a, ONE);                                                                           \
        return old;                                                                                \
    }                                                                                              \
    static inline X operator--(X &a, int)                                                          \
    {                                                                                              \
        X old = a;                                                                                 \
        a = SUB(a, ONE);                                                                           \
        return old;                                                                                \
    }
#define GPULAB_SIM_LOWP_OPERATOR(X, R, OP, F)                                                      \
    static inline R operator OP(const X &a, const X &b)                                            \
    {                                                                                              \
        return F(a, b);                                                                            \
    }
#define GPULAB_SIM_LOWP_ASSIGN(X, OP, F)                                                           \
    static inline X &operator OP(X &a, const X &b)                                                 \
    {                                                                                              \
        return a = F(a, b);                                                                        \
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
        return ::gpulab_sim::lowp::extreme(a, b, true, false);                                     \
    }                                                                                              \
    static inline T __hmin(T a, T b)                                                               \
    {                                                                                              \
        return ::gpulab_sim::lowp::extreme(a, b, false, false);                                    \
    }                                                                                              \
    static inline T __hmax_nan(T a, T b)                                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::extreme(a, b, true, true);                                      \
    }                                                                                              \
    static inline T __hmin_nan(T a, T b)                                                           \
    {                                                                                              \
        return ::gpulab_sim::lowp::extreme(a, b, false, true);                                     \
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
    GPULAB_SIM_LOWP_OPERATORS(T, GPULAB_SIM_LOWP_R<T>(1.0), __hadd, __hsub, __hmul, __hdiv,        \
                              __hneg, __heq, __hneu, __hlt, __hle, __hgt, __hge)                   \
    GPULAB_SIM_LOWP_OPERATORS(T2, T2(GPULAB_SIM_LOWP_R<T>(1.0), GPULAB_SIM_LOWP_R<T>(1.0)),        \
                              __hadd2, __hsub2, __hmul2, __h2div, __hneg2, __hbeq2, __hbneu2,      \
                              __hblt2, __hble2, __hbgt2, __hbge2)                                  \
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
#undef GPULAB_SIM_LOWP_OPERATORS
#undef GPULAB_SIM_LOWP_OPERATOR
#undef GPULAB_SIM_LOWP_ASSIGN
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
