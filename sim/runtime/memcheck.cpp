// memcheck.cpp — the check mode's memcheck: every allocation's record and
// device memory's granule map (which allocation each 256 bytes belong to), an
// access to global memory out of bounds, freed or misaligned, an invalid
// access reported and stopped, and the leak check at exit.
#include "check_internal.hpp"

#include <sys/mman.h>

#include <cstdio>
#include <cstring>

namespace gpulab_sim
{
namespace checks
{

std::mutex alloc_mutex;
alloc_rec *alloc_table = nullptr;
std::atomic<uint32_t> alloc_count{ 1 };
device_shadow shadows[16];

void *reserve(size_t bytes)
{
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

uintptr_t arenas_lo = ~(uintptr_t)0, arenas_hi = 0; // span of every device's memory
int shadow_count = 0;

// ---------------------------------------------------------------------------
// __constant__ variables, as the launch rewriter registers them

struct constant_var {
    uintptr_t lo, hi;
    const char *name;
};
// Filled by static initializers of the program's files, which may run before
// this file's: plain arrays, zero before any code runs.
constexpr int max_constants = 4096;
constant_var constants[max_constants];
std::atomic<int> constant_count{ 0 };
std::mutex constants_mutex;

const char *constant_at(uintptr_t a)
{
    int n = constant_count.load(std::memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (a >= constants[i].lo && a < constants[i].hi)
            return constants[i].name;
    return nullptr;
}

// ---------------------------------------------------------------------------
// Invalid accesses

[[noreturn]] void invalid(space sp, bool write, size_t size, uintptr_t a, uintptr_t pc,
                          const char *why)
{
    static const char *names[] = { "__global__", "__shared__", "__local__" };
    std::string where = location(pc);
    check_count_error();
    if (first_time(std::string(write ? "invalid write at " : "invalid read at ") + where)) {
        std::lock_guard<std::mutex> lock(out_mutex);
        check_line("Invalid %s %s of size %zu bytes", names[sp], write ? "write" : "read", size);
        check_line("    at %s in %s", ck->kernel, where.c_str());
        by_thread_line();
        check_line("    Address 0x%lx %s", (unsigned long)a, why);
    }
    check_stop_thread();
}

void describe_outside(uintptr_t a, size_t size, char *buf, size_t len)
{
    // The nearest live allocation, before or after.
    std::lock_guard<std::mutex> lock(alloc_mutex);
    const alloc_rec *best = nullptr;
    uintptr_t best_d = ~(uintptr_t)0;
    for (uint32_t i = 1; i < alloc_count.load(); i++) {
        const alloc_rec &r = alloc_table[i];
        if (!r.size || r.freed)
            continue;
        uintptr_t d = a >= r.base + r.size ? a - (r.base + r.size) : (a < r.base ? r.base - a : 0);
        if (d < best_d) {
            best_d = d;
            best = &r;
        }
    }
    if (!best) {
        snprintf(buf, len, "is out of bounds (no allocation nearby)");
    } else if (a >= best->base + best->size || a + size > best->base + best->size) {
        snprintf(buf, len,
                 "is out of bounds\n=========     and is %lu bytes after the nearest allocation at "
                 "0x%lx of size %zu bytes",
                 (unsigned long)(a - (best->base + best->size)), (unsigned long)best->base,
                 best->size);
    } else {
        snprintf(buf, len,
                 "is out of bounds\n=========     and is %lu bytes before the nearest allocation "
                 "at 0x%lx of size %zu bytes",
                 (unsigned long)(best->base - a), (unsigned long)best->base, best->size);
    }
}

void check_global(uintptr_t a, size_t size, bool write, uintptr_t pc, device_shadow *s)
{
    char why[512];
    uint32_t id = s->granule[(a - s->base) >> granule_shift];
    const alloc_rec &r = alloc_table[id];
    if (id && r.freed) {
        snprintf(why, sizeof(why),
                 "is in memory freed by %s (the allocation at 0x%lx of size %zu bytes)",
                 r.freed_by ? r.freed_by : "cudaFree", (unsigned long)r.base, r.size);
        invalid(GLOBAL, write, size, a, pc, why);
    }
    if (!id || a < r.base || a + size > r.base + r.size) {
        describe_outside(a, size, why, sizeof(why));
        invalid(GLOBAL, write, size, a, pc, why);
    }
    if (size <= 16 && (a & (size - 1)))
        invalid(GLOBAL, write, size, a, pc, "is misaligned");
    if (!(tools & CHECK_INIT))
        return;
    if (write) {
        set_init(s, a, size, true);
    } else if (!all_init(s, a, size)) {
        uninit_global_read(a, size, pc);
    }
}

// The leak check (memcheck), at exit with the program's exit status. Memory
// still allocated is reported with the place of its cudaMalloc call, unless
// the program could not have freed it:
// - it exited with a nonzero status: it stopped early, on an error it met or
//   a check that failed, and the buffers it (or the kit's harness around it)
//   frees on the way out of a normal run are still allocated. A leak shows in
//   a run that ends with status 0.
// - its device has a sticky error: from then on even cudaFree fails.
void leak_check(int status)
{
    std::lock_guard<std::mutex> lock(alloc_mutex);
    size_t bytes = 0, count = 0, kept_bytes[17] = {}, kept[17] = {};
    for (uint32_t i = 1; i < alloc_count.load(); i++) {
        const alloc_rec &r = alloc_table[i];
        if (!r.size || r.freed || r.api == heap_api || r.api == graph_memory_api)
            continue; // a kernel's malloc, a graph's memory: they go with the context
        if (status != 0 || sticky(r.device) != cudaSuccess) {
            int d = status != 0 || r.device < 0 || r.device >= 16 ? 16 : r.device;
            kept_bytes[d] += r.size;
            kept[d]++;
            continue;
        }
        check_line("Leaked %zu bytes at 0x%lx allocated by %s", r.size, (unsigned long)r.base,
                   r.api);
        if (r.site.file)
            check_line("    at %s in %s:%d",
                       r.site.function && *r.site.function ? r.site.function : "?", r.site.file,
                       r.site.line);
        bytes += r.size;
        count++;
        error_count++;
    }
    if (count)
        check_line("LEAK SUMMARY: %zu bytes leaked in %zu allocations", bytes, count);
    if (error_count.load() == 0)
        return; // a run that failed for reasons of its own: nothing above to explain
    if (kept[16])
        check_line("Leak check skipped: the program exited with status %d after the errors above, "
                   "with %zu allocations (%zu bytes) it did not get to free",
                   status, kept[16], kept_bytes[16]);
    for (int d = 0; d < 16; d++)
        if (kept[d])
            check_line("Leak check skipped on device %d: after its sticky error (%s) even "
                       "cudaFree fails; %zu allocations (%zu bytes) stay until cudaDeviceReset",
                       d, cudaGetErrorName(sticky(d)), kept[d], kept_bytes[d]);
}

} // namespace checks

using namespace checks;

void check_alloc(uintptr_t base, size_t size, int device, bool managed, const char *api,
                 const alloc_site &site)
{
    if (!tools)
        return;
    std::lock_guard<std::mutex> lock(alloc_mutex);
    uint32_t id = alloc_count.load();
    if (!alloc_table || id >= max_allocs)
        return; // no room: the allocation goes unchecked
    alloc_table[id] = alloc_rec{ base, size, false, managed, device, api, site, nullptr };
    alloc_count.store(id + 1);
    device_shadow *sh = nullptr;
    for (device_shadow &x : shadows)
        if (x.granule && base >= x.base && base < x.base + x.size)
            sh = &x;
    if (!sh)
        return;
    for (uintptr_t g = base; g < base + size; g += (uintptr_t)1 << granule_shift)
        sh->granule[(g - sh->base) >> granule_shift] = id;
    set_init(sh, base, size, managed);
}

void check_free(uintptr_t base, size_t size, const char *by)
{
    if (!tools)
        return;
    std::lock_guard<std::mutex> lock(alloc_mutex);
    for (uint32_t i = alloc_count.load(); i-- > 1;) {
        if (alloc_table[i].base == base && !alloc_table[i].freed) {
            alloc_table[i].freed_by = by;
            alloc_table[i].freed = true;
            break;
        }
    }
    (void)size;
}

// The arena of each device, once mapped: where its shadows go.
void check_arena(int device, uintptr_t base, size_t size)
{
    if (!tools || device < 0 || device >= 16)
        return;
    device_shadow &s = shadows[device];
    s.granule = (uint32_t *)reserve((size >> granule_shift) * sizeof(uint32_t));
    s.init = (uint8_t *)reserve(size / 8);
    if (s.granule && s.init) {
        s.base = base;
        s.size = size;
        if (base < arenas_lo)
            arenas_lo = base;
        if (base + size > arenas_hi)
            arenas_hi = base + size;
        if (device + 1 > shadow_count)
            shadow_count = device + 1;
    }
}

} // namespace gpulab_sim

extern "C" int gpulab_sim_register_constant(const void *p, size_t size, const char *name)
{
    using namespace gpulab_sim::checks;
    std::lock_guard<std::mutex> lock(constants_mutex);
    int n = constant_count.load(std::memory_order_relaxed);
    if (n < max_constants) {
        constants[n] = constant_var{ (uintptr_t)p, (uintptr_t)p + size, name };
        constant_count.store(n + 1, std::memory_order_release);
    }
    return 0;
}
