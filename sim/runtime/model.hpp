// model.hpp — the performance model (GPULAB_SIM_MODEL): GPU profiles, the
// formulas that turn the simulator's counts into modeled GPU time, and the
// modeled clock of each stream. The rest of the runtime reports each piece
// of work here as it runs on the device's executor. See model.cpp,
// model_formulas.cpp and docs/model.md.
#ifndef GPULAB_SIM_MODEL_HPP
#define GPULAB_SIM_MODEL_HPP

#include "occupancy.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpulab_sim
{

// A GPU as the model sees it: public specifications (sources in model_profiles.cpp).
struct gpu_profile {
    const char *key;  // the value of GPULAB_SIM_MODEL
    const char *name; // full name, as printed
    int sms;          // streaming multiprocessors
    double clock_ghz; // boost clock
    int fp32_lanes;   // FP32 lanes per SM
    int max_warps;    // resident warps per SM
    int max_blocks;   // resident blocks per SM
    int regs;         // 32-bit registers per SM
    int smem_kb;      // shared memory per SM usable by blocks, KiB
    double l2_mb;     // L2 cache, MiB
    double dram_gbs;  // DRAM bandwidth, GB/s (10^9 bytes)
    int pcie_gen, pcie_lanes;
    double launch_us;       // kernel launch latency, as events around an empty kernel see it
    int cc_major, cc_minor; // compute capability
    int bus_bits;           // memory bus width; with dram_gbs it gives the memory clock
};

// The profile named key (GPULAB_SIM_MODEL's spelling), or null.
const gpu_profile *model_lookup(const char *key);
// The GPU this run asks for: GPULAB_SIM_MODEL when it is set, else the
// program's built-in default (gpulab_sim_default_model, which the kit's lab
// programs carry); nullptr when neither, or when it is "off" (or "none", "0").
const char *model_wanted();
// Every profile, for lists and tests; *n receives the count.
const gpu_profile *model_profiles(int *n);
// The modeled GPU of this run (GPULAB_SIM_MODEL), or null; says once on
// stderr what is modeled, or what was wrong with the variable.
const gpu_profile *model_gpu();

// What the simulator counted for one launch (zeros when it could not count).
struct kernel_counts {
    bool counted = false; // from the check twin's counters
    double sample = 1.0;  // 1 in `sample` blocks counted (0, sample, 2 sample, ...)
    double threads = 0;   // threads launched
    double load_requests = 0, load_sectors = 0;
    double store_requests = 0, store_sectors = 0;
    double global_accesses = 0, shared_accesses = 0; // by all threads
    double barriers = 0;                             // barrier releases, all blocks
    // Shared-memory warp requests and the bank wavefronts they take (1 per
    // request without bank conflicts, up to 32), scaled to the counted blocks.
    double shared_requests = 0, shared_wavefronts = 0;
    // Static __shared__ bytes per block: the variables the counted blocks
    // touched (0 when none did, or nothing was counted).
    double static_smem = 0;
};

// One launch's configuration.
struct kernel_shape {
    dim3 grid, block;
    size_t shmem;           // dynamic shared memory per block
    size_t static_smem = 0; // static __shared__ bytes per block, where known
};

// The model's verdict on one piece of work.
struct model_result {
    double us = 0;                // modeled time, microseconds
    const char *bound = "launch"; // memory, latency, compute, launch, pcie
    double bytes = 0;             // bytes it moves
    double sectors = 0;           // 32-byte sectors (kernels)
    double occupancy = 0;         // resident warps / max warps per SM (kernels)
    double waves = 0;             // waves of blocks over the SMs (kernels)
    // Kernels, for `gpulab ncu`: the parts of the time (us) before they are
    // added up (memory, instruction issue on the busiest SM, barrier waits,
    // shared-memory wavefronts), the occupancy the blocks reach on average
    // over the waves, and the registers per thread assumed.
    double t_mem = 0, t_issue = 0, t_barrier = 0, t_shared = 0;
    double achieved = 0;
    int regs = 0;
};

// PCIe: usable GB/s per lane for generations 1 to 5 after encoding (PCI-SIG:
// 2.5, 5, 8, 16, 32 GT/s; 128b/130b from gen 3), and the fraction a pinned
// copy reaches (bandwidthTest on a gen3 x16 slot reads 12-13 GB/s of 15.75).
constexpr double pcie_lane_gbs[] = { 0, 0.25, 0.5, 0.985, 1.969, 3.938 };
constexpr double pinned_efficiency = 0.80;

// The host's link to the GPU, a property of the run (GPULAB_SIM_HOST_LINK):
// a PCIe generation and width ("gen4x8"), or the pinned copy rates a
// bandwidthTest measured on that host ("12.3", or "12.3/13.1" for host to
// device / device to host), in GB/s. Zero rates: the profile's own link.
struct host_link {
    double h2d_gbs = 0, d2h_gbs = 0; // the rates a pinned copy reaches
};
// Parses a GPULAB_SIM_HOST_LINK value; false (and *out untouched) if it is not one.
bool parse_host_link(const char *text, host_link *out);

// The formulas (pure functions of the profile and the counts; tested alone).
// Blocks per SM of launch k on GPU g, by the occupancy calculator's rules,
// with the registers per thread the model assumes.
occupancy model_occupancy(const gpu_profile &g, const kernel_shape &k);
model_result model_kernel_time(const gpu_profile &g, const kernel_shape &k, const kernel_counts &c);
enum class copy_kind { h2d, d2h, d2d, peer, h2h };
model_result model_copy_time(const gpu_profile &g, copy_kind kind, double bytes, bool pinned,
                             const host_link &link = host_link());
model_result model_memset_time(const gpu_profile &g, double bytes);
// A cuBLAS call of `flops` floating-point operations moving `bytes`; size is
// the problem's smallest dimension (its efficiency grows with it).
model_result model_blas_time(const gpu_profile &g, double flops, double bytes, double size);

// From the runtime, on a device's executor, as the work runs (no-ops when
// the model is off). s is the stream the work was queued on.
void model_executor(int d); // the executor thread of device d starts
void model_kernel(cudaStream_t s, const char *name, const kernel_shape &k);
void model_copy(cudaStream_t s, const void *dst, const void *src, size_t bytes, const char *call);
void model_memset(cudaStream_t s, size_t bytes);
void model_blas(cudaStream_t s, const char *name, double flops, double bytes, double size);
// The modeled clock of stream s at this point of its work, in ms (for
// cudaEventRecord); -1 when the model is off.
double model_stamp(cudaStream_t s);
// Stream s waits for an event recorded at `event_ms` on the modeled clock
// (cudaStreamWaitEvent): its clock moves up to it.
void model_wait(cudaStream_t s, double event_ms);

} // namespace gpulab_sim

#endif
