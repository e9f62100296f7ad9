/* cuda_bf16.h — gpulab simulator stand-in: half precision (__half, __nv_bfloat16) is not simulated.
 * This file exists so that a program including it gets this message, not a confusing error from
 * some other CUDA installation's header. */
#ifndef GPULAB_SIM_ABSENT_CUDA_BF16_H
#define GPULAB_SIM_ABSENT_CUDA_BF16_H
#error                                                                                             \
    "gpulab-sim: half precision (__half, __nv_bfloat16) is not part of the CPU simulator (see docs/simulator.md); build this program with nvcc for a GPU"
#endif
