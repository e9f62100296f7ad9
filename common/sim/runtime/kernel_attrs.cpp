// kernel_attrs.cpp — per-kernel attributes (cudaFuncGetAttributes,
// cudaFuncSetAttribute), occupancy, and the calls that the simulator accepts
// without effect or does not support.
#include "internal.hpp"

#include <cstring>
#include <map>
#include <mutex>

namespace gpulab_sim
{
namespace
{

constexpr size_t default_dynamic_shared = 48 * 1024; // without opting in
constexpr size_t optin_dynamic_shared = 99 * 1024;   // cudaDevAttrMaxSharedMemoryPerBlockOptin

std::mutex attrs_mutex;
std::map<const void *, size_t> &dynamic_limits()
{
    static std::map<const void *, size_t> m;
    return m;
}

} // namespace

size_t dynamic_shared_limit(const void *kernel)
{
    std::lock_guard<std::mutex> lock(attrs_mutex);
    auto it = dynamic_limits().find(kernel);
    return it == dynamic_limits().end() ? default_dynamic_shared : it->second;
}

} // namespace gpulab_sim

using namespace gpulab_sim;

extern "C" {

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func)
{
    if (!attr || !func)
        return record(cudaErrorInvalidDeviceFunction);
    memset(attr, 0, sizeof(*attr));
    attr->maxThreadsPerBlock = 1024;
    attr->numRegs = 32; // the simulator has no registers to count; a typical figure
    attr->ptxVersion = 86;
    attr->binaryVersion = 86;
    attr->maxDynamicSharedSizeBytes = (int)dynamic_shared_limit(func);
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value)
{
    if (!func)
        return record(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return value >= -1 && value <= 100 ? cudaSuccess : record(cudaErrorInvalidValue);
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize)
        return record(cudaErrorInvalidValue);
    if (value < 0 || (size_t)value > optin_dynamic_shared)
        return record(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(attrs_mutex);
    dynamic_limits()[func] = (size_t)value;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                                          int block_size, size_t dynamic_shared)
{
    if (!blocks || block_size <= 0)
        return record(cudaErrorInvalidValue);
    if (!func)
        return record(cudaErrorInvalidDeviceFunction);
    // The limits of the simulated device: 1536 threads, 16 blocks and 100 KiB
    // of shared memory per multiprocessor, whole warps.
    int warps = (block_size + 31) / 32;
    int by_threads = 1536 / (warps * 32);
    int by_shared = dynamic_shared ? (int)((100 * 1024) / dynamic_shared) : 16;
    int n = by_threads < 16 ? by_threads : 16;
    *blocks = by_shared < n ? by_shared : n;
    return cudaSuccess;
}

} // extern "C"
