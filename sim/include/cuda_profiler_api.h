/* cuda_profiler_api.h — gpulab simulator stand-in: cudaProfilerStart and
 * cudaProfilerStop are accepted and do nothing (declared in cuda_runtime_api.h). */
#ifndef GPULAB_SIM_CUDA_PROFILER_API_H
#define GPULAB_SIM_CUDA_PROFILER_API_H
#include "cuda_runtime_api.h"
#endif
