/*
 * cuda_fp16.h — gpulab simulator stand-in for CUDA's cuda_fp16.h: __half and
 * __nv_bfloat16 (also cuda_bf16.h's), their pairs __half2 and __nv_bfloat162, conversions with
 * CUDA's rounding modes, arithmetic, comparisons, math functions, atomicAdd,
 * in host and device code. Correctly rounded as on a GPU; see
 * gpulab_sim/lowp.hpp. In C only the raw types (the bits) are declared.
 */
#ifndef GPULAB_SIM_CUDA_FP16_H
#define GPULAB_SIM_CUDA_FP16_H
/* CUDA's own guard name: programs test it to know the header is in. */
#define __CUDA_FP16_H__

#ifdef __cplusplus
#include "gpulab_sim/lowp.hpp"
#else
typedef struct {
    unsigned short x;
} __half_raw;
typedef struct {
    unsigned short x, y;
} __half2_raw;
typedef struct {
    unsigned short x;
} __nv_bfloat16_raw;
typedef struct {
    unsigned short x, y;
} __nv_bfloat162_raw;
#endif

#endif /* GPULAB_SIM_CUDA_FP16_H */
