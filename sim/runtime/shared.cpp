// shared.cpp — static __shared__ variables: where each one lives.
//
// The launch rewriter turns every `__shared__` declaration in a function body
// into a reference to static_shared(&site), one site per declaration. Each
// site gets a slot at the same offset in every worker thread's window, a
// region the worker maps for itself (a worker runs one block at a time, so
// its window is the running block's shared memory). In its slot the variable
// ends exactly where the slot's guard page begins:
//
//     | 0xff ... 0xff | tile[0] ... tile[31] | guard page (no access) | next slot ...
//
// A thread that writes or reads past the end of a __shared__ array meets the
// guard page: the kernel stops with cudaErrorIllegalAddress and a report
// naming the array (fault.cpp's fault handler), and the worker's own data is
// never touched. Below the array is filler, as a GPU has other data there;
// the check mode reports any access outside the array, with its line.
#include "internal.hpp"
#include "shared.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace gpulab_sim
{
namespace
{

constexpr size_t window_bytes = (size_t)64 << 20; // address space per worker
constexpr size_t max_sites = 4096;
constexpr size_t max_variable = 48 * 1024; // a block's static shared memory on a GPU

struct site_rec {
    shared_site *site;
    size_t slot, bytes; // the slot's readable pages in the window (its guard page follows)
    size_t lo;          // the variable's offset in the window
};

std::mutex sites_mutex;
site_rec sites[max_sites];
std::atomic<size_t> site_count{ 0 };
size_t next_slot = 0;
std::atomic<uint32_t> *page_owner = nullptr; // per window page: 1 + index of its site, or 0

size_t page_size()
{
    static const size_t p = (size_t)sysconf(_SC_PAGESIZE);
    return p;
}

// A worker's window: every slot placed so far is readable below `ready`.
struct window {
    unsigned char *base = nullptr;
    size_t enabled = 0; // sites whose slots are readable here
    size_t ready = 0;   // offsets below this are in readable or guard pages
};

__thread window *this_window = nullptr;

// Gives site s its slot, once; returns its offset + 1, or 0 when it does not fit.
size_t place(shared_site *s)
{
    std::lock_guard<std::mutex> lock(sites_mutex);
    size_t p = __atomic_load_n(&s->place, __ATOMIC_ACQUIRE);
    if (p)
        return p;
    const size_t pg = page_size();
    if (!page_owner)
        page_owner = new std::atomic<uint32_t>[window_bytes / pg]();
    size_t n = site_count.load(std::memory_order_relaxed);
    size_t bytes = (s->size + pg - 1) / pg * pg;
    if (bytes == 0)
        bytes = pg;
    if (n == max_sites || next_slot + bytes + pg > window_bytes)
        return 0;
    size_t align = s->align && (s->align & (s->align - 1)) == 0 ? s->align : 16;
    size_t lo = (next_slot + bytes - s->size) & ~(align - 1);
    sites[n] = site_rec{ s, next_slot, bytes, lo };
    for (size_t q = next_slot / pg; q <= (next_slot + bytes) / pg; q++)
        page_owner[q].store((uint32_t)n + 1, std::memory_order_release);
    next_slot += bytes + pg;
    site_count.store(n + 1, std::memory_order_release);
    __atomic_store_n(&s->place, lo + 1, __ATOMIC_RELEASE);
    return lo + 1;
}

// Makes every slot placed so far readable in the calling worker's window.
window *ready_window()
{
    window *w = this_window;
    if (!w) {
        void *m = mmap(nullptr, window_bytes, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return nullptr;
        w = new window;
        w->base = (unsigned char *)m;
        this_window = w;
    }
    size_t n = site_count.load(std::memory_order_acquire);
    for (; w->enabled < n; w->enabled++) {
        const site_rec &r = sites[w->enabled];
        if (mprotect(w->base + r.slot, r.bytes, PROT_READ | PROT_WRITE) != 0)
            return nullptr;
        // Filler, as in fresh device memory: a float read before it was written is NaN.
        memset(w->base + r.slot, 0xff, r.bytes);
        w->ready = r.slot + r.bytes + page_size();
    }
    return w;
}

[[noreturn]] void cannot_place(const shared_site *s, const char *why)
{
    char msg[512];
    snprintf(msg, sizeof(msg), "__shared__ variable '%s' (declared at %s:%d, %zu bytes) %s",
             s->name, s->file, s->line, s->size, why);
    kernel_trap(cudaErrorLaunchOutOfResources, msg);
}

// static_shared's first use of a variable on a worker: places it, maps it.
__attribute__((noinline)) void *static_shared_first(shared_site *s)
{
    size_t p = __atomic_load_n(&s->place, __ATOMIC_ACQUIRE);
    window *w;
    if (s->size > max_variable)
        cannot_place(s, "is larger than the 48 KiB of static shared memory a block can have "
                        "(nvcc refuses it: \"uses too much shared data\"); use dynamic shared "
                        "memory (extern __shared__) and cudaFuncSetAttribute for more");
    if (!p && !(p = place(s)))
        cannot_place(s, "does not fit: the program declares too many __shared__ variables for "
                        "the simulator (4096, or 64 MiB in all)");
    if (!(w = ready_window()))
        cannot_place(s, "cannot be mapped: out of memory");
    return w->base + p - 1;
}

} // namespace

void *static_shared(shared_site *s)
{
    size_t p = __atomic_load_n(&s->place, __ATOMIC_ACQUIRE);
    window *w = this_window;
    if (__builtin_expect(p != 0 && w && p - 1 < w->ready, 1))
        return w->base + p - 1;
    return static_shared_first(s); // a tail call: the usual case saves no registers
}

bool static_shared_find(uintptr_t a, shared_place *out)
{
    window *w = this_window;
    if (!w || a - (uintptr_t)w->base >= window_bytes)
        return false;
    size_t off = a - (uintptr_t)w->base;
    uint32_t owner = page_owner ? page_owner[off / page_size()].load(std::memory_order_acquire) : 0;
    out->window = (uintptr_t)w->base;
    out->site = nullptr;
    out->lo = out->hi = 0;
    if (owner) {
        const site_rec &r = sites[owner - 1];
        out->site = r.site;
        out->lo = (uintptr_t)w->base + r.lo;
        out->hi = out->lo + r.site->size;
    }
    return true;
}

void static_shared_describe(uintptr_t a, size_t size, const shared_place &p, char *buf, size_t len)
{
    if (!p.site) {
        snprintf(buf, len, "is in the block's shared memory past every __shared__ variable");
        return;
    }
    const shared_site *s = p.site;
    if (a < p.lo)
        snprintf(buf, len,
                 "is %lu bytes before the start of __shared__ array '%s' (%zu bytes, declared at "
                 "%s:%d)",
                 (unsigned long)(p.lo - a), s->name, s->size, s->file, s->line);
    else if (a >= p.hi)
        snprintf(buf, len,
                 "is %lu bytes after the end of __shared__ array '%s' (%zu bytes, declared at "
                 "%s:%d)",
                 (unsigned long)(a - p.hi), s->name, s->size, s->file, s->line);
    else
        snprintf(buf, len,
                 "runs %lu bytes past the end of __shared__ array '%s' (%zu bytes, declared at "
                 "%s:%d)",
                 (unsigned long)(a + size - p.hi), s->name, s->size, s->file, s->line);
}

void static_shared_save(std::vector<unsigned char> *out)
{
    window *w = this_window;
    out->clear();
    for (size_t k = 0; w && k < w->enabled; k++)
        out->insert(out->end(), w->base + sites[k].slot, w->base + sites[k].slot + sites[k].bytes);
}

void static_shared_restore(const std::vector<unsigned char> &in)
{
    window *w = this_window;
    size_t at = 0;
    for (size_t k = 0; w && k < w->enabled && at + sites[k].bytes <= in.size(); k++) {
        memcpy(w->base + sites[k].slot, in.data() + at, sites[k].bytes);
        at += sites[k].bytes;
    }
}

} // namespace gpulab_sim
