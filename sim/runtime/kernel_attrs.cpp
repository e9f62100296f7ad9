// kernel_attrs.cpp — per-kernel attributes (cudaFuncGetAttributes,
// cudaFuncSetAttribute), occupancy, the device clock, and the calls that the
// simulator accepts without effect or does not support.
#include "internal.hpp"
#include "occupancy.hpp"

#include <cstdio>
#include <cstring>
#include <ctime>
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
    // The calculator's arithmetic on the device this program sees (the
    // modeled GPU's limits when the model is on), with the registers
    // cudaFuncGetAttributes gives and no static shared memory (the
    // simulator does not know a kernel's before it runs).
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, current_device());
    if (e != cudaSuccess)
        return e;
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, func);
    occupancy_kernel k;
    k.block_threads = block_size;
    k.regs_per_thread = attr.numRegs;
    k.dynamic_smem = dynamic_shared;
    k.max_dynamic_smem = (size_t)attr.maxDynamicSharedSizeBytes;
    *blocks = occupancy_of(occupancy_device_of(p), k).blocks;
    return cudaSuccess;
}

} // extern "C"

extern "C" {

// clock() in kernels: cycles of a 1.7 GHz SM clock (the simulated
// cudaDevAttrClockRate), from the monotonic clock; the C library's clock()
// elsewhere.
clock_t gpulab_sim_clock(void)
{
    if (!gpulab_sim::in_kernel())
        return std::clock();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (clock_t)((ts.tv_sec * 1000000000LL + ts.tv_nsec) * 17 / 10);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache config)
{
    (void)config;
    return func ? cudaSuccess : record(cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config)
{
    (void)config;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *config)
{
    if (!config)
        return record(cudaErrorInvalidValue);
    *config = cudaFuncCachePreferNone;
    return cudaSuccess;
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *ptr, size_t length,
                                     unsigned int flags)
{
    int d;
    (void)ptr;
    (void)length;
    (void)flags;
    return stream_device(stream, &d) ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    return cudaSuccess;
}

cudaError_t cudaThreadSynchronize(void)
{
    return cudaDeviceSynchronize();
}

cudaError_t cudaDeviceGetPCIBusId(char *bus, int len, int device)
{
    if (!bus || len <= 0)
        return record(cudaErrorInvalidValue);
    if (!valid_device(device))
        return record(cudaErrorInvalidDevice);
    snprintf(bus, (size_t)len, "0000:%02x:00.0", device + 1);
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *prop)
{
    if (!device || !prop)
        return record(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   const cudaStreamAttrValue *value)
{
    (void)stream, (void)attr, (void)value;
    return unsupported("cudaStreamSetAttribute (L2 persistence)");
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   cudaStreamAttrValue *value)
{
    (void)stream, (void)attr, (void)value;
    return unsupported("cudaStreamGetAttribute (L2 persistence)");
}

cudaError_t cudaMemAdvise(const void *ptr, size_t count, cudaMemoryAdvise advice, int device)
{
    (void)ptr, (void)count, (void)advice, (void)device;
    return unsupported("cudaMemAdvise");
}

// Interprocess communication: one simulated process has no other to share with.
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
    (void)handle, (void)devPtr;
    return unsupported("cudaIpcGetMemHandle (interprocess memory)");
}

cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags)
{
    (void)devPtr, (void)handle, (void)flags;
    return unsupported("cudaIpcOpenMemHandle (interprocess memory)");
}

cudaError_t cudaIpcCloseMemHandle(void *devPtr)
{
    (void)devPtr;
    return unsupported("cudaIpcCloseMemHandle (interprocess memory)");
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event)
{
    (void)handle, (void)event;
    return unsupported("cudaIpcGetEventHandle (interprocess events)");
}

cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle)
{
    (void)event, (void)handle;
    return unsupported("cudaIpcOpenEventHandle (interprocess events)");
}

} // extern "C"
