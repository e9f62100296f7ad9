// launch.cpp — a launch: the kernel traits registry, the launch checks
// (configuration, pointer arguments, a cooperative grid's size) and the
// submission of the kernel to its stream. Running it: pool.cpp (workers),
// block.cpp (blocks as fibers), barrier.cpp (barriers and warp functions),
// grid.cpp (cooperative grids), fault.cpp (kernels that stop).
#include "check.hpp"
#include "exec.hpp"
#include "trace.hpp"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

__thread uint3 threadIdx;
__thread uint3 blockIdx;
__thread dim3 blockDim;
__thread dim3 gridDim;

// Dynamic shared memory (`extern __shared__ T s[];`): the launch rewriter
// binds such declarations to this per-worker buffer. A worker runs one block
// at a time, so it is per block.
constexpr size_t dynamic_shared_max = 100 * 1024;
extern "C" {
__thread unsigned char gpulab_sim_dynamic_shared[dynamic_shared_max] __attribute__((aligned(16)));
}

namespace gpulab_sim
{
namespace
{

// ---------------------------------------------------------------------------
// Kernel traits registry

std::mutex traits_mutex;
std::map<const void *, int> &traits()
{
    static std::map<const void *, int> t;
    return t;
}

// Kernel names by address, for launches that do not carry one (cooperative).
std::map<const void *, const char *> &kernel_names()
{
    static std::map<const void *, const char *> n;
    return n;
}

// Names argument i of a launch from the text of its arguments ("d_a, h_b, n").
std::string arg_name(const char *text, int i)
{
    std::string s = text ? text : "";
    int depth = 0, idx = 0;
    size_t start = 0;
    for (size_t k = 0; k <= s.size(); k++) {
        char c = k < s.size() ? s[k] : ',';
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (c == ',' && depth == 0) {
            if (idx == i) {
                std::string a = s.substr(start, k - start);
                size_t b = a.find_first_not_of(" \t\n"), e = a.find_last_not_of(" \t\n");
                return b == std::string::npos ? "?" : a.substr(b, e - b + 1);
            }
            idx++;
            start = k + 1;
        }
    }
    return "?";
}

// ---------------------------------------------------------------------------
// Launch checks.

cudaError_t check_config(const launch_request &r, int d)
{
    (void)d;
    const dim3 g = r.grid, b = r.block;
    unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0 || b.x > 1024 ||
        b.y > 1024 || b.z > 64 || threads > 1024 || g.x > 2147483647u || g.y > 65535 || g.z > 65535)
        return cudaErrorInvalidConfiguration;
    if (r.shmem > dynamic_shared_limit(r.kernel_addr)) {
        report("kernel %s launched at %s:%d asks for %zu bytes of dynamic shared memory; the "
               "limit is %zu (more needs cudaFuncSetAttribute with "
               "cudaFuncAttributeMaxDynamicSharedMemorySize, up to 99 KiB)",
               r.kernel_name, r.file, r.line, r.shmem, dynamic_shared_limit(r.kernel_addr));
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

// A pointer argument a GPU could not use: host memory, or memory of another
// device without peer access. Returns the message, or "" when fine.
std::string check_pointer(const launch_request &r, int d, int i)
{
    const void *p = r.pointers[i];
    char buf[512];
    allocation al;
    if (!p)
        return "";
    if (find_allocation(p, &al)) {
        if (al.managed || al.device == d || peer_enabled(d, al.device) || pool_grants_access(p, d))
            return "";
        snprintf(buf, sizeof(buf),
                 "is memory of device %d (%p), but the kernel runs on device %d and peer access "
                 "from device %d to device %d is not enabled (cudaDeviceEnablePeerAccess, or "
                 "cudaMemPoolSetAccess for memory from a pool)",
                 al.device, p, d, d, al.device);
        return buf;
    }
    if (arena_of(p) >= 0 || is_pinned_host(p) || is_symbol(p))
        return ""; // freed device memory is memcheck's business; pinned memory is mapped
    snprintf(buf, sizeof(buf),
             "is a host pointer (%p), not device memory: a kernel can only use memory from "
             "cudaMalloc (copy the data there with cudaMemcpy first)",
             p);
    return buf;
}

// A cooperative grid must fit on the device at once, as a GPU requires:
// at most (blocks per multiprocessor, by the occupancy the simulator
// reports) x (multiprocessors) blocks.
cudaError_t check_cooperative(const launch_request &r, int d, uint64_t blocks)
{
    int per_sm = 0, sms = 0;
    int threads = (int)(r.block.x * r.block.y * r.block.z);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, r.kernel_addr, threads, r.shmem);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d);
    uint64_t most = (uint64_t)per_sm * (uint64_t)sms;
    if (blocks <= most)
        return cudaSuccess;
    report("cudaLaunchCooperativeKernel of %s at %s:%d: %llu blocks of %d threads cannot all be "
           "on the device at once (%d per multiprocessor by "
           "cudaOccupancyMaxActiveBlocksPerMultiprocessor x %d multiprocessors = %llu), and "
           "grid.sync() needs every block running: cudaErrorCooperativeLaunchTooLarge; size the "
           "grid with those two numbers",
           r.kernel_name, r.file, r.line, (unsigned long long)blocks, threads, per_sm, sms,
           (unsigned long long)most);
    return cudaErrorCooperativeLaunchTooLarge;
}

} // namespace

