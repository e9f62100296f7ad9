// trace.hpp — the timeline of device work (GPULAB_SIM_TRACE; trace.cpp).
#pragma once

#include <cuda_runtime.h>

#include <string>

namespace gpulab_sim
{

// One operation of device `device` on stream `stream` (null: the legacy
// default stream), from start_us to end_us on the clock modeled for GPU
// `gpu`, written to the timeline when GPULAB_SIM_TRACE asks for one. engine:
// the copy engine it used (1 H2D, 2 D2H, 3 device memory; 0 none), whose row
// shows it too; `bound` and `bytes` as the model gives them.
void trace_device_op(int device, const void *stream, const char *kind, const std::string &name,
                     double start_us, double end_us, int engine, const char *gpu, const char *bound,
                     double bytes);

struct gpu_profile;
struct kernel_shape;
struct kernel_counts;
struct model_result;
// A kernel's slice: its grid and block, and the figures `gpulab ncu` reports
// from it (args named ncu_*: the GPU's limits, the occupancy, the counts, the
// parts of the modeled time; basis says how the counts were obtained).
void trace_kernel(int device, const void *stream, const char *name, double start_us, double end_us,
                  const gpu_profile &g, const kernel_shape &k, const kernel_counts &c,
                  const model_result &m, const char *basis);

} // namespace gpulab_sim
