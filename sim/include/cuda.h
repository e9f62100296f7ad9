/* cuda.h — gpulab simulator stand-in: the CUDA driver API (cu* functions) is not simulated. This
 * file exists so that a program including it gets this message, not a confusing error from some
 * other CUDA installation's header. */
#ifndef GPULAB_SIM_ABSENT_CUDA_H
#define GPULAB_SIM_ABSENT_CUDA_H
#error                                                                                             \
    "gpulab-sim: the CUDA driver API (cu* functions) is not part of the CPU simulator (see docs/simulator.md); build this program with nvcc for a GPU"
#endif