bool in_kernel()
{
    return current_job() != nullptr;
}
void register_kernel(const void *addr, const char *name, int sync)
{
    std::lock_guard<std::mutex> lock(traits_mutex);
    traits()[addr] = sync;
    kernel_names()[addr] = name;
}

int kernel_sync(const void *addr)
{
    std::lock_guard<std::mutex> lock(traits_mutex);
    auto it = traits().find(addr);
    return it == traits().end() ? -1 : it->second;
}

kernel_registrar::kernel_registrar(const void *addr, const char *name, int sync)
{
    register_kernel(addr, name, sync);
}

namespace
{

cudaError_t submit(const launch_request &r, bool cooperative);

} // namespace

void submit_launch(const launch_request &r)
{
    submit(r, false);
}

cudaError_t submit_cooperative_launch(const launch_request &given)
{
    launch_request r = given;
    if (!r.kernel_name) {
        std::lock_guard<std::mutex> lock(traits_mutex);
        auto it = kernel_names().find(r.kernel_addr);
        r.kernel_name = it == kernel_names().end() ? "(cooperative kernel)" : it->second;
    }
    return submit(r, true);
}

namespace
{

// A kernel of the program that was compiled without the check's hooks (an
// object made by another compiler, or by gpulab-nvcc -c without objcopy):
// the check cannot see its accesses, and says so once per kernel, as an error,
// so that a run that checked nothing never ends with "0 errors".
void unchecked_kernel(const launch_request &r)
{
    static std::mutex m;
    static std::set<std::string> said;
    check_count_unchecked_kernel();
    std::lock_guard<std::mutex> lock(m);
    if (!said.insert(r.kernel_name ? r.kernel_name : "?").second || !check_report_begin())
        return;
    check_line("Kernel not checked: %s was compiled without the check build's instrumentation",
               r.kernel_name ? r.kernel_name : "?");
    check_line("    launched at %s:%d", r.file ? r.file : "?", r.line);
    check_line("    its memory accesses are not checked (memcheck, racecheck, initcheck): compile "
               "its .cu file with gpulab-nvcc, which puts the check build in the object");
}

// A captured launch, run again by a graph launched on stream s: a new job
// with the same kernel, shape and arguments.
cudaError_t launch_again(const std::shared_ptr<job> &first, cudaStream_t s)
{
    int d;
    if (!stream_device(s, &d))
        return cudaErrorInvalidResourceHandle;
    if (sticky(d) != cudaSuccess)
        return sticky(d);
    auto j = std::make_shared<job>();
    j->req = first->req;
    j->req.stream = s;
    j->pointers = first->pointers;
    j->is_pointer = first->is_pointer;
    j->sync = first->sync;
    j->cooperative = first->cooperative;
    j->total_blocks = first->total_blocks;
    j->device = d;
    j->owner = first;
    return enqueue(s, j->req.kernel_name, [j]() {
        cudaError_t e = run_kernel(j);
        device_printf_flush(j->device);
        return e;
    });
}

cudaError_t submit(const launch_request &r, bool cooperative)
{
    trace_api api_call_(cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel",
                        r.kernel_name);
    auto j = std::make_shared<job>();
    j->req = r;
    j->pointers.assign(r.pointers, r.pointers + r.n_args);
    j->is_pointer.assign(r.is_pointer, r.is_pointer + r.n_args);
    j->req.pointers = nullptr;
    j->req.is_pointer = nullptr;
    int d;
    if (!stream_device(r.stream, &d)) {
        record(cudaErrorInvalidResourceHandle, "cudaLaunchKernel");
        return cudaErrorInvalidResourceHandle;
    }
    if (sticky(d) != cudaSuccess) {
        record(sticky(d), "cudaLaunchKernel");
        return sticky(d);
    }
    cudaError_t e = check_config(r, d);
    if (e != cudaSuccess) {
        record(e, "cudaLaunchKernel");
        return e;
    }
    int sync = kernel_sync(r.kernel_addr);
    j->sync = sync != 0 || cooperative;
    j->cooperative = cooperative;
    j->total_blocks = (uint64_t)r.grid.x * r.grid.y * r.grid.z;
    if (cooperative && (e = check_cooperative(r, d, j->total_blocks)) != cudaSuccess)
        return record(e, "cudaLaunchCooperativeKernel");
    std::string bad;
    for (int i = 0; i < r.n_args && bad.empty(); i++) {
        if (!r.is_pointer[i])
            continue;
        bad = check_pointer(r, d, i);
        if (!bad.empty())
            report("kernel %s launched at %s:%d: argument %d '%s' %s. The kernel fails with "
                   "cudaErrorIllegalAddress, which is sticky: every later CUDA call returns it "
                   "until cudaDeviceReset",
                   r.kernel_name, r.file, r.line, i + 1, arg_name(r.args_text, i).c_str(),
                   bad.c_str());
    }
    if (!bad.empty()) {
        enqueue(r.stream, r.kernel_name, [j]() { return cudaErrorIllegalAddress; });
        return cudaSuccess;
    }
    if ((check_tools() & ~CHECK_STATS) && r.ops && !r.ops->instrumented)
        unchecked_kernel(r);
    j->device = d;
    if (cudaGraph_t g = stream_capture(r.stream))
        return graph_capture_launch(g, r.kernel_name,
                                    [j](cudaStream_t s) { return launch_again(j, s); });
    enqueue(r.stream, r.kernel_name, [j]() {
        cudaError_t e = run_kernel(j);
        device_printf_flush(j->device);
        return e;
    });
    return cudaSuccess;
}

} // namespace
} // namespace gpulab_sim
