// device.cpp — simulated devices: how many (GPULAB_SIM_DEVICES), their
// properties, the current device, peer access, synchronize and reset.
#include "internal.hpp"
#include "trace.hpp"
#include "model.hpp"

#include <atomic>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace gpulab_sim
{
namespace
{

constexpr int max_devices = 16;

int parse_device_count()
{
    const char *s = getenv("GPULAB_SIM_DEVICES");
    if (!s || !*s)
        return 1;
    char *end = nullptr;
    long n = strtol(s, &end, 10);
    if (*end != '\0' || n < 0 || n > max_devices) {
        report("GPULAB_SIM_DEVICES=\"%s\" is not a number from 0 to %d; simulating 1 device", s,
               max_devices);
        return 1;
    }
    return (int)n;
}

thread_local int this_thread_device = 0;
std::mutex peer_mutex;
bool peer_access[max_devices][max_devices];
unsigned int device_flags[max_devices];
size_t limits[3] = { 1024, 1 << 20, 8 << 20 }; // stack, printf FIFO, malloc heap
std::atomic<bool> limit_in_use[3];             // fixed by a kernel that used it

int worker_count()
{
    unsigned n = std::thread::hardware_concurrency();
    return n ? (int)n : 1;
}

void fill_properties(cudaDeviceProp *p, int d)
{
    memset(p, 0, sizeof(*p));
    // Plausible figures of a compute capability 8.6 part; the name says what it is.
    snprintf(p->name, sizeof(p->name), "gpulab simulated GPU %d (runs on the CPU)", d);
    p->totalGlobalMem = arena_bytes(d);
    p->sharedMemPerBlock = 48 * 1024;
    p->sharedMemPerBlockOptin = 99 * 1024;
    p->sharedMemPerMultiprocessor = 100 * 1024;
    p->regsPerBlock = 65536;
    p->regsPerMultiprocessor = 65536;
    p->warpSize = 32;
    p->memPitch = (size_t)1 << 31;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = 1024;
    p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->clockRate = 1700000;
    p->memoryClockRate = 9751000;
    p->memoryBusWidth = 384;
    p->totalConstMem = 64 * 1024;
    p->major = 8;
    p->minor = 6;
    p->textureAlignment = 512;
    p->deviceOverlap = 1;
    p->multiProcessorCount = worker_count();
    p->integrated = 0;
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->pciBusID = d + 1;
    p->asyncEngineCount = 2;
    p->unifiedAddressing = 1;
    p->l2CacheSize = 6 * 1024 * 1024;
    p->maxThreadsPerMultiProcessor = 1536;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;
    p->cooperativeLaunch = 1; // cudaLaunchCooperativeKernel and grid.sync()
    p->maxBlocksPerMultiProcessor = 16;
    p->maxTexture1D = 131072;
    p->maxTexture2D[0] = 131072;
    p->maxTexture2D[1] = 65536;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxTexture1DLayered[0] = 32768;
    p->maxTexture1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768;
    p->maxTexture2DLayered[2] = 2048;
    p->surfaceAlignment = 512;
    p->computePreemptionSupported = 1;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->directManagedMemAccessFromHost = 1;
    p->hostNativeAtomicSupported = 1;
    p->reservedSharedMemPerBlock = 1024;
    // With the performance model on, the GPU it models: what a program that
    // sizes its work by the device (SMs, shared memory, occupancy) sees on
    // that GPU. The memory stays the simulator's own.
    if (const gpu_profile *g = model_gpu()) {
        snprintf(p->name, sizeof(p->name), "%s (modeled: gpulab simulated GPU %d, runs on the CPU)",
                 g->name, d);
        p->major = g->cc_major;
        p->minor = g->cc_minor;
        p->multiProcessorCount = g->sms;
        p->clockRate = (int)(g->clock_ghz * 1e6 + 0.5);
        p->memoryBusWidth = g->bus_bits;
        p->memoryClockRate = (int)(g->dram_gbs * 4e6 / g->bus_bits + 0.5);
        p->l2CacheSize = (int)(g->l2_mb * 1024 * 1024 + 0.5);
        p->sharedMemPerMultiprocessor = (size_t)g->smem_kb * 1024;
        // Opt-in per block: all of it on 7.x, 1 KiB less (reserved) from 8.0 on.
        p->sharedMemPerBlockOptin = (size_t)(g->cc_major >= 8 ? g->smem_kb - 1 : g->smem_kb) * 1024;
        p->regsPerMultiprocessor = g->regs;
        p->maxThreadsPerMultiProcessor = g->max_warps * 32;
        p->maxBlocksPerMultiProcessor = g->max_blocks;
        p->reservedSharedMemPerBlock = g->cc_major >= 8 ? 1024 : 0; // none before 8.0
    }
}

} // namespace

size_t device_limit(cudaLimit which)
{
    limit_in_use[which].store(true, std::memory_order_relaxed);
    return limits[which];
}

int device_count()
{
    static int n = parse_device_count();
    return n;
}

bool valid_device(int d)
{
    return d >= 0 && d < device_count();
}

int current_device()
{
    return this_thread_device;
}

bool peer_enabled(int from, int to)
{
    if (from == to)
        return true;
    if (!valid_device(from) || !valid_device(to))
        return false;
    std::lock_guard<std::mutex> lock(peer_mutex);
    return peer_access[from][to];
}

cudaError_t enter(int *d, const char *api)
{
    *d = this_thread_device;
    if (device_count() == 0)
        return record(cudaErrorNoDevice, api);
    return record(sticky(*d), api);
}

} // namespace gpulab_sim

