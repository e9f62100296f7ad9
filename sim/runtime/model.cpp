// model.cpp — the performance model in a run: the GPU it models, the modeled
// clock of each stream and copy engine as the work runs, the timeline's
// slices, and the JSON report (GPULAB_SIM_MODEL_REPORT). The formulas are in
// model_formulas.cpp; docs/model.md explains them and how far to trust them.
// Every time here is modeled: nothing was measured on a GPU.
#include "model.hpp"
#include "occupancy.hpp"
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
    kernel_shape ks = k;
    ks.static_smem = (size_t)c.static_smem; // what the counts saw
    model_result m = model_kernel_time(*g, ks, c);
    std::lock_guard<std::mutex> lock(model_mutex);
    double end = advance(s, m.us);
    add_row(name, "kernel", m, k.grid, k.block, basis_text());
    trace_kernel(executor_device, stream_key(s), name, end - m.us, end, *g, ks, c, m, basis_text());
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
    const gpu_profile *g = model_gpu();
    if (!g)
        return -1;
    std::lock_guard<std::mutex> lock(model_mutex);
    double t = advance(s, 0);
    trace_device_mark(executor_device, stream_key(s), "cudaEventRecord", t, g->name);
    return t / 1e3;
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
