// mempool.cpp — stream-ordered allocation: cudaMallocAsync, cudaFreeAsync
// and memory pools (docs/simulator.md).
//
// An allocation is made at the call (the memory is there before the stream
// reaches the call, which no correct program can tell); the free is work
// queued on the stream, so the memory stays valid for the work queued before
// it and is freed, poisoned and out of the check tools' live set when the
// stream reaches it: a kernel that uses it later is a use after free, and
// memcheck says so. Each device has a default pool and a current one
// (cudaDeviceSetMemPool); pools keep the counts CUDA's attributes report.
#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "internal.hpp"
#include "trace.hpp"

struct CUmemPoolHandle_st {
    int device = 0;
    bool is_default = false;
    bool destroyed = false;
    unsigned long long release_threshold = 0;
    int reuse[3] = { 1, 1, 1 }; // the three cudaMemPoolReuse* attributes
    unsigned long long used = 0, used_high = 0, reserved = 0, reserved_high = 0;
    std::set<int> peers; // devices given access (cudaMemPoolSetAccess)
};

namespace
{

using gpulab_sim::record;
using gpulab_sim::report;

constexpr int max_pools_devices = 64;

std::mutex pools_mutex;
CUmemPoolHandle_st *default_pool[max_pools_devices];
CUmemPoolHandle_st *current_pool[max_pools_devices];
std::set<CUmemPoolHandle_st *> pools; // every pool made, default or not

struct pooled {
    CUmemPoolHandle_st *pool;
    size_t size;
    bool freeing; // a cudaFreeAsync of it is queued
};
std::map<uintptr_t, pooled> from_pools; // base -> its pool (live allocations)
std::set<uintptr_t> freeing_plain;      // cudaMalloc memory with a cudaFreeAsync queued

// The default pool of device d. Caller holds pools_mutex.
CUmemPoolHandle_st *default_of(int d)
{
    if (!default_pool[d]) {
        default_pool[d] = new CUmemPoolHandle_st;
        default_pool[d]->device = d;
        default_pool[d]->is_default = true;
        pools.insert(default_pool[d]);
    }
    return default_pool[d];
}

CUmemPoolHandle_st *current_of(int d)
{
    return current_pool[d] ? current_pool[d] : default_of(d);
}

bool valid_pool(cudaMemPool_t p)
{
    return p && pools.count(p) && !p->destroyed;
}

// What a pool holds after work frees memory: what is in use, and what it
// keeps of the rest up to its release threshold.
void settle(CUmemPoolHandle_st *p)
{
    p->reserved = std::max(p->used, std::min(p->reserved, p->release_threshold));
}

cudaError_t pool_alloc(void **out, size_t size, CUmemPoolHandle_st *pool, cudaStream_t stream,
                       const char *api)
{
    int d;
    cudaError_t e = gpulab_sim::enter(&d, api);
    if (e != cudaSuccess)
        return e;
    int sd;
    if (!out || !gpulab_sim::stream_device(stream, &sd))
        return record(cudaErrorInvalidValue, api);
    if (size == 0) {
        *out = nullptr;
        return cudaSuccess;
    }
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (!pool)
        pool = current_of(sd);
    else if (!valid_pool(pool))
        return record(cudaErrorInvalidValue, api);
    void *p = gpulab_sim::allocate_on(pool->device, size, api);
    if (!p)
        return record(cudaErrorMemoryAllocation, api);
    from_pools[(uintptr_t)p] = pooled{ pool, size, false };
    pool->used += size;
    pool->used_high = std::max(pool->used_high, pool->used);
    pool->reserved = std::max(pool->reserved, pool->used);
    pool->reserved_high = std::max(pool->reserved_high, pool->reserved);
    *out = p;
    return cudaSuccess;
}

} // namespace

bool gpulab_sim::pool_grants_access(const void *p, int d)
{
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (from_pools.empty())
        return false;
    auto it = from_pools.upper_bound((uintptr_t)p);
    if (it == from_pools.begin())
        return false;
    --it;
    if ((uintptr_t)p >= it->first + it->second.size)
        return false;
    return it->second.pool->peers.count(d) != 0;
}

