// memory.cpp — device memory: one mmap'd arena per simulated device, a
// first-fit allocator over it, pinned host memory, managed memory, pointer
// queries, __device__ variables handed out as addresses. Copies and sets:
// copy.cpp.
//
// Fresh and freed device memory is filled with 0xff bytes, so a float read
// before it was written is NaN and an int is -1: reading uninitialized device
// memory shows up in results instead of passing by luck.
//
// Each arena has two halves: device memory (cudaMalloc), which host code may
// not touch (protect.cpp keeps it closed while no operation uses it), and
// managed memory (cudaMallocManaged), which host and kernels share. Both
// draw on one budget, the device's memory size.
// The file is longer than 600 lines because the arenas, the live-allocation
// table and every call that changes them share one lock and private tables.

// This file defines cudaMalloc and its kin: cuda_runtime.h must not turn
// their names into the macros that record a call's place.
#define GPULAB_SIM_NO_ALLOC_SITES 1

#include "board.hpp"
#include "check.hpp"
#include "internal.hpp"
#include "trace.hpp"
#include "memory.hpp"
#include "model.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>

namespace gpulab_sim
{
namespace
{

constexpr size_t alignment = 256;      // cudaMalloc's alignment
constexpr size_t redzone = 256;        // unallocated bytes after each allocation
constexpr unsigned char poison = 0xff; // fresh and freed memory
constexpr int max_devices = 16;

struct arena {
    uintptr_t base = 0;
    size_t size = 0; // of each half: device memory at base, managed memory after it
    size_t used = 0; // both halves together, at most size
    std::map<uintptr_t, size_t> free_blocks;  // device half: start -> length, coalesced
    std::map<uintptr_t, size_t> free_managed; // managed half
};

std::mutex mem_mutex;
arena arenas[max_devices];
std::map<uintptr_t, allocation> live; // base -> allocation (every device)
std::map<uintptr_t, size_t> pinned;   // pinned or registered host ranges
std::map<uintptr_t, size_t> symbols;  // __device__/__constant__ variables handed out

size_t arena_size_setting()
{
    const char *s = getenv("GPULAB_SIM_MEMORY_MB");
    if (s && *s) {
        char *end = nullptr;
        unsigned long long mb = strtoull(s, &end, 10);
        if (*end == '\0' && mb >= 16 && mb <= (1ull << 22))
            return (size_t)mb << 20;
        report("GPULAB_SIM_MEMORY_MB=\"%s\" is not a size from 16 to 4194304; using 8192", s);
    }
    return (size_t)8192 << 20;
}

size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

// Maps device d's arena on first use. Caller holds mem_mutex.
arena *arena_for(int d)
{
    arena &a = arenas[d];
    if (a.base)
        return &a;
    // The devices differ, as a machine's GPUs may: device d has d eighths of
    // the setting less than device 0 (d mod 8), so a fact read for the wrong
    // device (cudaMemGetInfo without cudaSetDevice) shows.
    size_t size = arena_size_setting();
    size -= (size / 8 >> 20 << 20) * (size_t)(d % 8);
    // The arena starts on a huge-page boundary and the device half asks for
    // huge pages: protect.cpp opens and closes the device half around every
    // run of kernels, and mprotect's cost grows with the page-table entries
    // it changes, one per 4 KiB page or one per 2 MiB huge page.
    void *p = mmap(nullptr, 2 * size + device_huge_page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        report("cannot reserve %zu MiB of address space for simulated device %d's memory "
               "(set GPULAB_SIM_MEMORY_MB lower)",
               size >> 20, d);
        return nullptr;
    }
    uintptr_t start = round_up((uintptr_t)p, device_huge_page);
    if (start > (uintptr_t)p)
        munmap(p, start - (uintptr_t)p);
    munmap((void *)(start + 2 * size), (uintptr_t)p + device_huge_page - start); // the rest
    p = (void *)start;
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE); // advice only: without it, 4 KiB pages
#endif
    a.base = (uintptr_t)p;
    a.size = size;
    a.free_blocks[a.base] = size;
    a.free_managed[a.base + size] = size;
    protect_device_memory(d, a.base, size);
    check_arena(d, a.base, 2 * size);
    return &a;
}

uintptr_t take_block(std::map<uintptr_t, size_t> &free_blocks, size_t need)
{
    for (auto it = free_blocks.begin(); it != free_blocks.end(); ++it) {
        if (it->second < need)
            continue;
        uintptr_t start = it->first;
        size_t len = it->second;
        free_blocks.erase(it);
        if (len > need)
            free_blocks[start + need] = len - need;
        return start;
    }
    return 0;
}

void give_block(std::map<uintptr_t, size_t> &free_blocks, uintptr_t start, size_t len)
{
    auto next = free_blocks.lower_bound(start);
    if (next != free_blocks.end() && start + len == next->first) {
        len += next->second;
        free_blocks.erase(next);
    }
    auto prev = free_blocks.lower_bound(start);
    if (prev != free_blocks.begin()) {
        --prev;
        if (prev->first + prev->second == start) {
            prev->second += len;
            return;
        }
    }
    free_blocks[start] = len;
}

// Live allocation containing p. Caller holds mem_mutex.
const allocation *lookup(uintptr_t p)
{
    auto it = live.upper_bound(p);
    if (it == live.begin())
        return nullptr;
    --it;
    const allocation &al = it->second;
    return p < al.base + (al.size ? al.size : 1) ? &al : nullptr;
}

// The place of this host thread's next device allocation (gpulab_sim_alloc_site).
thread_local alloc_site next_site;

// Takes the place given for this call and forgets it, so that no later call
// is credited with it.
alloc_site take_site()
{
    alloc_site s = next_site;
    next_site = alloc_site{};
    return s;
}

size_t heap_used[max_devices]; // bytes of each device's heap in use (malloc in a kernel)

// Places `size` bytes (more than 0) on device d; 0 when they do not fit.
uintptr_t place(int d, size_t size, bool managed, const char *api, const alloc_site &site)
{
    size_t need = round_up(size, alignment) + redzone;
    std::lock_guard<std::mutex> lock(mem_mutex);
    arena *a = arena_for(d);
    uintptr_t p = a && a->used + need <= a->size
                      ? take_block(managed ? a->free_managed : a->free_blocks, need)
                      : 0;
    if (!p)
        return 0;
    a->used += need;
    board_set_used(d, a->used);
    allocation al;
    al.base = p;
    al.size = size;
    al.device = d;
    al.managed = managed;
    al.api = api;
    al.file = site.file;
    al.line = site.line;
    al.function = site.function;
    live[p] = al;
    if (managed) {
        memset((void *)p, 0, size);
    } else {
        device_memory_grow(d, p + need);
        device_memory_scope open((void *)p, size);
        memset((void *)p, poison, size);
    }
    check_alloc(p, size, d, managed, api, site);
    return p;
}

cudaError_t device_alloc(void **out, size_t size, bool managed, const char *api,
                         const alloc_site &site)
{
    int d;
    cudaError_t e = enter(&d, api);
    if (e != cudaSuccess)
        return e;
    if (!out)
        return record(cudaErrorInvalidValue, api);
    if (size == 0) {
        *out = nullptr;
        return cudaSuccess;
    }
    uintptr_t p = place(d, size, managed, api, site);
    if (!p)
        return record(cudaErrorMemoryAllocation, api);
    *out = (void *)p;
    return cudaSuccess;
}

// Releases an allocation; `by` names the call that frees it (for reports of
// a later use). Caller holds mem_mutex.
void release(const allocation &al, const char *by)
{
    arena &a = arenas[al.device];
    size_t len = round_up(al.size, alignment) + redzone;
    if (al.managed) {
        memset((void *)al.base, poison, al.size);
    } else {
        device_memory_scope open((void *)al.base, al.size);
        memset((void *)al.base, poison, al.size);
    }
    check_free(al.base, al.size, by);
    a.used -= len;
    board_set_used(al.device, a.used);
    give_block(al.managed ? a.free_managed : a.free_blocks, al.base, len);
    live.erase(al.base);
}

} // namespace

