// model.cpp — the performance model: GPU profiles from public specifications,
// the formulas that turn the simulator's counts into the time the work would
// take on that GPU, the modeled clock of each stream, and the JSON report
// (GPULAB_SIM_MODEL_REPORT). docs/model.md explains the formulas and how far
// to trust them. Every time here is modeled: nothing was measured on a GPU.
#include "model.hpp"

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

// Sources, per column:
// - SMs, boost clock, DRAM bandwidth, L2, PCIe: NVIDIA's product pages and
//   datasheets (GeForce GTX 1650 specifications page; Tesla T4 datasheet,
//   2019; GeForce RTX 3060 and RTX 4090 specifications pages; A100 Tensor
//   Core GPU datasheet (40 GB SXM4) and the "NVIDIA A100 Tensor Core GPU
//   Architecture" whitepaper, 2020; "NVIDIA H100 Tensor Core GPU
//   Architecture" whitepaper, 2022 (H100 SXM5); H200 datasheet, 2024), and
//   the Turing (2018), Ampere GA102 (2020) and Ada (2022) whitepapers for
//   SM counts and L2 sizes of the consumer cards.
// - FP32 lanes, max resident warps and blocks, registers and shared memory
//   per SM: the CUDA C++ Programming Guide, "Compute Capabilities" table
//   (7.5: Turing; 8.0: A100; 8.6: GA10x; 8.9: Ada; 9.0: Hopper).
// - Launch latency: what events around an empty kernel read on a GPU; the
//   CUDA Best Practices Guide gives kernel launch overhead as a few
//   microseconds, and published microbenchmarks (e.g. Zhang et al.,
//   "Understanding the GPU microarchitecture to achieve bare-metal
//   performance tuning", PPoPP 2017, and the cuda-samples' simple launch
//   timings) put it at 2 to 5 us for recent drivers. One value per
//   generation: 5 us for Turing, 4 us for Ampere/Ada, 3 us for Hopper.
// Re-checked against those sources and the spec pages named per row; no number
// needed changing. Per row (SMs x FP32 lanes x 2 x boost clock gives the FP32
// peak each datasheet quotes, a check on the clock):
// - gtx1650: TU117, 14 SMs (896 CUDA cores), boost 1665 MHz, 4 GB GDDR5 at
//   8 Gbps on 128 bits = 128 GB/s, L2 1 MB, PCIe 3.0 x16 (GeForce GTX 1650
//   specifications; TechPowerUp GPU database). The later GDDR6 board (boost
//   1590 MHz, 192 GB/s) is another board, not modeled.
// - t4: TU104, 40 SMs (2560 CUDA cores), boost 1590 MHz, 16 GB GDDR6 at
//   10 Gbps on 256 bits = 320 GB/s, L2 4 MB, PCIe 3.0 x16; 2560 x 2 x 1.59 GHz
//   = 8.1 TFLOPS FP32, as the T4 datasheet says.
// - rtx3060: GA106, 28 SMs (3584 CUDA cores), boost 1777 MHz, 12 GB GDDR6 at
//   15 Gbps on 192 bits = 360 GB/s, L2 3 MB, PCIe 4.0 x16 (GeForce RTX 3060
//   specifications; Ampere GA102 whitepaper for the GA10x SM).
// - rtx4090: AD102, 128 of its 144 SMs (16384 CUDA cores), boost 2520 MHz,
//   24 GB GDDR6X at 21 Gbps on 384 bits = 1008 GB/s, L2 72 of the full chip's
//   96 MB, PCIe 4.0 x16 (GeForce RTX 4090 specifications; Ada whitepaper):
//   82.6 TFLOPS FP32.
// - a100: A100-SXM4-40GB, 108 SMs (6912 CUDA cores), boost 1410 MHz, HBM2
//   1555 GB/s, L2 40 MB, PCIe 4.0 x16 (A100 datasheet and whitepaper): 19.5
//   TFLOPS FP32.
// - h100: H100 SXM5 80 GB, 132 SMs (16896 CUDA cores), HBM3 3.35 TB/s, L2
//   50 MB, PCIe 5.0 x16 (H100 datasheet; Hopper whitepaper); the datasheet's
//   67 TFLOPS FP32 = 16896 x 2 x 1.98 GHz.
// - h200: H200 SXM 141 GB, the same GH100 (132 SMs, 50 MB L2, 67 TFLOPS FP32,
//   so 1.98 GHz) with HBM3e at 4.8 TB/s, PCIe 5.0 x16 (H200 datasheet).
// - Compute capability and memory bus width (the same datasheets and the
//   CUDA C++ Programming Guide's table of GPUs): 7.5 with 128 bits (GTX
//   1650) and 256 (T4); 8.6, 192 bits (RTX 3060); 8.9, 384 (RTX 4090); 8.0,
//   5120 (A100's five HBM2 stacks); 9.0, 5120 (H100's five HBM3 stacks) and
//   6144 (H200's six HBM3e stacks). The memory clock cudaDeviceProp reports
//   follows from them: GB/s = 2 (double data rate) x clock x bus bits / 8.
// - Per-SM limits by compute capability (CUDA C++ Programming Guide,
//   "Technical Specifications per Compute Capability", and NVIDIA's tuning
//   guide of each architecture): 7.5 (T4, GTX 1650) 32 warps, 16 blocks,
//   64 KB shared; 8.0 (A100) 64 warps, 32 blocks, 164 KB; 8.6 (RTX 3060) 48
//   warps, 16 blocks, 100 KB; 8.9 (RTX 4090) 48 warps, 24 blocks, 100 KB; 9.0
//   (H100, H200) 64 warps, 32 blocks, 228 KB; 64K 32-bit registers per SM on
//   all. FP32 lanes per SM: 64 on 7.5 and 8.0, 128 on 8.6, 8.9 and 9.0.
const gpu_profile profiles[] = {
    // key, name, SMs, GHz, FP32/SM, warps, blocks, regs, smem KiB, L2 MiB, GB/s, PCIe, lanes,
    // launch us, compute capability, bus bits
    { "gtx1650", "NVIDIA GeForce GTX 1650", 14, 1.665, 64, 32, 16, 65536, 64, 1.0, 128.0, 3, 16,
      5.0, 7, 5, 128 },
    { "t4", "NVIDIA T4", 40, 1.590, 64, 32, 16, 65536, 64, 4.0, 320.0, 3, 16, 5.0, 7, 5, 256 },
    { "rtx3060", "NVIDIA GeForce RTX 3060", 28, 1.777, 128, 48, 16, 65536, 100, 3.0, 360.0, 4, 16,
      4.0, 8, 6, 192 },
    { "rtx4090", "NVIDIA GeForce RTX 4090", 128, 2.520, 128, 48, 24, 65536, 100, 72.0, 1008.0, 4,
      16, 4.0, 8, 9, 384 },
    { "a100", "NVIDIA A100-SXM4-40GB", 108, 1.410, 64, 64, 32, 65536, 164, 40.0, 1555.0, 4, 16, 4.0,
      8, 0, 5120 },
    { "h100", "NVIDIA H100 SXM5", 132, 1.980, 128, 64, 32, 65536, 228, 50.0, 3350.0, 5, 16, 3.0, 9,
      0, 5120 },
    { "h200", "NVIDIA H200 SXM", 132, 1.980, 128, 64, 32, 65536, 228, 50.0, 4800.0, 5, 16, 3.0, 9,
      0, 6144 },
};
constexpr int profile_count = sizeof(profiles) / sizeof(profiles[0]);

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
// and a few per memory access (address, access, use); the simulator does not
// count arithmetic, so this is an estimate.
constexpr double instr_fixed = 10.0, instr_per_access = 4.0;
// A barrier costs each warp about this many cycles.
constexpr double barrier_cycles = 40.0;
// Registers per thread the model assumes (it cannot see the compiler's).
constexpr int assumed_regs = 32;
// PCIe: usable bytes per lane per second for gen 3/4/5 after 128b/130b
// encoding (PCI-SIG: 8, 16, 32 GT/s), and the fraction a pinned copy reaches
// (bandwidthTest on a gen3 x16 slot reads 12-13 GB/s of 15.75).
constexpr double pcie_lane_gbs[] = { 0, 0.25, 0.5, 0.985, 1.969, 3.938 };
constexpr double pinned_efficiency = 0.80;
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

