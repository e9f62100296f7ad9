// launch_args.cpp — cudaLaunchKernel and cudaLaunchCooperativeKernel with the
// kernel cast to `const void *`: every kernel a rewritten file defines (not a
// template) registers its typed launcher under its address
// (GPULAB_SIM_KERNEL_TRAITS in gpulab_sim/kernel.hpp), so the arguments can
// be read with the parameters' types. An address no kernel registered is
// cudaErrorInvalidDeviceFunction, as a GPU answers a pointer that is no kernel.
#include "internal.hpp"

#include <map>
#include <mutex>

namespace gpulab_sim
{
namespace
{

struct entry {
    const char *name;
    void (*func)();
    erased_launcher launch;
    const size_t *param_sizes;
    int n_params;
};

std::mutex entries_mutex;

std::map<const void *, entry> &entries()
{
    static std::map<const void *, entry> m;
    return m;
}

bool find_entry(const void *addr, entry *out)
{
    std::lock_guard<std::mutex> lock(entries_mutex);
    auto it = entries().find(addr);
    if (it == entries().end())
        return false;
    *out = it->second;
    return true;
}

cudaError_t launch_by_address(const char *api, const void *func, dim3 grid, dim3 block, void **args,
                              size_t shmem, cudaStream_t stream, bool cooperative)
{
    entry e;
    if (!func || !find_entry(func, &e)) {
        report("%s: %p is not a kernel of this program that the simulator knows (a template "
               "kernel's instance cast to void * is not known: launch it with <<<...>>> or pass "
               "it without the cast)",
               api, func);
        return record(cudaErrorInvalidDeviceFunction, api);
    }
    return e.launch(e.func, grid, block, args, shmem, stream, cooperative, e.name);
}

} // namespace

void register_kernel_entry(const void *addr, const char *name, void (*func)(),
                           erased_launcher launch, const size_t *param_sizes, int n_params)
{
    std::lock_guard<std::mutex> lock(entries_mutex);
    entries()[addr] = entry{ name, func, launch, param_sizes, n_params };
}

bool kernel_params(const void *addr, const size_t **sizes, int *n)
{
    entry e;
    if (!addr || !find_entry(addr, &e))
        return false;
    *sizes = e.param_sizes;
    *n = e.n_params;
    return true;
}

cudaError_t launch_kernel_at(const char *api, const void *func, dim3 grid, dim3 block, void **args,
                             size_t shmem, cudaStream_t stream)
{
    return launch_by_address(api, func, grid, block, args, shmem, stream, false);
}

const char *kernel_entry_name(const void *addr)
{
    entry e;
    return find_entry(addr, &e) ? e.name : "(kernel)";
}

} // namespace gpulab_sim

using namespace gpulab_sim;

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                             cudaStream_t stream)
{
    return launch_by_address("cudaLaunchKernel", func, grid, block, args, shmem, stream, false);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t shmem, cudaStream_t stream)
{
    return launch_by_address("cudaLaunchCooperativeKernel", func, grid, block, args, shmem, stream,
                             true);
}
