// trace.cpp — the timeline of `gpulab nsys profile` (docs/tools.md): with
// GPULAB_SIM_TRACE=FILE and the performance model on, each kernel, copy,
// memset and cuBLAS call is written to FILE at its modeled start and end, as
// a slice on the row of its device's stream (copies also on the row of the
// copy engine they use), each cudaEventRecord as a mark on its stream; and on
// the host's rows, on the CPU clock, each host thread's CUDA API calls and
// NVTX ranges and marks. The format is the JSON array form of Chrome's
// trace-event format, which ui.perfetto.dev and chrome://tracing open. One
// event a line, written as it happens: a program that crashes keeps what it
// did (the format allows the closing bracket to be missing).
#include "trace.hpp"

#include "internal.hpp"
#include "model.hpp"

#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace gpulab_sim
{
namespace
{

std::mutex trace_mutex;
FILE *out = nullptr;
bool settled = false;
std::map<std::pair<int, const void *>, int> stream_rows; // (device, stream) -> row
std::set<std::pair<int, int>> named;                     // (device, row) already named
std::set<int> devices_named;
int next_row[16];

// The process that writes the timeline: the first of the program's processes
// to start with GPULAB_SIM_TRACE set, and that same process after an exec
// (the simulator's switch to the check build keeps the pid). A process it
// starts inherits the variable but writes nothing, nor does a forked copy of
// it: two writers would garble the file.
pid_t trace_owner = 0;

__attribute__((constructor)) void claim_trace()
{
    const char *path = getenv("GPULAB_SIM_TRACE");
    if (!path || !*path)
        return;
    const char *owner = getenv("GPULAB_SIM_TRACE_OWNER");
    pid_t me = getpid();
    if (owner && *owner && (pid_t)atol(owner) != me)
        return;
    char text[32];
    snprintf(text, sizeof(text), "%ld", (long)me);
    setenv("GPULAB_SIM_TRACE_OWNER", text, 1); // before any thread: load time
    trace_owner = me;
}

void close_trace()
{
    std::lock_guard<std::mutex> lock(trace_mutex);
    if (out && getpid() == trace_owner) {
        fputs("\n]\n", out);
        fclose(out);
        out = nullptr;
    }
}

void json_text(std::string &s, const char *t)
{
    s += '"';
    for (; *t; t++) {
        unsigned char c = (unsigned char)*t;
        if (c == '"' || c == '\\') {
            s += '\\';
            s += (char)c;
        } else if (c < 0x20) {
            char b[8];
            snprintf(b, sizeof(b), "\\u%04x", c);
            s += b;
        } else {
            s += (char)c;
        }
    }
    s += '"';
}

void emit(const std::string &line)
{
    static bool first = true;
    fputs(first ? "[\n" : ",\n", out);
    first = false;
    fputs(line.c_str(), out);
    fflush(out);
}

void name_row(int pid, int tid, const std::string &name, int sort)
{
    std::string l = "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
                    ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":";
    json_text(l, name.c_str());
    l += "}}";
    emit(l);
    emit("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
         ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"sort_index\":" + std::to_string(sort) +
         "}}");
}

// Opens the file the first time: false when there is no trace to write.
bool ready()
{
    if (settled)
        return out != nullptr && getpid() == trace_owner;
    const char *path = getenv("GPULAB_SIM_TRACE");
    if (!path || !*path || getpid() != trace_owner)
        return false;
    settled = true;
    out = fopen(path, "w");
    if (!out) {
        report("GPULAB_SIM_TRACE=%s: cannot write it (%s); the program runs on without a "
               "timeline",
               path, strerror(errno));
        return false;
    }
    atexit(close_trace);
    return true;
}

// The row of `stream` on device `device`, named (with the device) the first
// time; the legacy default stream is row 0, other streams 1, 2, ... in the
// order they first ran work or recorded an event. With trace_mutex held.
int stream_row(int device, const void *stream, const char *clock)
{
    int pid = device + 1;
    if (devices_named.insert(device).second) {
        std::string l = "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
                        ",\"args\":{\"name\":";
        json_text(l, ("GPU " + std::to_string(device) + " (" + clock + ")").c_str());
        l += "}}";
        emit(l);
        emit("{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
             ",\"args\":{\"sort_index\":" + std::to_string(pid) + "}}");
    }
    auto key = std::make_pair(device, stream);
    auto it = stream_rows.find(key);
    if (it == stream_rows.end()) {
        int row = stream ? ++next_row[device] : 0;
        it = stream_rows.emplace(key, row).first;
        name_row(pid, row, row ? "Stream " + std::to_string(row) : "Default stream", row);
    }
    return it->second;
}

bool trace_wanted()
{
    return trace_owner != 0;
}

// One operation's slice on its stream's row (and its copy engine's), with
// `detail` (JSON members) among its args.
void write_op(int device, const void *stream, const char *kind, const std::string &name,
              double start_us, double end_us, int engine, const char *gpu,
              const std::string &detail)
{
    static const char *engines[] = { "", "H2D", "D2H", "device memory" };
    std::string clock_text = std::string("modeled ") + gpu;
    const char *clock = clock_text.c_str();
    const char *engine_name = engine > 0 && engine < 4 ? engines[engine] : "";
    std::lock_guard<std::mutex> lock(trace_mutex);
    if (!ready() || device < 0 || device >= 16)
        return;
    int pid = device + 1;
    int row = stream_row(device, stream, clock);
    char times[96];
    snprintf(times, sizeof(times), ",\"ts\":%.3f,\"dur\":%.3f", start_us, end_us - start_us);
    auto slice = [&](int tid) {
        std::string l = "{\"name\":";
        json_text(l, name.c_str());
        l += ",\"cat\":";
        json_text(l, kind);
        l += ",\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
             times + ",\"args\":{\"clock\":";
        json_text(l, clock);
        l += ",\"stream\":" + std::to_string(row);
        if (!detail.empty())
            l += "," + detail;
        l += "}}";
        emit(l);
    };
    slice(row);
    if (engine > 0) {
        int tid = 1000 + engine;
        if (named.insert({ device, tid }).second)
            name_row(pid, tid, std::string("Copy engine ") + engine_name, tid);
        slice(tid);
    }
}

// The host: a process of its own in the file, a row of CUDA API calls and a
// row of NVTX ranges per host thread (in the order they first called).
constexpr int host_pid = 100;
std::atomic<int> host_threads{ 0 };

int host_thread()
{
    static thread_local int index = 0;
    if (!index)
        index = ++host_threads;
    return index;
}

// The calling thread's row (nvtx: its NVTX row), named on first use.
// Called with trace_mutex held and the file open.
int host_row(bool nvtx)
{
    static bool named_host = false;
    if (!named_host) {
        named_host = true;
        emit("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + std::to_string(host_pid) +
             ",\"args\":{\"name\":\"Host (CPU clock: the simulator's own time, not modeled)\"}}");
        emit("{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" + std::to_string(host_pid) +
             ",\"args\":{\"sort_index\":0}}");
    }
    int t = host_thread(), tid = nvtx ? 500 + t : t;
    if (named.insert({ host_pid, tid }).second)
        name_row(host_pid, tid, (nvtx ? "NVTX, thread " : "CUDA API, thread ") + std::to_string(t),
                 tid);
    return tid;
}

void host_event(const char *cat, const char *name, const char *ph, double t0, double t1,
                const char *what, bool nvtx)
{
    std::lock_guard<std::mutex> lock(trace_mutex);
    if (!ready())
        return;
    int tid = host_row(nvtx);
    std::string l = "{\"name\":";
    json_text(l, name);
    l += ",\"cat\":";
    json_text(l, cat);
    char times[128];
    if (ph[0] == 'X')
        snprintf(times, sizeof(times), ",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f", t0, t1 - t0);
    else
        snprintf(times, sizeof(times), ",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f", t0);
    l += times;
    l += ",\"pid\":" + std::to_string(host_pid) + ",\"tid\":" + std::to_string(tid) +
         ",\"args\":{\"clock\":\"CPU\"";
    if (what) {
        l += ",\"what\":";
        json_text(l, what);
    }
    l += "}}";
    emit(l);
}

void add(std::string &s, const char *key, double v)
{
    char b[96];
    snprintf(b, sizeof(b), ",\"%s\":%.6g", key, v);
    s += b;
}

} // namespace

void trace_device_op(int device, const void *stream, const char *kind, const std::string &name,
                     double start_us, double end_us, int engine, const char *gpu, const char *bound,
                     double bytes)
{
    if (!trace_wanted())
        return;
    char more[160];
    snprintf(more, sizeof(more), "\"bound\":\"%s\",\"bytes\":%.0f", bound, bytes);
    write_op(device, stream, kind, name, start_us, end_us, engine, gpu, more);
}

void trace_kernel(int device, const void *stream, const char *name, double start_us, double end_us,
                  const gpu_profile &g, const kernel_shape &k, const kernel_counts &c,
                  const model_result &m, const char *basis)
{
    if (!trace_wanted())
        return;
    char head[256];
    snprintf(head, sizeof(head),
             "\"bound\":\"%s\",\"bytes\":%.0f,\"grid\":\"(%u,%u,%u)\",\"block\":\"(%u,%u,%u)\","
             "\"ncu_cc\":\"%d.%d\",\"ncu_basis\":",
             m.bound, m.bytes, k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z,
             g.cc_major, g.cc_minor);
    std::string d = head;
    json_text(d, basis);
    occupancy o = model_occupancy(g, k);
    d += ",\"ncu_limiter\":";
    json_text(d, o.limiter);
    // The GPU: SMs, clocks (the DRAM's from its data rate: two transfers a
    // cycle per pin), peak bandwidth, resident warps per SM.
    add(d, "ncu_sms", g.sms);
    add(d, "ncu_sm_ghz", g.clock_ghz);
    add(d, "ncu_dram_ghz", g.bus_bits > 0 ? g.dram_gbs * 8 / g.bus_bits / 2 : 0);
    add(d, "ncu_dram_peak_gbs", g.dram_gbs);
    add(d, "ncu_max_warps", g.max_warps);
    // The launch and its occupancy (a resource that does not limit the
    // blocks shows the SM's block limit, as ncu does).
    add(d, "ncu_regs", m.regs);
    add(d, "ncu_smem_static", (double)k.static_smem);
    add(d, "ncu_smem_dynamic", (double)k.shmem);
    add(d, "ncu_smem_reserved", g.cc_major >= 8 ? 1024 : 0);
    add(d, "ncu_smem_config", (double)o.smem_config);
    add(d, "ncu_by_blocks", o.by_blocks);
    add(d, "ncu_by_warps", std::min(o.by_warps, o.by_blocks));
    add(d, "ncu_by_regs", std::min(o.by_regs, o.by_blocks));
    add(d, "ncu_by_smem", std::min(o.by_smem, o.by_blocks));
    add(d, "ncu_blocks_per_sm", o.blocks);
    add(d, "ncu_warps_per_sm", o.warps_per_sm);
    add(d, "ncu_theoretical", m.occupancy);
    add(d, "ncu_achieved", m.achieved);
    add(d, "ncu_waves", m.waves);
    // The counts and the parts of the time.
    add(d, "ncu_ld_req", c.load_requests);
    add(d, "ncu_ld_sec", c.load_sectors);
    add(d, "ncu_st_req", c.store_requests);
    add(d, "ncu_st_sec", c.store_sectors);
    add(d, "ncu_sh_acc", c.shared_accesses);
    add(d, "ncu_sh_req", c.shared_requests);
    add(d, "ncu_sh_wave", c.shared_wavefronts);
    add(d, "ncu_launch_us", g.launch_us);
    add(d, "ncu_t_mem", m.t_mem);
    add(d, "ncu_t_issue", m.t_issue);
    add(d, "ncu_t_barrier", m.t_barrier);
    add(d, "ncu_t_shared", m.t_shared);
    write_op(device, stream, "kernel", name, start_us, end_us, 0, g.name, d);
}

void trace_device_mark(int device, const void *stream, const char *name, double t_us,
                       const char *gpu)
{
    if (!trace_wanted())
        return;
    std::lock_guard<std::mutex> lock(trace_mutex);
    if (!ready() || device < 0 || device >= 16)
        return;
    std::string clock = std::string("modeled ") + gpu;
    int row = stream_row(device, stream, clock.c_str());
    std::string l = "{\"name\":";
    json_text(l, name);
    char rest[160];
    snprintf(rest, sizeof(rest),
             ",\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f,\"pid\":%d,\"tid\":%d", t_us,
             device + 1, row);
    l += rest;
    l += ",\"args\":{\"clock\":";
    json_text(l, clock.c_str());
    l += "}}";
    emit(l);
}

bool trace_on()
{
    return trace_wanted();
}

double trace_now_us()
{
    static const double start = [] {
        timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
    }();
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3 - start;
}

void trace_host_call(const char *name, double t0_us, double t1_us, const char *what)
{
    host_event("cuda_api", name, "X", t0_us, t1_us, what, false);
}

void trace_nvtx_range(const char *name, double t0_us, double t1_us)
{
    if (trace_on())
        host_event("nvtx", name, "X", t0_us, t1_us, nullptr, true);
}

void trace_nvtx_mark(const char *name, double t_us)
{
    if (trace_on())
        host_event("nvtx", name, "i", t_us, t_us, nullptr, true);
}

} // namespace gpulab_sim
