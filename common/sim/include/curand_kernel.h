/* curand_kernel.h — gpulab simulator stand-in: cuRAND is not simulated. This file exists
 * so that a program including it gets this message, not a confusing error
 * from some other CUDA installation's header. */
#ifndef GPULAB_SIM_ABSENT_CURAND_KERNEL_H
#define GPULAB_SIM_ABSENT_CURAND_KERNEL_H
#error                                                                                             \
    "gpulab-sim: cuRAND is not part of the CPU simulator (see docs/simulator.md); build this program with nvcc for a GPU"
#endif