const gpu_profile *model_lookup(const char *key)
{
    for (const gpu_profile &p : profiles)
        if (key && strcmp(key, p.key) == 0)
            return &p;
    return nullptr;
}

const gpu_profile *model_profiles(int *n)
{
    *n = profile_count;
    return profiles;
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
    double sectors, requests, accesses, barriers;
    if (c.counted) {
        sectors = c.load_sectors + c.store_sectors;
        requests = c.load_requests + c.store_requests;
        accesses = c.global_accesses + c.shared_accesses;
        barriers = c.barriers;
    } else {
        // No counts: one coalesced 4-byte load and store per thread.
        sectors = 2 * threads * 4 / 32;
        requests = 2 * blocks * warps_per_block;
        accesses = 2 * threads;
        barriers = 0;
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
    double instr_per_thread =
        instr_fixed + instr_per_access * (threads > 0 ? accesses / threads : 0);
    double warp_instr_per_block = warps_per_block * instr_per_thread +
                                  (blocks > 0 ? barriers / blocks : 0) * warps_per_block *
                                      barrier_cycles * (g.fp32_lanes / 32.0);
    double issue_per_us = g.fp32_lanes / 32.0 * g.clock_ghz * 1e3; // warp instructions per us
    double t_comp = busiest_sm_blocks * warp_instr_per_block / issue_per_us;

    double t_work = std::max(t_mem, t_comp);
    r.us = g.launch_us + t_work;
    if (g.launch_us >= t_work)
        r.bound = "launch";
    else if (t_mem >= t_comp)
        r.bound = latency_limited ? "latency" : "memory";
    else
        r.bound = "compute";
    return r;
}

model_result model_copy_time(const gpu_profile &g, copy_kind kind, double bytes, bool pinned)
{
    model_result r;
    r.bytes = bytes;
    int gen = std::min(std::max(g.pcie_gen, 1), 5);
    double pcie = pcie_lane_gbs[gen] * g.pcie_lanes * pinned_efficiency * 1e3; // bytes per us
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
    case copy_kind::d2d: // a read and a write of each byte
        r.us = g.launch_us + 2 * bytes / (g.dram_gbs * 1e3 * dram_efficiency);
        r.bound = r.us > 2 * g.launch_us ? "memory" : "launch";
        break;
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
    double t = bytes / (g.dram_gbs * 1e3 * dram_efficiency);
    r.us = g.launch_us + t;
    r.bound = t > g.launch_us ? "memory" : "launch";
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

const gpu_profile *settle()
{
    const char *env = model_wanted();
    if (!env)
        return nullptr;
    const gpu_profile *g = model_lookup(env);
    if (!g) {
        std::string names;
        for (const gpu_profile &p : profiles)
            names += std::string(names.empty() ? "" : ", ") + p.key + " (" + p.name + ")";
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
    if (!(check_tools() & CHECK_STATS))
        report("GPULAB_SIM_MODEL=%s: this program has no check build (its .check twin) to count "
               "memory accesses, so kernels are modeled from their launch configuration alone "
               "(one coalesced load and store per thread); build it with the project's CMake or "
               "gpulab-nvcc, which make both",
               env);
    return g;
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
    kernel_counts c;
    if (check_last_counts(&c) && c.sample > 1) {
        // Counted blocks 0, sample, 2 sample, ...: scale their counts to the grid.
        double blocks = (double)k.grid.x * k.grid.y * k.grid.z;
        double scale = blocks / std::ceil(blocks / c.sample);
        for (double *x : { &c.load_requests, &c.load_sectors, &c.store_requests, &c.store_sectors,
                           &c.global_accesses, &c.shared_accesses })
            *x *= scale;
    }
    model_result m = model_kernel_time(*g, k, c);
    std::lock_guard<std::mutex> lock(model_mutex);
    advance(s, m.us);
    add_row(name, "kernel", m, k.grid, k.block, basis_text());
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
    model_result m = model_copy_time(*g, kind, (double)bytes, pinned);
    static const char *names[] = { "H2D", "D2H", "D2D", "peer", "H2H" };
    std::string name = std::string(call) + " " + names[(int)kind];
    if (kind == copy_kind::h2d || kind == copy_kind::d2h)
        name += pinned ? " pinned" : " pageable";
    engine e = kind == copy_kind::h2d   ? engine::h2d
               : kind == copy_kind::d2h ? engine::d2h
               : kind == copy_kind::d2d ? engine::dram
                                        : engine::none;
    std::lock_guard<std::mutex> lock(model_mutex);
    advance(s, m.us, e);
    add_row(name, "memcpy", m, dim3(0, 0, 0), dim3(0, 0, 0), "bytes");
}

void model_memset(cudaStream_t s, size_t bytes)
{
    const gpu_profile *g = model_gpu();
    if (!g)
        return;
    model_result m = model_memset_time(*g, (double)bytes);
    std::lock_guard<std::mutex> lock(model_mutex);
    advance(s, m.us, engine::dram);
    add_row("cudaMemset", "memset", m, dim3(0, 0, 0), dim3(0, 0, 0), "bytes");
}

void model_blas(cudaStream_t s, const char *name, double flops, double bytes, double size)
{
    const gpu_profile *g = model_gpu();
    if (!g)
        return;
    model_result m = model_blas_time(*g, flops, bytes, size);
    std::lock_guard<std::mutex> lock(model_mutex);
    advance(s, m.us);
    add_row(name, "cublas", m, dim3(0, 0, 0), dim3(0, 0, 0), "flops and bytes");
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