extern "C" {

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    gpulab_sim::trace_api api_call_("cudaMallocAsync");
    return pool_alloc(devPtr, size, nullptr, stream, "cudaMallocAsync");
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream)
{
    gpulab_sim::trace_api api_call_("cudaMallocFromPoolAsync");
    if (!memPool)
        return record(cudaErrorInvalidValue);
    return pool_alloc(ptr, size, memPool, stream, "cudaMallocFromPoolAsync");
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    gpulab_sim::trace_api api_call_("cudaFreeAsync");
    int d, sd;
    cudaError_t e = gpulab_sim::enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!gpulab_sim::stream_device(stream, &sd))
        return record(cudaErrorInvalidValue);
    if (!devPtr)
        return cudaSuccess;
    {
        std::lock_guard<std::mutex> lock(pools_mutex);
        auto it = from_pools.find((uintptr_t)devPtr);
        bool queued = it != from_pools.end() ? it->second.freeing
                                             : freeing_plain.count((uintptr_t)devPtr) != 0;
        if (queued) {
            report("cudaFreeAsync(%p): freed already (an earlier cudaFreeAsync of it is queued)",
                   devPtr);
            return record(cudaErrorInvalidValue);
        }
        gpulab_sim::allocation a;
        if (!gpulab_sim::find_allocation(devPtr, &a) || a.base != (uintptr_t)devPtr) {
            // Reported as cudaFree reports it.
            return record(gpulab_sim::free_allocation(devPtr, "cudaFreeAsync"));
        }
        if (it != from_pools.end())
            it->second.freeing = true;
        else
            freeing_plain.insert((uintptr_t)devPtr);
    }
    e = gpulab_sim::enqueue(stream, "cudaFreeAsync", [devPtr] {
        cudaError_t r = gpulab_sim::free_allocation(devPtr, "cudaFreeAsync");
        std::lock_guard<std::mutex> lock(pools_mutex);
        auto it = from_pools.find((uintptr_t)devPtr);
        if (it != from_pools.end()) {
            CUmemPoolHandle_st *p = it->second.pool;
            p->used -= it->second.size;
            settle(p);
            from_pools.erase(it);
        }
        freeing_plain.erase((uintptr_t)devPtr);
        (void)r; // reported by free_allocation; the memory was checked at the call
        return cudaSuccess;
    });
    return record(e);
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    if (!memPool || !gpulab_sim::valid_device(device))
        return record(!memPool ? cudaErrorInvalidValue : cudaErrorInvalidDevice);
    std::lock_guard<std::mutex> lock(pools_mutex);
    *memPool = default_of(device);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    if (!memPool || !gpulab_sim::valid_device(device))
        return record(!memPool ? cudaErrorInvalidValue : cudaErrorInvalidDevice);
    std::lock_guard<std::mutex> lock(pools_mutex);
    *memPool = current_of(device);
    return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    if (!gpulab_sim::valid_device(device))
        return record(cudaErrorInvalidDevice);
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (!valid_pool(memPool) || memPool->device != device)
        return record(cudaErrorInvalidValue);
    current_pool[device] = memPool;
    return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    if (!memPool || !poolProps || poolProps->allocType != cudaMemAllocationTypePinned ||
        poolProps->location.type != cudaMemLocationTypeDevice ||
        !gpulab_sim::valid_device(poolProps->location.id))
        return record(cudaErrorInvalidValue);
    if (poolProps->handleTypes != cudaMemHandleTypeNone) {
        report("cudaMemPoolCreate: pools that export handles to other processes (IPC) are not "
               "simulated");
        return record(cudaErrorNotSupported);
    }
    std::lock_guard<std::mutex> lock(pools_mutex);
    CUmemPoolHandle_st *p = new CUmemPoolHandle_st;
    p->device = poolProps->location.id;
    pools.insert(p);
    *memPool = p;
    return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (!valid_pool(memPool) || memPool->is_default)
        return record(cudaErrorInvalidValue);
    // Memory still allocated from it stays usable until freed, as in CUDA.
    memPool->destroyed = true;
    if (current_pool[memPool->device] == memPool)
        current_pool[memPool->device] = nullptr;
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (!valid_pool(memPool) || !value)
        return record(cudaErrorInvalidValue);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        memPool->reuse[attr - cudaMemPoolReuseFollowEventDependencies] = *(int *)value;
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
        memPool->release_threshold = *(unsigned long long *)value;
        return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
        // Only a reset: to the current value.
        if (*(unsigned long long *)value != 0)
            return record(cudaErrorInvalidValue);
        if (attr == cudaMemPoolAttrReservedMemHigh)
            memPool->reserved_high = memPool->reserved;
        else
            memPool->used_high = memPool->used;
        return cudaSuccess;
    default:
        return record(cudaErrorInvalidValue);
    }
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (!valid_pool(memPool) || !value)
        return record(cudaErrorInvalidValue);
    unsigned long long *v = (unsigned long long *)value;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        *(int *)value = memPool->reuse[attr - cudaMemPoolReuseFollowEventDependencies];
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
        *v = memPool->release_threshold;
        return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
        *v = memPool->reserved;
        return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
        *v = memPool->reserved_high;
        return cudaSuccess;
    case cudaMemPoolAttrUsedMemCurrent:
        *v = memPool->used;
        return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh:
        *v = memPool->used_high;
        return cudaSuccess;
    }
    return record(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (!valid_pool(memPool))
        return record(cudaErrorInvalidValue);
    memPool->reserved =
        std::max(memPool->used, std::min(memPool->reserved, (unsigned long long)minBytesToKeep));
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                 size_t count)
{
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (!valid_pool(memPool) || (count && !descList))
        return record(cudaErrorInvalidValue);
    for (size_t i = 0; i < count; i++) {
        const cudaMemAccessDesc &d = descList[i];
        if (d.location.type != cudaMemLocationTypeDevice ||
            !gpulab_sim::valid_device(d.location.id))
            return record(cudaErrorInvalidValue);
        if (d.location.id == memPool->device) {
            // A pool's own device always has read-write access.
            if (d.flags != cudaMemAccessFlagsProtReadWrite)
                return record(cudaErrorInvalidValue);
            continue;
        }
        if (d.flags == cudaMemAccessFlagsProtNone)
            memPool->peers.erase(d.location.id);
        else
            memPool->peers.insert(d.location.id);
    }
    return cudaSuccess;
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location)
{
    std::lock_guard<std::mutex> lock(pools_mutex);
    if (!flags || !location || !valid_pool(memPool) ||
        location->type != cudaMemLocationTypeDevice || !gpulab_sim::valid_device(location->id))
        return record(cudaErrorInvalidValue);
    bool rw = location->id == memPool->device || memPool->peers.count(location->id);
    *flags = rw ? cudaMemAccessFlagsProtReadWrite : cudaMemAccessFlagsProtNone;
    return cudaSuccess;
}

} // extern "C"
