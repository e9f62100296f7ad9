/* cooperative_groups.h — gpulab simulator stand-in: cooperative groups are not simulated. This file
 * exists so that a program including it gets this message, not a confusing error from some other
 * CUDA installation's header. */
#ifndef GPULAB_SIM_ABSENT_COOPERATIVE_GROUPS_H
#define GPULAB_SIM_ABSENT_COOPERATIVE_GROUPS_H
#error                                                                                             \
    "gpulab-sim: cooperative groups are not part of the CPU simulator (see docs/simulator.md); build this program with nvcc for a GPU"
#endif
