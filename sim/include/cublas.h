/* cublas.h — gpulab simulator stand-in: the legacy cuBLAS API (cublas.h) is not simulated. This
 * file exists so that a program including it gets this message, not a confusing error from some
 * other CUDA installation's header. */
#ifndef GPULAB_SIM_ABSENT_CUBLAS_H
#define GPULAB_SIM_ABSENT_CUBLAS_H
#error                                                                                             \
    "gpulab-sim: the legacy cuBLAS API (cublas.h) is not part of the CPU simulator; include <cublas_v2.h> instead"
#endif