// Checks [p, p + n) and says where it is: device memory (which must hold the
// whole range), or host memory (not checkable: any other address).
cudaError_t classify(const void *p, size_t n, span *out, const char *what, const char *call)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    uintptr_t u = (uintptr_t)p;
    const allocation *al = lookup(u);
    if (al) {
        out->kind = where::device;
        out->device = al->managed ? -1 : al->device;
        if (u + n > al->base + al->size || u + n < u) {
            report("%s: the %s range [%p, +%zu bytes) runs %zu bytes past the end of its "
                   "allocation at %p of %zu bytes",
                   call, what, p, n, (size_t)(u + n - (al->base + al->size)), (void *)al->base,
                   al->size);
            return cudaErrorInvalidValue;
        }
        return cudaSuccess;
    }
    auto sym = symbols.upper_bound(u);
    if (sym != symbols.begin() && u < (--sym)->first + sym->second) {
        // A __device__ or __constant__ variable whose address the program took.
        out->kind = where::device;
        out->device = -1;
        if (u + n > sym->first + sym->second) {
            report("%s: the %s range [%p, +%zu bytes) runs past the end of the %zu-byte variable "
                   "at %p",
                   call, what, p, n, sym->second, (void *)sym->first);
            return cudaErrorInvalidValue;
        }
        return cudaSuccess;
    }
    for (int d = 0; d < max_devices; d++) {
        if (arenas[d].base && u >= arenas[d].base && u < arenas[d].base + 2 * arenas[d].size) {
            report("%s: the %s pointer %p is device memory of device %d that is not allocated "
                   "(freed already, or never returned by cudaMalloc)",
                   call, what, p, d);
            return cudaErrorInvalidValue;
        }
    }
    out->kind = where::host;
    return cudaSuccess;
}

