// model.cpp — the performance model: the formulas that turn the simulator's
// counts into the time the work would
// take on that GPU, the modeled clock of each stream, and the JSON report
// (GPULAB_SIM_MODEL_REPORT). docs/model.md explains the formulas and how far
// to trust them. Every time here is modeled: nothing was measured on a GPU.
#include "model.hpp"
#include "trace.hpp"

#include "check.hpp"
#include "gpulab_sim/model.h"
#include "internal.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

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

} // namespace gpulab_sim

// A program may carry a default GPU to model (the kit's lab programs do: the
// build's GPULAB_LAB_SIM_MODEL); others have none, and the model is off
// unless GPULAB_SIM_MODEL asks for it.
extern "C" __attribute__((weak)) const char gpulab_sim_default_model[];

namespace gpulab_sim
{

const char *model_wanted()
{
    const char *want = getenv("GPULAB_SIM_MODEL");
    if (!want || !*want)
        want = gpulab_sim_default_model;
    if (!want || !*want || !strcmp(want, "off") || !strcmp(want, "none") || !strcmp(want, "0"))
        return nullptr;
    return want;
}

// ---------------------------------------------------------------------------
// The formulas

model_result model_kernel_time(const gpu_profile &g, const kernel_shape &k, const kernel_counts &c)
{
    model_result r;
    double threads_per_block = (double)k.block.x * k.block.y * k.block.z;
    double blocks = (double)k.grid.x * k.grid.y * k.grid.z;
    double warps_per_block = ceil_div(threads_per_block, 32);
    // Occupancy: blocks per SM, limited by warps, blocks, registers and shared memory.
    double per_sm = std::min((double)g.max_blocks, std::floor(g.max_warps / warps_per_block));
    per_sm = std::min(per_sm, std::floor(g.regs / (assumed_regs * 32.0 * warps_per_block)));
    if (k.shmem > 0)
        per_sm = std::min(per_sm, std::floor(g.smem_kb * 1024.0 / (double)k.shmem));
    per_sm = std::max(per_sm, 1.0);
    double resident = per_sm * g.sms;
    r.waves = ceil_div(blocks, resident);
    r.occupancy = per_sm * warps_per_block / g.max_warps;
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

// ---------------------------------------------------------------------------
// The run's model: the GPU, the clocks, the report.

namespace
{

struct report_row {
    std::string name, kind;
    unsigned long long launches = 0;
    dim3 grid{ 0, 0, 0 }, block{ 0, 0, 0 };
    double us = 0, bytes = 0, sectors = 0;
    std::map<std::string, double> bound_us; // time per bound, for the dominant one
    std::string basis;
};

std::mutex model_mutex;
// Modeled clock of each stream, microseconds, by (device, stream handle).
std::map<std::pair<int, const void *>, double> clocks;
std::vector<report_row> rows;
std::map<std::string, size_t> row_index;
std::string report_path;
thread_local int executor_device = 0;

const void *stream_key(cudaStream_t s)
{
    if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread)
        return nullptr;
    return s;
}

// The parts of a GPU that work queued on different streams shares: a copy
// engine per direction over the host link (H2D, D2H; every GPU the model
// knows has at least two, and PCIe moves both directions at once), and the
// device memory that device-to-device copies and sets stream through.
// Copies that overlap on streams take turns on their engine, so no overlap
// is modeled faster than its busiest engine; kernels and cuBLAS calls of
// different streams still overlap each other.
enum class engine { none, h2d, d2h, dram, count };
// When each engine of each device is next free, microseconds.
std::map<std::pair<int, int>, double> engine_free;

// Where work of `us` on stream s of device d, using engine e, starts, and the
// stream's clock after it. The legacy default stream waits for every stream
// of its device, and every stream waits for it. Called with model_mutex held.
double advance(cudaStream_t s, double us, engine e = engine::none)
{
    int d = executor_device;
    const void *key = stream_key(s);
    double start = clocks[{ d, key }];
    for (auto &kv : clocks)
        if (kv.first.first == d && (key == nullptr || kv.first.second == nullptr))
            start = std::max(start, kv.second);
    if (e != engine::none) {
        double &free_at = engine_free[{ d, (int)e }];
        start = std::max(start, free_at);
        free_at = start + us;
    }
    clocks[{ d, key }] = start + us;
    return start + us;
}

const char *basis_text()
{
    unsigned t = check_tools();
    if (!(t & CHECK_STATS))
        return "launch configuration only";
    return check_sample_every() > 1 ? "sampled" : "counted";
}

void add_row(const std::string &name, const char *kind, const model_result &m, dim3 grid,
             dim3 block, const char *basis)
{
    std::string key = std::string(kind) + "\x1f" + name;
    auto it = row_index.find(key);
    if (it == row_index.end()) {
        it = row_index.emplace(key, rows.size()).first;
        rows.emplace_back();
        rows.back().name = name;
        rows.back().kind = kind;
    }
    report_row &r = rows[it->second];
    r.launches++;
    r.grid = grid;
    r.block = block;
    r.us += m.us;
    r.bytes += m.bytes;
    r.sectors += m.sectors;
    r.bound_us[m.bound] += m.us;
    r.basis = basis;
}

void json_string(FILE *f, const std::string &s)
{
    fputc('"', f);
    for (unsigned char ch : s) {
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

void write_report()
{
    const gpu_profile *g = model_gpu();
    if (!g || report_path.empty())
        return;
    std::lock_guard<std::mutex> lock(model_mutex);
    FILE *f = fopen(report_path.c_str(), "w");
    if (!f) {
        report("GPULAB_SIM_MODEL_REPORT=%s: cannot write it (%s); no model report was written. "
               "Give a path in a folder that exists and you may write to",
               report_path.c_str(), strerror(errno));
        return;
    }
    fprintf(f, "[");
    for (size_t i = 0; i < rows.size(); i++) {
        const report_row &r = rows[i];
        std::string bound = "launch";
        double most = -1;
        for (auto &kv : r.bound_us)
            if (kv.second > most) {
                most = kv.second;
                bound = kv.first;
            }
        fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
        json_string(f, r.name);
        fprintf(f,
                ", \"kind\": \"%s\", \"launches\": %llu, \"grid\": [%u, %u, %u], "
                "\"block\": [%u, %u, %u], \"modeled_us\": %.6g, \"bound\": \"%s\", "
                "\"bytes\": %.17g, \"sectors\": %.17g, \"gpu\": ",
                r.kind.c_str(), r.launches, r.grid.x, r.grid.y, r.grid.z, r.block.x, r.block.y,
                r.block.z, r.us, bound.c_str(), std::round(r.bytes), std::round(r.sectors));
        json_string(f, g->name);
        fprintf(f, ", \"basis\": ");
        json_string(f, r.basis);
        fprintf(f, "}");
    }
    fprintf(f, "%s]\n", rows.empty() ? "" : "\n");
    if (fclose(f) != 0)
        report("GPULAB_SIM_MODEL_REPORT=%s: writing it failed (%s)", report_path.c_str(),
               strerror(errno));
}

// GPULAB_SIM_HOST_LINK, read once; a value that is not one is reported and
// the profile's own link used.
const host_link &run_link()
{
    static const host_link link = [] {
        host_link l;
        const char *text = getenv("GPULAB_SIM_HOST_LINK");
        if (text && *text && !parse_host_link(text, &l))
            report("GPULAB_SIM_HOST_LINK=\"%s\" is not a host link: give a PCIe generation and "
                   "width (gen3x16, gen4x8, ...) or the pinned copy rate bandwidthTest measured, "
                   "in GB/s (12.3, or 12.3/13.1 for host to device / device to host). Using the "
                   "modeled GPU's own link",
                   text);
        return l;
    }();
    return link;
}

const gpu_profile *settle()
{
    const char *env = model_wanted();
    if (!env)
        return nullptr;
    const gpu_profile *g = model_lookup(env);
    if (!g) {
        std::string names;
        int n;
        const gpu_profile *all = model_profiles(&n);
        for (int i = 0; i < n; i++)
            names += std::string(names.empty() ? "" : ", ") + all[i].key + " (" + all[i].name + ")";
        report("GPULAB_SIM_MODEL=\"%s\" is not a GPU the model knows; the valid names are %s (or "
               "off). "
               "Running without the model: times are simulator CPU time",
               env, names.c_str());
        return nullptr;
    }
    const char *path = getenv("GPULAB_SIM_MODEL_REPORT");
    if (path && *path) {
        // Found out now, not at exit, if it cannot be written.
        FILE *f = fopen(path, "a");
        if (f) {
            fclose(f);
            report_path = path;
            atexit(write_report);
        } else {
            report("GPULAB_SIM_MODEL_REPORT=%s: cannot write it (%s); the model runs on without "
                   "a report. Give a path in a folder that exists and you may write to",
                   path, strerror(errno));
        }
    }
    return g;
}

// Said at the first kernel modeled (a program that launches none, such as
// `gpulab smi`, has nothing to count).
void say_no_counts()
{
    static std::once_flag once;
    std::call_once(once, [] {
        if (!(check_tools() & CHECK_STATS))
            report("GPULAB_SIM_MODEL=%s: this program has no check build (its .check twin) to "
                   "count memory accesses, so kernels are modeled from their launch "
                   "configuration alone (one coalesced load and store per thread); build it "
                   "with the project's CMake or gpulab-nvcc, which make both",
                   model_wanted());
    });
}

} // namespace

void model_executor(int d)
{
    executor_device = d;
}

const gpu_profile *model_gpu()
{
    static const gpu_profile *g = settle();
    return g;
}

void model_kernel(cudaStream_t s, const char *name, const kernel_shape &k)
{
    const gpu_profile *g = model_gpu();
    if (!g)
        return;
    say_no_counts();
    kernel_counts c;
    if (check_last_counts(&c) && c.sample > 1) {
        // Counted blocks 0, sample, 2 sample, ...: scale their counts to the grid.
        double blocks = (double)k.grid.x * k.grid.y * k.grid.z;
        double scale = blocks / std::ceil(blocks / c.sample);
        for (double *x :
             { &c.load_requests, &c.load_sectors, &c.store_requests, &c.store_sectors,
               &c.global_accesses, &c.shared_accesses, &c.shared_requests, &c.shared_wavefronts })
            *x *= scale;
    }
    model_result m = model_kernel_time(*g, k, c);
    std::lock_guard<std::mutex> lock(model_mutex);
    double end = advance(s, m.us);
    add_row(name, "kernel", m, k.grid, k.block, basis_text());
    trace_device_op(executor_device, stream_key(s), "kernel", name, end - m.us, end, 0, g->name,
                    m.bound, m.bytes, &k.grid, &k.block);
}

void model_copy(cudaStream_t s, const void *dst, const void *src, size_t bytes, const char *call)
{
    const gpu_profile *g = model_gpu();
    if (!g)
        return;
    int dd = arena_of(dst), sd = arena_of(src);
    copy_kind kind = dd >= 0 && sd >= 0 ? (dd == sd ? copy_kind::d2d : copy_kind::peer)
                     : dd >= 0          ? copy_kind::h2d
                     : sd >= 0          ? copy_kind::d2h
                                        : copy_kind::h2h;
    const void *host = kind == copy_kind::h2d ? src : dst;
    bool pinned = is_pinned_host(host);
    model_result m = model_copy_time(*g, kind, (double)bytes, pinned, run_link());
    static const char *names[] = { "H2D", "D2H", "D2D", "peer", "H2H" };
    std::string name = std::string(call) + " " + names[(int)kind];
    if (kind == copy_kind::h2d || kind == copy_kind::d2h)
        name += pinned ? " pinned" : " pageable";
    engine e = kind == copy_kind::h2d   ? engine::h2d
               : kind == copy_kind::d2h ? engine::d2h
               : kind == copy_kind::d2d ? engine::dram
                                        : engine::none;
    std::lock_guard<std::mutex> lock(model_mutex);
    double end = advance(s, m.us, e);
    add_row(name, "memcpy", m, dim3(0, 0, 0), dim3(0, 0, 0), "bytes");
    trace_device_op(executor_device, stream_key(s), "memcpy", name, end - m.us, end, (int)e,
                    g->name, m.bound, m.bytes);
}

void model_memset(cudaStream_t s, size_t bytes)
{
    const gpu_profile *g = model_gpu();
    if (!g)
        return;
    model_result m = model_memset_time(*g, (double)bytes);
    std::lock_guard<std::mutex> lock(model_mutex);
    double end = advance(s, m.us, engine::dram);
    add_row("cudaMemset", "memset", m, dim3(0, 0, 0), dim3(0, 0, 0), "bytes");
    trace_device_op(executor_device, stream_key(s), "memset", "cudaMemset", end - m.us, end,
                    (int)engine::dram, g->name, m.bound, m.bytes);
}

void model_blas(cudaStream_t s, const char *name, double flops, double bytes, double size)
{
    const gpu_profile *g = model_gpu();
    if (!g)
        return;
    model_result m = model_blas_time(*g, flops, bytes, size);
    std::lock_guard<std::mutex> lock(model_mutex);
    double end = advance(s, m.us);
    add_row(name, "cublas", m, dim3(0, 0, 0), dim3(0, 0, 0), "flops and bytes");
    trace_device_op(executor_device, stream_key(s), "cublas", name, end - m.us, end, 0, g->name,
                    m.bound, m.bytes);
}

void model_wait(cudaStream_t s, double event_ms)
{
    if (!model_gpu() || event_ms < 0)
        return;
    std::lock_guard<std::mutex> lock(model_mutex);
    double &clock = clocks[{ executor_device, stream_key(s) }];
    clock = std::max(clock, event_ms * 1e3);
}

double model_stamp(cudaStream_t s)
{
    if (!model_gpu())
        return -1;
    std::lock_guard<std::mutex> lock(model_mutex);
    return advance(s, 0) / 1e3;
}

} // namespace gpulab_sim

extern "C" const char *gpulab_sim_model_gpu(void)
{
    const gpulab_sim::gpu_profile *g = gpulab_sim::model_gpu();
    return g ? g->name : nullptr;
}

extern "C" const char *gpulab_sim_model_basis(void)
{
    return gpulab_sim::model_gpu() ? gpulab_sim::basis_text() : nullptr;
}

extern "C" double gpulab_sim_model_device_ms(void)
{
    if (!gpulab_sim::model_gpu())
        return -1;
    int d = gpulab_sim::current_device();
    if (!gpulab_sim::valid_device(d))
        return -1;
    gpulab_sim::device_sync(d);
    std::lock_guard<std::mutex> lock(gpulab_sim::model_mutex);
    double most = 0;
    for (auto &kv : gpulab_sim::clocks)
        if (kv.first.first == d)
            most = std::max(most, kv.second);
    return most / 1e3;
}
