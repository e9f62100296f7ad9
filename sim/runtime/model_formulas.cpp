// model_formulas.cpp — the performance model's formulas: pure functions that
// turn a GPU profile and the simulator's counts into the time a kernel, a
// copy, a memset or a cuBLAS call would take on that GPU, with the constants
// they use and where each comes from. docs/model.md explains them and how far
// to trust them; test_model checks them alone. model.cpp applies them to a
// run (the clocks of the streams, the report). Every time here is modeled.
#include "model.hpp"
#include "occupancy.hpp"

#include <algorithm>
#include <cmath>

namespace gpulab_sim
{
namespace
{

// Constants of the formulas (docs/model.md, "The formulas").
// Fraction of the DRAM bandwidth a streaming kernel reaches: STREAM-like
// GPU benchmarks (BabelStream; Deakin et al., "Evaluating attainable memory
// bandwidth of parallel programming models", 2016) reach 80-92% of peak.
constexpr double dram_efficiency = 0.85;
// Latency of a global memory access that misses the caches: 300-600 cycles
// on Turing to Hopper (Jia et al., "Dissecting the NVIDIA Turing T4 GPU via
// microbenchmarking", 2019, and their Volta/Ampere follow-ups): 0.5 us.
constexpr double dram_latency_us = 0.5;
// Independent memory requests one warp keeps in flight (loads of one
// iteration that do not depend on each other).
constexpr double requests_in_flight_per_warp = 2.0;
// Instructions per thread: a fixed part (index math, bounds check, exit)
// and a few per memory access; the simulator does not count arithmetic, so
// this is an estimate. A global access takes its address arithmetic (64-bit),
// the load or store and its use: about 4. A shared one is a 32-bit address
// and one LDS or STS, often folded into the instruction that uses it
// (`As[ty][k] * Bs[k][tx]` compiles to two LDS and an FFMA): about 1.5.
constexpr double instr_fixed = 10.0, instr_per_global = 4.0, instr_per_shared = 1.5;
// A barrier: one BAR instruction per warp, and the wait for the block's
// slowest warp, which the other blocks resident on the SM hide unless there
// are too few of them: about this many cycles of a block's time.
constexpr double barrier_issue = 1.0, barrier_latency_cycles = 30.0;
// Shared memory serves one wavefront (a request without bank conflicts, or
// one of the rounds a conflicted request takes) per SM per cycle (128 bytes
// a cycle: NVIDIA's architecture whitepapers, Volta to Hopper).
constexpr double wavefronts_per_cycle = 1.0;
// How much of the time a kernel spends on its lesser parts (instructions,
// barriers, shared memory) its memory traffic does not hide: a warp that
// waits at a barrier or on a conflicted shared access has no load in flight.
// 0 is perfect overlap (the largest part alone), 1 none (their sum).
// Calibrated on the corpus (docs/model-validation.md): with 0, every tiled
// transpose of the T4 and the GTX 1650 SUPER is modeled as fast as a plain
// copy, where the GPUs measure the copy 10-15% faster than the shared-memory
// copy and the padded tile 15-25% faster than the bank-conflicted one; 0.5,
// 0.75 and 1 all order 28 of the 33 pairs of transposes as measured, and
// put the worst of those rows at 1.49x, 1.41x and 1.35x.
constexpr double overlap_penalty = 1.0;
// A copy or set within device memory is a copy engine's (or a driver
// kernel's) work queued like a kernel, but measured faster to start than an
// empty kernel: 3.3 us for a 1 kB device-to-device copy on a T4 (launch 5 us),
// 3.5 us for a 1 MB one on an A100 (at most 2 us of it moving bytes).
constexpr double device_copy_call = 0.6; // of the launch latency
// Registers per thread the model assumes (it cannot see the compiler's).
constexpr int assumed_regs = 32;
// Pageable copies go through a pinned staging buffer: about half the pinned
// rate (NVIDIA, "How to Optimize Data Transfers in CUDA C/C++", 2012, and
// bandwidthTest --memory=pageable runs), and more per call.
constexpr double pageable_factor = 0.5;
constexpr double pinned_call_us = 8.0, pageable_call_us = 12.0;
// cuBLAS reaches at most this fraction of the FP32 peak (SGEMM on large
// square matrices, NVIDIA's cuBLAS performance pages: 70-90%), half of it at
// a smallest dimension of blas_half_size.
constexpr double blas_peak_efficiency = 0.8, blas_half_size = 256.0;

double ceil_div(double a, double b)
{
    return std::ceil(a / b);
}

} // namespace

occupancy model_occupancy(const gpu_profile &g, const kernel_shape &k)
{
    occupancy_kernel ok;
    ok.block_threads = (int)(k.block.x * k.block.y * k.block.z);
    ok.regs_per_thread = assumed_regs;
    ok.static_smem = k.static_smem;
    ok.dynamic_smem = k.shmem;
    // The launch ran, so its dynamic shared memory was allowed.
    ok.max_dynamic_smem = std::max(k.shmem, ok.max_dynamic_smem);
    return occupancy_of(occupancy_device_of(g), ok);
}

model_result model_kernel_time(const gpu_profile &g, const kernel_shape &k, const kernel_counts &c)
{
    model_result r;
    double threads_per_block = (double)k.block.x * k.block.y * k.block.z;
    double blocks = (double)k.grid.x * k.grid.y * k.grid.z;
    double warps_per_block = ceil_div(threads_per_block, 32);
    // Occupancy: blocks per SM, limited by warps, blocks, registers and
    // shared memory, by the occupancy calculator's rules (occupancy.cpp).
    r.regs = assumed_regs;
    double per_sm = std::max(model_occupancy(g, k).blocks, 1);
    double resident = per_sm * g.sms;
    r.waves = ceil_div(blocks, resident);
    r.occupancy = per_sm * warps_per_block / g.max_warps;
    // Achieved (as ncu counts it, over the SMs while they are active): the
    // blocks spread evenly over the SMs they reach, averaged over the waves.
    double active_sms = std::max(1.0, std::min((double)g.sms, blocks));
    r.achieved =
        std::min(r.occupancy, blocks * warps_per_block / (r.waves * active_sms * g.max_warps));
    // Blocks on the busiest SM: a partial last wave still takes a full wave's time.
    double busiest_sm_blocks = ceil_div(blocks, g.sms);
    double active_warps = std::min(blocks, resident) * warps_per_block;

    double threads = c.counted ? c.threads : blocks * threads_per_block;
    double sectors, requests, global_acc, shared_acc, barriers, wavefronts;
    if (c.counted) {
        sectors = c.load_sectors + c.store_sectors;
        requests = c.load_requests + c.store_requests;
        global_acc = c.global_accesses;
        shared_acc = c.shared_accesses;
        barriers = c.barriers;
        // Without a bank count (no sampled block used shared memory), one
        // wavefront per warp's worth of accesses.
        wavefronts = c.shared_wavefronts > 0 ? c.shared_wavefronts : shared_acc / 32;
    } else {
        // No counts: one coalesced 4-byte load and store per thread.
        sectors = 2 * threads * 4 / 32;
        requests = 2 * blocks * warps_per_block;
        global_acc = 2 * threads;
        shared_acc = barriers = wavefronts = 0;
    }
    r.sectors = sectors;
    r.bytes = sectors * 32;

    // Memory: the sectors at the attainable DRAM bandwidth, or what the warps
    // in flight can cover of the latency (Little's law), whichever is lower.
    double bytes_per_request = requests > 0 ? r.bytes / requests : 32;
    double bw = g.dram_gbs * 1e3 * dram_efficiency; // bytes per us
    double in_flight = active_warps * requests_in_flight_per_warp * bytes_per_request;
    double latency_bw = in_flight / dram_latency_us;
    double t_mem = r.bytes / std::min(bw, latency_bw);
    bool latency_limited = latency_bw < bw;

    // Compute: warp instructions of the busiest SM at its issue rate.
    double per_thread = threads > 0 ? 1.0 / threads : 0;
    double instr_per_thread = instr_fixed + instr_per_global * global_acc * per_thread +
                              instr_per_shared * shared_acc * per_thread;
    double barriers_per_block = blocks > 0 ? barriers / blocks : 0;
    double warp_instr_per_block =
        warps_per_block * (instr_per_thread + barriers_per_block * barrier_issue);
    double issue_per_us = g.fp32_lanes / 32.0 * g.clock_ghz * 1e3; // warp instructions per us
    double t_issue = busiest_sm_blocks * warp_instr_per_block / issue_per_us;
    // Barriers: each block waits barrier_latency_cycles at each; the blocks
    // resident on an SM wait side by side.
    double t_barrier = busiest_sm_blocks / per_sm * barriers_per_block * barrier_latency_cycles /
                       (g.clock_ghz * 1e3);
    double t_comp = std::max(t_issue, t_barrier);
    // Shared memory: the busiest SM's wavefronts at one a cycle.
    double t_shared = (blocks > 0 ? wavefronts * busiest_sm_blocks / blocks : 0) /
                      (wavefronts_per_cycle * g.clock_ghz * 1e3);

    r.t_mem = t_mem;
    r.t_issue = t_issue;
    r.t_barrier = t_barrier;
    r.t_shared = t_shared;
    double t_big = std::max(std::max(t_mem, t_comp), t_shared);
    double t_work = t_big + overlap_penalty * (t_mem + t_comp + t_shared - t_big);
    r.us = g.launch_us + t_work;
    if (g.launch_us >= t_work)
        r.bound = "launch";
    else if (t_mem >= t_comp && t_mem >= t_shared)
        r.bound = latency_limited ? "latency" : "memory";
    else if (t_shared > t_comp)
        r.bound = "shared memory";
    else
        r.bound = "compute";
    return r;
}

model_result model_copy_time(const gpu_profile &g, copy_kind kind, double bytes, bool pinned,
                             const host_link &link)
{
    model_result r;
    r.bytes = bytes;
    int gen = std::min(std::max(g.pcie_gen, 1), 5);
    double pcie = pcie_lane_gbs[gen] * g.pcie_lanes * pinned_efficiency * 1e3; // bytes per us
    if (kind == copy_kind::h2d && link.h2d_gbs > 0)
        pcie = link.h2d_gbs * 1e3;
    else if (kind == copy_kind::d2h && link.d2h_gbs > 0)
        pcie = link.d2h_gbs * 1e3;
    switch (kind) {
    case copy_kind::h2d:
    case copy_kind::d2h:
        if (pinned)
            r.us = pinned_call_us + bytes / pcie;
        else
            r.us = pageable_call_us + bytes / (pcie * pageable_factor);
        r.bound = "pcie";
        break;
    case copy_kind::peer: // through PCIe between two boards (no NVLink modeled)
        r.us = pinned_call_us + bytes / pcie;
        r.bound = "pcie";
        break;
    case copy_kind::d2d: { // a read and a write of each byte
        double call = device_copy_call * g.launch_us;
        r.us = call + 2 * bytes / (g.dram_gbs * 1e3 * dram_efficiency);
        r.bound = r.us > 2 * call ? "memory" : "launch";
        break;
    }
    case copy_kind::h2h:
        r.us = pageable_call_us;
        r.bound = "launch";
        break;
    }
    return r;
}

model_result model_memset_time(const gpu_profile &g, double bytes)
{
    model_result r;
    r.bytes = bytes;
    double t = bytes / (g.dram_gbs * 1e3 * dram_efficiency), call = device_copy_call * g.launch_us;
    r.us = call + t;
    r.bound = t > call ? "memory" : "launch";
    return r;
}

model_result model_blas_time(const gpu_profile &g, double flops, double bytes, double size)
{
    model_result r;
    r.bytes = bytes;
    double eff = blas_peak_efficiency * size / (size + blas_half_size);
    double peak = 2.0 * g.fp32_lanes * g.sms * g.clock_ghz * 1e3; // FMA = 2 flops; flops per us
    double t_comp = eff > 0 ? flops / (peak * eff) : 0;
    double t_mem = bytes / (g.dram_gbs * 1e3 * dram_efficiency);
    double t = std::max(t_comp, t_mem);
    r.us = g.launch_us + t;
    r.bound = g.launch_us >= t ? "launch" : t_comp > t_mem ? "compute" : "memory";
    return r;
}

} // namespace gpulab_sim
