/*
 * cuda_bf16.h — gpulab simulator stand-in for CUDA's cuda_bf16.h:
 * __nv_bfloat16 and __nv_bfloat162 with their conversions, arithmetic,
 * comparisons, math functions and atomicAdd. They are declared with __half in
 * cuda_fp16.h (both types share gpulab_sim/lowp.hpp), which this includes.
 */
#ifndef GPULAB_SIM_CUDA_BF16_H
#define GPULAB_SIM_CUDA_BF16_H
/* CUDA's own guard name: programs test it to know the header is in. */
#define __CUDA_BF16_H__

#include "cuda_fp16.h"

#endif /* GPULAB_SIM_CUDA_BF16_H */
