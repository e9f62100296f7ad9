/* cub/device/device_histogram.cuh — gpulab simulator stand-in: CUB is not simulated yet. This file
 * exists so that a program including it gets this message, not "No such file
 * or directory" or a confusing error from some other CUDA installation. */
#ifndef GPULAB_SIM_ABSENT_CUB_DEVICE_DEVICE_HISTOGRAM_CUH
#define GPULAB_SIM_ABSENT_CUB_DEVICE_DEVICE_HISTOGRAM_CUH
#error                                                                                             \
    "gpulab-sim: CUB is not part of the CPU simulator yet (see docs/simulator.md); write the kernel, or build this program with nvcc for a GPU"
#endif