bool find_allocation(const void *p, allocation *out)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    const allocation *al = lookup((uintptr_t)p);
    if (al && out)
        *out = *al;
    return al != nullptr;
}

bool range_in_allocation(const void *p, size_t bytes, allocation *out)
{
    allocation al;
    if (!find_allocation(p, &al))
        return false;
    if (out)
        *out = al;
    uintptr_t u = (uintptr_t)p;
    return u + bytes >= u && u + bytes <= al.base + al.size;
}

int arena_of(const void *p)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    uintptr_t u = (uintptr_t)p;
    for (int d = 0; d < max_devices; d++)
        if (arenas[d].base && u >= arenas[d].base && u < arenas[d].base + 2 * arenas[d].size)
            return d;
    return -1;
}

int fault_allocation(const void *p, allocation *out)
{
    // The faulting thread may be anywhere: wait a while for the lock, never forever.
    for (int tries = 0; !mem_mutex.try_lock(); tries++) {
        if (tries == 1000)
            return -1;
        struct timespec ms = { 0, 1000000 };
        nanosleep(&ms, nullptr);
    }
    const allocation *al = lookup((uintptr_t)p);
    if (al)
        *out = *al;
    mem_mutex.unlock();
    return al ? 1 : 0;
}

bool is_pinned_host(const void *p)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    uintptr_t u = (uintptr_t)p;
    auto it = pinned.upper_bound(u);
    if (it == pinned.begin())
        return false;
    --it;
    return u < it->first + it->second;
}

bool is_symbol(const void *p)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    uintptr_t u = (uintptr_t)p;
    auto it = symbols.upper_bound(u);
    if (it == symbols.begin())
        return false;
    --it;
    return u < it->first + it->second;
}

const char heap_api[] = "malloc in a kernel";

// A device's heap holds its blocks at malloc's 16-byte alignment; each is also
// an allocation of its own in device memory, so memcheck checks its bounds.
void *heap_alloc(int d, size_t size, size_t limit)
{
    size_t n = round_up(size ? size : 1, 16);
    {
        std::lock_guard<std::mutex> lock(mem_mutex);
        if (heap_used[d] + n > limit)
            return nullptr;
        heap_used[d] += n;
    }
    uintptr_t p = place(d, size ? size : 1, false, heap_api, alloc_site{});
    if (!p) {
        std::lock_guard<std::mutex> lock(mem_mutex);
        heap_used[d] -= n;
    }
    return (void *)p;
}

bool heap_free(void *p)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    auto it = live.find((uintptr_t)p);
    if (it == live.end() || it->second.api != heap_api)
        return false;
    heap_used[it->second.device] -= round_up(it->second.size, 16);
    release(it->second, "free in a kernel");
    return true;
}

void free_all(int d)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    heap_used[d] = 0;
    for (auto it = live.begin(); it != live.end();) {
        allocation al = it->second;
        ++it;
        if (al.device == d)
            release(al, "cudaDeviceReset");
    }
}

size_t used_bytes(int d)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    return arenas[d].used;
}

size_t arena_bytes(int d)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    arena *a = arena_for(d);
    return a ? a->size : 0;
}

} // namespace gpulab_sim

using namespace gpulab_sim;

namespace gpulab_sim
{

cudaError_t free_allocation(void *p, const char *api)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    auto it = live.find((uintptr_t)p);
    if (it == live.end()) {
        const allocation *inside = lookup((uintptr_t)p);
        if (inside)
            report("%s(%p): not the start of an allocation (that allocation starts at %p)", api, p,
                   (void *)inside->base);
        else
            report("%s(%p): not a pointer cudaMalloc returned, or freed already", api, p);
        return cudaErrorInvalidValue;
    }
    if (it->second.api == heap_api) {
        report("%s(%p): memory from malloc in a kernel is freed by free in a kernel, not by %s",
               api, p, api);
        return cudaErrorInvalidValue;
    }
    release(it->second, api);
    return cudaSuccess;
}

void *allocate_on(int d, size_t size, const char *api)
{
    return (void *)place(d, size, false, api, take_site());
}

} // namespace gpulab_sim

