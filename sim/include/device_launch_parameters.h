/* device_launch_parameters.h — gpulab simulator stand-in: the built-in
 * variables (threadIdx, blockIdx, blockDim, gridDim, warpSize) come with
 * cuda_runtime.h. */
#ifndef GPULAB_SIM_DEVICE_LAUNCH_PARAMETERS_H
#define GPULAB_SIM_DEVICE_LAUNCH_PARAMETERS_H
#include "cuda_runtime.h"
#endif
