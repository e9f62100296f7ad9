/* thrust/iterator/constant_iterator.h — gpulab simulator stand-in: Thrust is not simulated yet.
 * This file exists so that a program including it gets this message, not "No such file or
 * directory" or a confusing error from some other CUDA installation. */
#ifndef GPULAB_SIM_ABSENT_THRUST_ITERATOR_CONSTANT_ITERATOR_H
#define GPULAB_SIM_ABSENT_THRUST_ITERATOR_CONSTANT_ITERATOR_H
#error                                                                                             \
    "gpulab-sim: Thrust is not part of the CPU simulator yet (see docs/simulator.md); write the kernel, or build this program with nvcc for a GPU"
#endif