using namespace gpulab_sim;

extern "C" {

cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v)
        return record(cudaErrorInvalidValue);
    *v = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v)
        return record(cudaErrorInvalidValue);
    *v = CUDART_VERSION; // the simulator is its own driver
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return record(cudaErrorInvalidValue);
    *count = device_count();
    return *count ? cudaSuccess : record(cudaErrorNoDevice);
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return record(cudaErrorInvalidValue);
    *device = this_thread_device;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    gpulab_sim::trace_api api_call_("cudaSetDevice");
    if (!valid_device(device))
        return record(device_count() ? cudaErrorInvalidDevice : cudaErrorNoDevice);
    this_thread_device = device;
    return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    device_flags[d] = flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!flags)
        return record(cudaErrorInvalidValue);
    *flags = device_flags[d];
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    gpulab_sim::trace_api api_call_("cudaGetDeviceProperties");
    if (!prop)
        return record(cudaErrorInvalidValue);
    if (!valid_device(device))
        return record(cudaErrorInvalidDevice);
    fill_properties(prop, device);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    cudaDeviceProp p;
    if (!value)
        return record(cudaErrorInvalidValue);
    if (!valid_device(device))
        return record(cudaErrorInvalidDevice);
    fill_properties(&p, device);
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case cudaDevAttrMaxBlockDimX:
        *value = p.maxThreadsDim[0];
        break;
    case cudaDevAttrMaxBlockDimY:
        *value = p.maxThreadsDim[1];
        break;
    case cudaDevAttrMaxBlockDimZ:
        *value = p.maxThreadsDim[2];
        break;
    case cudaDevAttrMaxGridDimX:
        *value = p.maxGridSize[0];
        break;
    case cudaDevAttrMaxGridDimY:
        *value = p.maxGridSize[1];
        break;
    case cudaDevAttrMaxGridDimZ:
        *value = p.maxGridSize[2];
        break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *value = (int)p.sharedMemPerBlock;
        break;
    case cudaDevAttrTotalConstantMemory:
        *value = (int)p.totalConstMem;
        break;
    case cudaDevAttrWarpSize:
        *value = p.warpSize;
        break;
    case cudaDevAttrMaxPitch:
        *value = 2147483647;
        break;
    case cudaDevAttrMaxRegistersPerBlock:
        *value = p.regsPerBlock;
        break;
    case cudaDevAttrClockRate:
        *value = p.clockRate;
        break;
    case cudaDevAttrTextureAlignment:
        *value = (int)p.textureAlignment;
        break;
    case cudaDevAttrGpuOverlap:
        *value = p.deviceOverlap;
        break;
    case cudaDevAttrMultiProcessorCount:
        *value = p.multiProcessorCount;
        break;
    case cudaDevAttrKernelExecTimeout:
        *value = 0;
        break;
    case cudaDevAttrHostNativeAtomicSupported: // one process: the host's atomics are the device's
        *value = 1;
        break;
    case cudaDevAttrIntegrated:
        *value = p.integrated;
        break;
    case cudaDevAttrCanMapHostMemory:
        *value = p.canMapHostMemory;
        break;
    case cudaDevAttrComputeMode:
        *value = 0;
        break;
    case cudaDevAttrConcurrentKernels:
        *value = p.concurrentKernels;
        break;
    case cudaDevAttrEccEnabled:
        *value = 0;
        break;
    case cudaDevAttrPciBusId:
        *value = p.pciBusID;
        break;
    case cudaDevAttrPciDeviceId:
        *value = 0;
        break;
    case cudaDevAttrMemoryClockRate:
        *value = p.memoryClockRate;
        break;
    case cudaDevAttrGlobalMemoryBusWidth:
        *value = p.memoryBusWidth;
        break;
    case cudaDevAttrL2CacheSize:
        *value = p.l2CacheSize;
        break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
        *value = p.maxThreadsPerMultiProcessor;
        break;
    case cudaDevAttrAsyncEngineCount:
        *value = p.asyncEngineCount;
        break;
    case cudaDevAttrUnifiedAddressing:
        *value = p.unifiedAddressing;
        break;
    case cudaDevAttrComputeCapabilityMajor:
        *value = p.major;
        break;
    case cudaDevAttrComputeCapabilityMinor:
        *value = p.minor;
        break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = (int)p.sharedMemPerMultiprocessor;
        break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
        *value = p.regsPerMultiprocessor;
        break;
    case cudaDevAttrManagedMemory:
        *value = p.managedMemory;
        break;
    case cudaDevAttrMultiGpuBoardGroupID:
        *value = device;
        break;
    case cudaDevAttrConcurrentManagedAccess:
        *value = p.concurrentManagedAccess;
        break;
    case cudaDevAttrCooperativeLaunch:
        *value = p.cooperativeLaunch;
        break;
    case cudaDevAttrPageableMemoryAccess: // kernels cannot use pageable host memory here
        *value = 0;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *value = (int)p.sharedMemPerBlockOptin;
        break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
        *value = p.maxBlocksPerMultiProcessor;
        break;
    case cudaDevAttrMemoryPoolsSupported:
        *value = 1; // cudaMallocAsync and memory pools (mempool.cpp)
        break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes:
        *value = 0; // no IPC handles
        break;
    default:
        return record(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    gpulab_sim::trace_api api_call_("cudaDeviceSynchronize");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    return record(device_sync(d));
}

