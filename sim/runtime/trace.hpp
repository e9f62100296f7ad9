// trace.hpp — the timeline of `gpulab nsys profile` (GPULAB_SIM_TRACE;
// trace.cpp): device work at its modeled times, and the host's CUDA API calls
// and NVTX ranges on the CPU clock.
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

// A cudaEventRecord on stream `stream` of device `device`, as a mark at
// t_us on the modeled clock.
void trace_device_mark(int device, const void *stream, const char *name, double t_us,
                       const char *gpu);

// Whether a timeline is being written (GPULAB_SIM_TRACE is set).
bool trace_on();
// The host's CPU clock, microseconds since the process started tracing.
double trace_now_us();
// A CUDA API call of the calling host thread, on its row, from t0 to t1 (CPU
// clock); `what` (may be null): the kernel launched or the cuBLAS routine.
void trace_host_call(const char *name, double t0_us, double t1_us, const char *what = nullptr);
// NVTX: a range of the calling thread (push/pop, or start/end), and a mark.
void trace_nvtx_range(const char *name, double t0_us, double t1_us);
void trace_nvtx_mark(const char *name, double t_us);

// A CUDA API call on the host's row of the timeline, from this object's
// construction to its destruction. Calls made inside another (cudaMemcpy
// calling the copy code, a cuBLAS routine launching work) are not repeated.
class trace_api
{
  public:
    explicit trace_api(const char *name, const char *what = nullptr)
    {
        if (!trace_on())
            return;
        counted_ = true;
        if (depth()++ == 0) {
            name_ = name;
            what_ = what;
            t0_ = trace_now_us();
        }
    }
    ~trace_api()
    {
        if (!counted_)
            return;
        depth()--;
        if (name_)
            trace_host_call(name_, t0_, trace_now_us(), what_);
    }
    trace_api(const trace_api &) = delete;
    trace_api &operator=(const trace_api &) = delete;

  private:
    static int &depth()
    {
        static thread_local int d = 0;
        return d;
    }
    bool counted_ = false;
    const char *name_ = nullptr, *what_ = nullptr;
    double t0_ = 0;
};

} // namespace gpulab_sim