extern "C" {

void gpulab_sim_alloc_site(const char *file, int line, const char *function)
{
    next_site = alloc_site{ file, line, function };
}

cudaError_t cudaMalloc(void **p, size_t size)
{
    gpulab_sim::trace_api api_call_("cudaMalloc");
    return device_alloc(p, size, false, "cudaMalloc", take_site());
}

cudaError_t cudaMallocManaged(void **p, size_t size, unsigned int flags)
{
    gpulab_sim::trace_api api_call_("cudaMallocManaged");
    alloc_site site = take_site();
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return record(cudaErrorInvalidValue);
    return device_alloc(p, size, true, "cudaMallocManaged", site);
}

cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    gpulab_sim::trace_api api_call_("cudaMallocPitch");
    alloc_site site = take_site();
    if (!pitch)
        return record(cudaErrorInvalidValue);
    *pitch = round_up(width ? width : 1, 512);
    return device_alloc(p, *pitch * height, false, "cudaMallocPitch", site);
}

cudaError_t cudaFree(void *p)
{
    gpulab_sim::trace_api api_call_("cudaFree");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!p)
        return cudaSuccess;
    e = device_sync(d); // cudaFree waits for work that may still use the memory
    if (e != cudaSuccess)
        return record(e); // which failed: the error it raised shows here
    return record(gpulab_sim::free_allocation(p, "cudaFree"));
}

cudaError_t cudaHostAlloc(void **p, size_t size, unsigned int flags)
{
    gpulab_sim::trace_api api_call_("cudaHostAlloc");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!p || flags > 0xf)
        return record(cudaErrorInvalidValue);
    void *mem = nullptr;
    if (posix_memalign(&mem, 4096, size ? size : 1) != 0)
        return record(cudaErrorMemoryAllocation);
    std::lock_guard<std::mutex> lock(mem_mutex);
    pinned[(uintptr_t)mem] = size ? size : 1;
    *p = mem;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **p, size_t size)
{
    gpulab_sim::trace_api api_call_("cudaMallocHost");
    return cudaHostAlloc(p, size, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void *p)
{
    gpulab_sim::trace_api api_call_("cudaFreeHost");
    if (!p)
        return cudaSuccess;
    std::lock_guard<std::mutex> lock(mem_mutex);
    auto it = pinned.find((uintptr_t)p);
    if (it == pinned.end()) {
        report("cudaFreeHost(%p): not a pointer cudaMallocHost or cudaHostAlloc returned", p);
        return record(cudaErrorInvalidValue);
    }
    pinned.erase(it);
    free(p);
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void *p, size_t size, unsigned int flags)
{
    gpulab_sim::trace_api api_call_("cudaHostRegister");
    (void)flags;
    if (!p || size == 0)
        return record(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (pinned.count((uintptr_t)p))
        return record(cudaErrorHostMemoryAlreadyRegistered);
    pinned[(uintptr_t)p] = size;
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *p)
{
    gpulab_sim::trace_api api_call_("cudaHostUnregister");
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (!pinned.erase((uintptr_t)p))
        return record(cudaErrorHostMemoryNotRegistered);
    return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned int flags)
{
    if (!dev || flags != 0 || !is_pinned_host(host))
        return record(cudaErrorInvalidValue);
    *dev = host; // one address space, as with unified addressing
    return cudaSuccess;
}

cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaMemPrefetchAsync");
    (void)s;
    allocation al;
    if (!range_in_allocation(p, n, &al) || !al.managed)
        return record(cudaErrorInvalidValue);
    if (device != -1 && !valid_device(device))
        return record(cudaErrorInvalidDevice);
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *attr, const void *p)
{
    allocation al;
    if (!attr)
        return record(cudaErrorInvalidValue);
    memset(attr, 0, sizeof(*attr));
    if (find_allocation(p, &al)) {
        attr->type = al.managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
        attr->device = al.device;
        attr->devicePointer = (void *)p;
        attr->hostPointer = al.managed ? (void *)p : nullptr;
    } else if (is_pinned_host(p)) {
        attr->type = cudaMemoryTypeHost;
        attr->device = current_device();
        attr->devicePointer = (void *)p;
        attr->hostPointer = (void *)p;
    } else {
        attr->type = cudaMemoryTypeUnregistered;
        attr->device = -2;
    }
    return cudaSuccess;
}

cudaError_t cudaGetSymbolAddress(void **p, const void *symbol)
{
    if (!p || !symbol)
        return record(cudaErrorInvalidSymbol);
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (!symbols.count((uintptr_t)symbol))
        symbols[(uintptr_t)symbol] = 1; // size unknown from C: one byte
    *p = (void *)symbol;
    return cudaSuccess;
}

// Called by the C++ overload of cudaGetSymbolAddress, which knows the size:
// a kernel or a copy may now use the variable's address as device memory.
void gpulab_sim_register_symbol(const void *symbol, size_t size)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    symbols[(uintptr_t)symbol] = size ? size : 1;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    (void)size;
    (void)symbol;
    return unsupported("cudaGetSymbolSize on an address (use the C++ overload)");
}

} // extern "C"
