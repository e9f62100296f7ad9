/*
 * vector_types.h — gpulab simulator stand-in for CUDA's built-in vector types:
 * dim3, uint3, and the int/uint/float/double vectors with their make_ helpers.
 * Usable from C and C++; in C++, dim3 has CUDA's constructors.
 */
#ifndef GPULAB_SIM_VECTOR_TYPES_H
#define GPULAB_SIM_VECTOR_TYPES_H
/* CUDA's own guard name: programs test it to know the header is in. */
#define __VECTOR_TYPES_H__

#define GPULAB_SIM_VEC2(T, N)                                                                      \
    typedef struct N {                                                                             \
        T x, y;                                                                                    \
    } N;
#define GPULAB_SIM_VEC3(T, N)                                                                      \
    typedef struct N {                                                                             \
        T x, y, z;                                                                                 \
    } N;
#define GPULAB_SIM_VEC4(T, N)                                                                      \
    typedef struct N {                                                                             \
        T x, y, z, w;                                                                              \
    } N;

GPULAB_SIM_VEC2(char, char2)
GPULAB_SIM_VEC2(unsigned char, uchar2)
GPULAB_SIM_VEC4(char, char4)
GPULAB_SIM_VEC4(unsigned char, uchar4)
GPULAB_SIM_VEC2(int, int2)
GPULAB_SIM_VEC3(int, int3)
GPULAB_SIM_VEC4(int, int4)
GPULAB_SIM_VEC2(unsigned int, uint2)
GPULAB_SIM_VEC3(unsigned int, uint3)
GPULAB_SIM_VEC4(unsigned int, uint4)
GPULAB_SIM_VEC2(long long, longlong2)
GPULAB_SIM_VEC2(float, float2)
GPULAB_SIM_VEC3(float, float3)
GPULAB_SIM_VEC4(float, float4)
GPULAB_SIM_VEC2(double, double2)
GPULAB_SIM_VEC3(double, double3)
GPULAB_SIM_VEC4(double, double4)

#undef GPULAB_SIM_VEC2
#undef GPULAB_SIM_VEC3
#undef GPULAB_SIM_VEC4

/* Grid and block extents; unspecified extents are 1. */
struct dim3 {
    unsigned int x, y, z;
#ifdef __cplusplus
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz)
    {
    }
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const
    {
        return uint3{ x, y, z };
    }
#endif
};
typedef struct dim3 dim3;

/* One return statement in C++, as a C++11 constexpr function must be. */
#ifdef __cplusplus
#define GPULAB_SIM_MAKE_INLINE static inline constexpr
#define GPULAB_SIM_MAKE_BODY(T, ...)                                                               \
    {                                                                                              \
        return T{ __VA_ARGS__ };                                                                   \
    }
#else
#define GPULAB_SIM_MAKE_INLINE static inline
#define GPULAB_SIM_MAKE_BODY(T, ...)                                                               \
    {                                                                                              \
        T v = { __VA_ARGS__ };                                                                     \
        return v;                                                                                  \
    }
#endif

/* clang-format off */
GPULAB_SIM_MAKE_INLINE int2 make_int2(int x, int y) GPULAB_SIM_MAKE_BODY(int2, x, y)
GPULAB_SIM_MAKE_INLINE int3 make_int3(int x, int y, int z) GPULAB_SIM_MAKE_BODY(int3, x, y, z)
GPULAB_SIM_MAKE_INLINE int4 make_int4(int x, int y, int z, int w) GPULAB_SIM_MAKE_BODY(int4, x, y, z, w)
GPULAB_SIM_MAKE_INLINE uint2 make_uint2(unsigned x, unsigned y) GPULAB_SIM_MAKE_BODY(uint2, x, y)
GPULAB_SIM_MAKE_INLINE uint3 make_uint3(unsigned x, unsigned y, unsigned z) GPULAB_SIM_MAKE_BODY(uint3, x, y, z)
GPULAB_SIM_MAKE_INLINE uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) GPULAB_SIM_MAKE_BODY(uint4, x, y, z, w)
GPULAB_SIM_MAKE_INLINE float2 make_float2(float x, float y) GPULAB_SIM_MAKE_BODY(float2, x, y)
GPULAB_SIM_MAKE_INLINE float3 make_float3(float x, float y, float z) GPULAB_SIM_MAKE_BODY(float3, x, y, z)
GPULAB_SIM_MAKE_INLINE float4 make_float4(float x, float y, float z, float w) GPULAB_SIM_MAKE_BODY(float4, x, y, z, w)
GPULAB_SIM_MAKE_INLINE double2 make_double2(double x, double y) GPULAB_SIM_MAKE_BODY(double2, x, y)
GPULAB_SIM_MAKE_INLINE uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) GPULAB_SIM_MAKE_BODY(uchar4, x, y, z, w)
/* clang-format on */

#undef GPULAB_SIM_MAKE_INLINE
#undef GPULAB_SIM_MAKE_BODY

#endif /* GPULAB_SIM_VECTOR_TYPES_H */