cudaError_t cudaDeviceReset(void)
{
    gpulab_sim::trace_api api_call_("cudaDeviceReset");
    int d = this_thread_device;
    if (!valid_device(d))
        return record(cudaErrorNoDevice);
    device_sync(d);
    destroy_streams(d);
    free_all(d);
    {
        std::lock_guard<std::mutex> lock(peer_mutex);
        for (int j = 0; j < max_devices; j++)
            peer_access[d][j] = false;
    }
    device_flags[d] = 0;
    clear_sticky(d);
    clear_last_error();
    return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    if ((int)limit < 0 || (int)limit > 2)
        return record(cudaErrorUnsupportedLimit);
    if (limit != cudaLimitStackSize && limit_in_use[limit].load()) {
        report("cudaDeviceSetLimit(%s): too late, a kernel has used the %s already; set it "
               "before the first launch that calls %s",
               limit == cudaLimitPrintfFifoSize ? "cudaLimitPrintfFifoSize"
                                                : "cudaLimitMallocHeapSize",
               limit == cudaLimitPrintfFifoSize ? "printf buffer" : "malloc heap",
               limit == cudaLimitPrintfFifoSize ? "printf" : "malloc");
        return record(cudaErrorInvalidValue);
    }
    limits[limit] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    if (!value)
        return record(cudaErrorInvalidValue);
    if ((int)limit < 0 || (int)limit > 2)
        return record(cudaErrorUnsupportedLimit);
    *value = limits[limit];
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    gpulab_sim::trace_api api_call_("cudaMemGetInfo");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!free_bytes || !total_bytes)
        return record(cudaErrorInvalidValue);
    *total_bytes = arena_bytes(d);
    *free_bytes = *total_bytes - used_bytes(d);
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
    if (!can)
        return record(cudaErrorInvalidValue);
    if (!valid_device(device) || !valid_device(peer))
        return record(cudaErrorInvalidDevice);
    *can = device != peer;
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags)
{
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (flags != 0)
        return record(cudaErrorInvalidValue);
    if (!valid_device(peer) || peer == d)
        return record(cudaErrorInvalidDevice);
    std::lock_guard<std::mutex> lock(peer_mutex);
    if (peer_access[d][peer])
        return record(cudaErrorPeerAccessAlreadyEnabled);
    peer_access[d][peer] = true;
    return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peer)
{
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!valid_device(peer) || peer == d)
        return record(cudaErrorInvalidDevice);
    std::lock_guard<std::mutex> lock(peer_mutex);
    if (!peer_access[d][peer])
        return record(cudaErrorPeerAccessNotEnabled);
    peer_access[d][peer] = false;
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

} // extern "C"
