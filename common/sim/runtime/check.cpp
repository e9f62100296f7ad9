// check.cpp — the check mode: memcheck, racecheck, synccheck and initcheck,
// reported in compute-sanitizer's words.
//
// How it sees every access: each sim program has a twin, <program>.check,
// whose .cu files are compiled with -fsanitize=thread. GCC then calls
// __tsan_read4(addr), __tsan_write8(addr), ... before every load and store
// the kernel code makes (global, shared and local memory alike), and the
// atomics go through __tsan_atomic*. This file defines those functions itself
// (the TSan runtime is never linked), so each access is checked here, and an
// access found invalid is reported and never performed: the thread stops.
// The plain program re-runs itself as its twin when GPULAB_SIM_CHECK is set,
// so one build serves both, and plain programs pay nothing for the checks.
#include "check.hpp"
#include "internal.hpp"
#include "shared.hpp"

#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpulab_sim/stats.h"
#include "model.hpp"

// The dynamic shared memory of the running block (launch.cpp).
extern "C" __thread unsigned char gpulab_sim_dynamic_shared[];

namespace gpulab_sim
{
namespace
{

// ---------------------------------------------------------------------------
// Settings and the twin

bool instrumented = false; // set by __tsan_init, from an instrumented file's constructor
unsigned tools = 0;
std::atomic<long> error_count{ 0 };
std::mutex out_mutex;

unsigned parse_tools(const char *s)
{
    unsigned t = 0;
    std::string list = s ? s : "";
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(',', start);
        std::string w =
            list.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (w == "all")
            t |= CHECK_MEM | CHECK_RACE | CHECK_SYNC | CHECK_INIT;
        else if (w == "memcheck")
            t |= CHECK_MEM;
        else if (w == "racecheck")
            t |= CHECK_RACE;
        else if (w == "synccheck")
            t |= CHECK_SYNC;
        else if (w == "initcheck")
            t |= CHECK_INIT;
        else if (!w.empty() && w != "0" && w != "none")
            report("GPULAB_SIM_CHECK: unknown check '%s' (use memcheck, racecheck, synccheck, "
                   "initcheck or all, separated by commas)",
                   w.c_str());
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return t;
}

// ---------------------------------------------------------------------------
// Where things are: the program's image, its static TLS block (where every
// __shared__ variable lives), and device memory's granule map.

uintptr_t image_lo = 0, image_hi = 0, load_bias = 0;
size_t tls_size = 0, tls_align = 1;

int find_image(struct dl_phdr_info *info, size_t, void *)
{
    // The first object is the program itself.
    load_bias = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_LOAD) {
            uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
            if (!image_lo || lo < image_lo)
                image_lo = lo;
            if (hi > image_hi)
                image_hi = hi;
        } else if (ph.p_type == PT_TLS) {
            tls_size = ph.p_memsz;
            tls_align = ph.p_align ? ph.p_align : 1;
        }
    }
    return 1;
}

void tls_block(uintptr_t *lo, uintptr_t *hi)
{
    uintptr_t tp;
#if defined(__x86_64__)
    // %fs:0 holds the thread pointer itself (the TCB's self pointer). GCC before 11
    // has no __builtin_thread_pointer on x86-64 (Ubuntu 20.04, Debian 11).
    __asm__("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__aarch64__)
    __asm__("mrs %0, tpidr_el0" : "=r"(tp));
#else
    tp = (uintptr_t)__builtin_thread_pointer();
#endif
#if defined(__x86_64__)
    size_t size = (tls_size + tls_align - 1) / tls_align * tls_align;
    *lo = tp - size; // variant II: the program's block ends at the thread pointer
    *hi = tp;
#else
    size_t start = (16 + tls_align - 1) / tls_align * tls_align;
    *lo = tp + start; // variant I: it starts after the thread control block
    *hi = *lo + tls_size;
#endif
}

struct alloc_rec {
    uintptr_t base;
    size_t size;
    bool freed;
    bool managed;
    int device;
    const char *api;
    alloc_site site;
};

// Allocation records by id, in a table that never moves (so kernels read it
// without a lock); records are only appended. Id 0 is "none".
constexpr size_t max_allocs = (size_t)1 << 22;
std::mutex alloc_mutex;
alloc_rec *alloc_table = nullptr;
std::atomic<uint32_t> alloc_count{ 1 };
constexpr int granule_shift = 8; // 256 bytes, cudaMalloc's alignment
struct device_shadow {
    uintptr_t base = 0;
    size_t size = 0;
    uint32_t *granule = nullptr; // allocation id per granule
    uint8_t *init = nullptr;     // one bit per byte: written
};
device_shadow shadows[16];

void *reserve(size_t bytes)
{
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

uintptr_t arenas_lo = ~(uintptr_t)0, arenas_hi = 0; // span of every device's memory
int shadow_count = 0;

device_shadow *shadow_for(uintptr_t a)
{
    if (a < arenas_lo || a >= arenas_hi)
        return nullptr;
    for (int i = 0; i < shadow_count; i++)
        if (a >= shadows[i].base && a < shadows[i].base + shadows[i].size)
            return &shadows[i];
    return nullptr;
}

// Marks [a, a + n) written (on) or not. Kernels on the workers and copies on
// the executors mark neighbouring bytes at the same time, so a shadow byte
// shared with bytes outside the range is updated atomically; shadow bytes
// wholly inside it belong to this range alone.
void set_init(device_shadow *s, uintptr_t a, size_t n, bool on)
{
    size_t bit = a - s->base, end = bit + n;
    while (bit < end) {
        uint8_t *byte = &s->init[bit >> 3];
        size_t lo = bit & 7, hi = lo + (end - bit) < 8 ? lo + (end - bit) : 8;
        if (lo == 0 && hi == 8 && end - bit >= 16) {
            size_t whole = (end - bit) >> 3;
            memset(byte, on ? 0xff : 0, whole);
            bit += whole << 3;
            continue;
        }
        uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1u) << lo);
        if (!on)
            __atomic_fetch_and(byte, (uint8_t)~mask, __ATOMIC_RELAXED);
        else if ((__atomic_load_n(byte, __ATOMIC_RELAXED) & mask) != mask)
            __atomic_fetch_or(byte, mask, __ATOMIC_RELAXED);
        bit += hi - lo;
    }
}

bool all_init(const device_shadow *s, uintptr_t a, size_t n)
{
    size_t first = a - s->base;
    if ((first & 7) + n <= 8) {
        uint8_t mask = (uint8_t)(((1u << n) - 1u) << (first & 7));
        return (s->init[first >> 3] & mask) == mask;
    }
    for (size_t i = 0; i < n; i++) {
        size_t off = a + i - s->base;
        if (!(s->init[off >> 3] & (1u << (off & 7))))
            return false;
    }
    return true;
}

// ---------------------------------------------------------------------------
// Source locations: the return address of a hook is in the kernel's code;
// addr2line turns it into file:line (the .cu file's, thanks to #line).

std::mutex loc_mutex;
std::map<uintptr_t, std::string> &loc_cache = *new std::map<uintptr_t, std::string>;

std::string location(uintptr_t pc)
{
    std::lock_guard<std::mutex> lock(loc_mutex);
    auto it = loc_cache.find(pc);
    if (it != loc_cache.end())
        return it->second;
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "addr2line -i -e /proc/%d/exe 0x%lx 2>/dev/null", (int)getpid(),
             (unsigned long)(pc - 1 - load_bias));
    std::string where = "?";
    if (FILE *p = popen(cmd, "r")) {
        char line[1024];
        if (fgets(line, sizeof(line), p)) {
            line[strcspn(line, "\n")] = '\0';
            char *disc = strstr(line, " (discriminator");
            if (disc)
                *disc = '\0';
            where = line;
        }
        while (fgets(line, sizeof(line), p))
            ;
        pclose(p);
    }
    loc_cache[pc] = where;
    return where;
}

// ---------------------------------------------------------------------------
// Per worker: the kernel it runs, its shared memory's shadow.

struct race_cell {
    uint32_t epoch = 0;      // accesses of another epoch are before a barrier
    uint32_t init_block = 0; // block in which it was last written (initcheck)
    uint16_t writer = 0, reader = 0;
    uint8_t written = 0, read = 0, many_readers = 0;
    uintptr_t write_pc = 0, read_pc = 0;
};

struct checker {
    bool in_kernel = false;
    const char *kernel = "?";
    size_t dynamic_shmem = 0;
    uintptr_t task_lo = 0, task_hi = 0; // the launch's arguments
    uintptr_t tls_lo = 0, tls_hi = 0;
    uintptr_t stack_lo = 0, stack_hi = 0; // the worker's own stack
    std::vector<race_cell> cells;         // one per 4 bytes of the TLS block
    std::vector<race_cell> window_cells;  // one per byte of the static shared window used
    uint32_t epoch = 1, block = 1;
    // Access counts (GPULAB_SIM_STATS): totals, and this block's requests:
    // per (instruction, warp), the sectors of its k-th execution.
    gpulab_sim_kernel_stats counts{};
    unsigned long long barriers = 0; // barrier releases (for the performance model)
    std::unordered_map<uint64_t, uint32_t> executions; // (pc, thread) -> times run
    std::unordered_map<uint64_t, std::vector<std::vector<uint64_t>>> requests[2]; // load, store
};

std::mutex stats_mutex;
gpulab_sim_kernel_stats kernel_totals{}, last_kernel{};
unsigned long long kernel_barriers = 0, last_barriers = 0;
bool have_last_kernel = false;
// GPULAB_SIM_STATS=1 prints each kernel's counts; the performance model
// (GPULAB_SIM_MODEL) counts without printing.
bool stats_print = false;
// The model alone counts 1 block in `every` of a large grid (sampled_blocks
// of them), and scales up (model.cpp): the blocks of a kernel do the same
// work but for the grid's edge, and counting all of them would more than
// double a demo's time; the others run the twin's plain copy of the kernel
// (plain_copy.cpp). GPULAB_SIM_STATS=1 counts every block.
constexpr uint64_t sampled_blocks = 64;
std::atomic<uint64_t> kernel_every{ 1 };
uint64_t last_every = 1;

// 1 in how many blocks of a grid of `total` the model alone counts.
inline uint64_t sample_every(uint64_t total)
{
    return total > 2 * sampled_blocks ? total / sampled_blocks : 1;
}

// Whether the running block is one the counts include.
inline bool block_counted()
{
    if (stats_print)
        return true;
    uint64_t total = (uint64_t)gridDim.x * gridDim.y * gridDim.z;
    uint64_t every = sample_every(total);
    kernel_every.store(every, std::memory_order_relaxed);
    uint64_t b = blockIdx.x + (uint64_t)gridDim.x * (blockIdx.y + (uint64_t)gridDim.y * blockIdx.z);
    return b % every == 0;
}

void count_access(checker *c, bool global, bool write, uintptr_t a, size_t size, uintptr_t pc)
{
    if (!block_counted())
        return;
    if (!global) {
        (write ? c->counts.shared_stores : c->counts.shared_loads)++;
        return;
    }
    (write ? c->counts.global_stores : c->counts.global_loads)++;
    size_t t = check_thread_index();
    uint64_t k = c->executions[(uint64_t)pc << 10 | t]++;
    std::vector<std::vector<uint64_t>> &by_k = c->requests[write][(uint64_t)pc << 10 | t / 32];
    if (by_k.size() <= k)
        by_k.resize(k + 1);
    for (uintptr_t sec = a >> 5; sec <= (a + size - 1) >> 5; sec++) {
        std::vector<uint64_t> &v = by_k[k];
        bool seen_it = false;
        for (uint64_t x : v)
            seen_it |= x == sec;
        if (!seen_it)
            v.push_back(sec);
    }
}

// Folds this worker's block into its counts: one request per warp instruction.
void fold_block(checker *c)
{
    for (int w = 0; w < 2; w++) {
        for (auto &kv : c->requests[w])
            for (auto &secs : kv.second) {
                if (secs.empty())
                    continue;
                (w ? c->counts.store_requests : c->counts.load_requests)++;
                (w ? c->counts.store_sectors : c->counts.load_sectors) += secs.size();
            }
        c->requests[w].clear();
    }
    c->executions.clear();
}

__thread checker *ck = nullptr;
std::atomic<uint32_t> block_serial{ 1 };

checker *this_checker()
{
    if (!ck) {
        ck = new checker;
        tls_block(&ck->tls_lo, &ck->tls_hi);
        ck->cells.resize(ck->tls_hi - ck->tls_lo + 1);
        pthread_attr_t attr;
        void *lo;
        size_t size;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            pthread_attr_getstack(&attr, &lo, &size);
            ck->stack_lo = (uintptr_t)lo;
            ck->stack_hi = (uintptr_t)lo + size;
            pthread_attr_destroy(&attr);
        }
    }
    return ck;
}

// Reports are grouped by what and where: the first is printed, the rest counted.
std::mutex seen_mutex;
std::map<std::string, long> &seen = *new std::map<std::string, long>;

bool first_time(const std::string &key)
{
    std::lock_guard<std::mutex> lock(seen_mutex);
    return seen[key]++ == 0;
}

void by_thread_line()
{
    check_line("    by thread (%u,%u,%u) in block (%u,%u,%u)", threadIdx.x, threadIdx.y,
               threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z);
}

// ---------------------------------------------------------------------------
// The checks

enum space { GLOBAL, SHARED, LOCAL };

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
                 "is in memory freed by cudaFree (the allocation at 0x%lx of size %zu bytes)",
                 (unsigned long)r.base, r.size);
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
        std::string where = location(pc);
        check_count_error();
        if (first_time("uninitialized __global__ read at " + where)) {
            std::lock_guard<std::mutex> lock(out_mutex);
            check_line("Uninitialized __global__ memory read of size %zu bytes", size);
            check_line("    at %s in %s", ck->kernel, where.c_str());
            by_thread_line();
            check_line("    Address 0x%lx", (unsigned long)a);
        }
    }
}

void race(const char *kind, uintptr_t first_pc, const char *first, uintptr_t second_pc,
          const char *second, size_t other_thread)
{
    std::string a = location(first_pc), b = location(second_pc);
    check_count_error();
    if (!first_time(std::string(kind) + " hazard between " + a + " and " + b))
        return;
    uint3 t = threadIdx;
    unsigned ox = (unsigned)(other_thread % blockDim.x);
    unsigned oy = (unsigned)(other_thread / blockDim.x % blockDim.y);
    unsigned oz = (unsigned)(other_thread / ((size_t)blockDim.x * blockDim.y));
    std::lock_guard<std::mutex> lock(out_mutex);
    check_line("Error: Race reported between %s access at %s in %s", first, a.c_str(), ck->kernel);
    check_line("    and %s access at %s in %s [%s hazard on __shared__ memory, threads "
               "(%u,%u,%u) and (%u,%u,%u) of block (%u,%u,%u)]",
               second, b.c_str(), ck->kernel, kind, ox, oy, oz, t.x, t.y, t.z, blockIdx.x,
               blockIdx.y, blockIdx.z);
}

// An access to shared memory: static __shared__ variables when sp says where
// (the worker's window, see shared.cpp), else the TLS block (dynamic shared
// memory, file-scope __shared__ variables).
void check_shared(uintptr_t a, size_t size, bool write, uintptr_t pc, bool atomic,
                  const shared_place *sp = nullptr)
{
    checker *c = ck;
    uintptr_t dyn = (uintptr_t)gpulab_sim_dynamic_shared;
    if (sp && (!sp->site || a < sp->lo || a + size > sp->hi)) {
        char why[512], place[400];
        static_shared_describe(a, size, *sp, place, sizeof(place));
        snprintf(why, sizeof(why), "is out of bounds\n=========     and %s", place);
        invalid(SHARED, write, size, a, pc, why);
    }
    if (!sp && a >= dyn && a < dyn + 100 * 1024 && a + size > dyn + c->dynamic_shmem) {
        char why[256];
        snprintf(why, sizeof(why),
                 "is %lu bytes past the end of the block's %zu bytes of dynamic shared memory",
                 (unsigned long)(a + size - (dyn + c->dynamic_shmem)), c->dynamic_shmem);
        invalid(SHARED, write, size, a, pc, why);
    }
    if (size <= 16 && (a & (size - 1)))
        invalid(SHARED, write, size, a, pc, "is misaligned");
    size_t me = check_thread_index();
    // One cell per byte: threads may own neighbouring bytes. A race is looked
    // for on the access's first byte; initialization on every byte.
    race_cell *cell = &c->cells[a - c->tls_lo];
    size_t cells = c->tls_hi - a;
    if (sp) {
        size_t end = a + size - sp->window;
        if (c->window_cells.size() < end)
            c->window_cells.resize((end + 4095) / 4096 * 4096);
        cell = &c->window_cells[a - sp->window];
        cells = size;
    }
    race_cell &e = cell[0];
    bool uninit = false;
    for (size_t b = 0; b < size && b < cells; b++) {
        race_cell &x = cell[b];
        uninit |= !write && x.init_block != c->block;
        if (write)
            x.init_block = c->block;
    }
    if ((tools & CHECK_INIT) && uninit) {
        std::string where = location(pc);
        check_count_error();
        if (first_time("uninitialized __shared__ read at " + where)) {
            std::lock_guard<std::mutex> lock(out_mutex);
            check_line("Uninitialized __shared__ memory read of size %zu bytes", size);
            check_line("    at %s in %s", c->kernel, where.c_str());
            by_thread_line();
        }
    }
    if (!(tools & CHECK_RACE) || atomic)
        return; // atomics do not race
    if (e.epoch != c->epoch) {
        e.epoch = c->epoch;
        e.written = e.read = e.many_readers = 0;
    }
    if (write) {
        if (e.written && e.writer != me)
            race("WAW", e.write_pc, "Write", pc, "Write", e.writer);
        else if (e.read && (e.reader != me || e.many_readers))
            race("WAR", e.read_pc, "Read", pc, "Write", e.reader);
        e.written = 1;
        e.writer = (uint16_t)me;
        e.write_pc = pc;
    } else {
        if (e.written && e.writer != me)
            race("RAW", e.write_pc, "Write", pc, "Read", e.writer);
        if (e.read && e.reader != me)
            e.many_readers = 1;
        e.read = 1;
        e.reader = (uint16_t)me;
        e.read_pc = pc;
    }
}

// threadIdx, blockIdx, blockDim and gridDim: read by every kernel, never checked.
bool is_builtin(uintptr_t a)
{
    return a - (uintptr_t)&threadIdx < sizeof(uint3) || a - (uintptr_t)&blockIdx < sizeof(uint3) ||
           a - (uintptr_t)&blockDim < sizeof(dim3) || a - (uintptr_t)&gridDim < sizeof(dim3);
}

inline void check_access(const void *p, size_t size, bool write, uintptr_t pc, bool atomic = false)
{
    checker *c = ck;
    uintptr_t a = (uintptr_t)p;
    if (!c || !c->in_kernel) {
        // Host code: device memory is out of its reach (protect.cpp), even
        // while work it queued runs.
        if (a >= arenas_lo && a < arenas_hi && in_device_memory(a))
            host_access(a, size, write, location(pc).c_str());
        return;
    }
    if (a >= c->task_lo && a < c->task_hi)
        return; // the kernel's arguments
    if (a >= c->tls_lo && a < c->tls_hi) {
        if (is_builtin(a))
            return;
        if (tools & CHECK_STATS)
            count_access(c, false, write, a, size, pc);
        if (tools & (CHECK_MEM | CHECK_RACE | CHECK_INIT))
            check_shared(a, size, write, pc, atomic);
        return;
    }
    if (device_shadow *s = shadow_for(a)) {
        if (tools & CHECK_STATS)
            count_access(c, true, write, a, size, pc);
        if (tools & (CHECK_MEM | CHECK_INIT))
            check_global(a, size, write, pc, s);
        return;
    }
    shared_place place;
    if (static_shared_find(a, &place)) {
        if (tools & CHECK_STATS)
            count_access(c, false, write, a, size, pc);
        if (tools & (CHECK_MEM | CHECK_RACE | CHECK_INIT))
            check_shared(a, size, write, pc, atomic, &place);
        return;
    }
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if ((a >= sp && a < sp + (1u << 20)) || (a >= c->stack_lo && a < c->stack_hi))
        return; // local memory: this thread's stack
    if (a >= image_lo && a < image_hi)
        return; // __device__ and __constant__ variables
    if (is_pinned_host(p) || is_symbol(p))
        return; // mapped host memory
    if (tools & CHECK_MEM)
        invalid(GLOBAL, write, size, a, pc,
                "is a host pointer: host memory is not accessible from a kernel");
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
        if (!r.size || r.freed)
            continue;
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

void summary(int status, void *)
{
    if (tools & CHECK_MEM)
        leak_check(status);
    {
        // Each problem was reported once, where it first happened: how often.
        std::lock_guard<std::mutex> lock(seen_mutex);
        for (auto &kv : seen)
            if (kv.second > 1)
                check_line("%ld times: %s", kv.second, kv.first.c_str());
    }
    long n = error_count.load();
    check_line("ERROR SUMMARY: %ld error%s", n, n == 1 ? "" : "s");
    fflush(stdout);
    fflush(stderr);
    if (n > 0)
        _exit(1);
}

// Runs before main: settles the tools, and a plain program with tools asked
// for becomes its twin.
__attribute__((constructor)) void start_check_mode()
{
    const char *env = getenv("GPULAB_SIM_CHECK");
    const char *stats = getenv("GPULAB_SIM_STATS");
    const char *model = model_wanted();
    unsigned want = env ? parse_tools(env) : 0;
    stats_print = stats && strcmp(stats, "1") == 0;
    if (stats_print || model_lookup(model))
        want |= CHECK_STATS;
    if (!want)
        return;
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 8);
    self[n > 0 ? n : 0] = '\0';
    // A twin whose program has no kernel code (host code only: nothing was
    // instrumented) still checks what the runtime sees: API errors and leaks.
    bool twin_itself = n > 6 && strcmp(self + n - 6, ".check") == 0;
    if (!instrumented && !twin_itself) {
        if (n > 0) {
            std::string twin = std::string(self) + ".check";
            if (access(twin.c_str(), X_OK) == 0) {
                std::vector<char *> argv;
                static std::string args;
                FILE *f = fopen("/proc/self/cmdline", "rb");
                if (f) {
                    char buf[65536];
                    size_t len = fread(buf, 1, sizeof(buf), f);
                    fclose(f);
                    args.assign(buf, len);
                }
                for (size_t i = 0; i < args.size(); i += strlen(&args[i]) + 1)
                    argv.push_back(&args[i]);
                argv.push_back(nullptr);
                fflush(stdout);
                execv(twin.c_str(), argv.data());
            }
            if (want & ~CHECK_STATS)
                report("GPULAB_SIM_CHECK is set but %s has no check build (%s.check); build it "
                       "with the project's CMake or gpulab-nvcc, which make both. Running without "
                       "checks",
                       self, self);
            // The model says for itself what it does without counts (model.cpp).
        }
        return;
    }
    tools = want;
    alloc_table = (alloc_rec *)reserve(max_allocs * sizeof(alloc_rec));
    dl_iterate_phdr(find_image, nullptr);
    if (tools & ~CHECK_STATS) {
        on_exit(summary, nullptr);
        check_line("gpulab-sim check mode:%s%s%s%s", (tools & CHECK_MEM) ? " memcheck" : "",
                   (tools & CHECK_RACE) ? " racecheck" : "",
                   (tools & CHECK_SYNC) ? " synccheck" : "",
                   (tools & CHECK_INIT) ? " initcheck" : "");
    }
}

} // namespace

unsigned check_tools()
{
    return tools;
}

void check_line(const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "========= %s\n", line);
}

void check_count_error()
{
    error_count++;
}

void check_alloc(uintptr_t base, size_t size, int device, bool managed, const char *api,
                 const alloc_site &site)
{
    if (!tools)
        return;
    std::lock_guard<std::mutex> lock(alloc_mutex);
    uint32_t id = alloc_count.load();
    if (!alloc_table || id >= max_allocs)
        return; // no room: the allocation goes unchecked
    alloc_table[id] = alloc_rec{ base, size, false, managed, device, api, site };
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

void check_free(uintptr_t base, size_t size)
{
    if (!tools)
        return;
    std::lock_guard<std::mutex> lock(alloc_mutex);
    for (uint32_t i = alloc_count.load(); i-- > 1;) {
        if (alloc_table[i].base == base && !alloc_table[i].freed) {
            alloc_table[i].freed = true;
            break;
        }
    }
    (void)size;
}

void check_mark_init(const void *p, size_t n)
{
    if (!(tools & CHECK_INIT))
        return;
    if (device_shadow *s = shadow_for((uintptr_t)p))
        set_init(s, (uintptr_t)p, n, true);
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

void check_enter_kernel(const check_kernel_info &k)
{
    checker *c = this_checker();
    c->kernel = k.kernel;
    c->dynamic_shmem = k.dynamic_shmem;
    c->task_lo = (uintptr_t)k.task;
    c->task_hi = (uintptr_t)k.task + k.task_size;
    c->in_kernel = tools != 0;
}

void check_leave_kernel()
{
    if (!ck)
        return;
    ck->in_kernel = false;
    if (tools & CHECK_STATS) {
        fold_block(ck);
        std::lock_guard<std::mutex> lock(stats_mutex);
        gpulab_sim_kernel_stats &t = kernel_totals, &m = ck->counts;
        t.global_loads += m.global_loads;
        t.global_stores += m.global_stores;
        t.shared_loads += m.shared_loads;
        t.shared_stores += m.shared_stores;
        t.load_requests += m.load_requests;
        t.load_sectors += m.load_sectors;
        t.store_requests += m.store_requests;
        t.store_sectors += m.store_sectors;
        kernel_barriers += ck->barriers;
        ck->barriers = 0;
        m = gpulab_sim_kernel_stats{};
    }
}

void check_kernel_done(const char *kernel, const char *file, int line, unsigned long long threads)
{
    if (!(tools & CHECK_STATS))
        return;
    std::lock_guard<std::mutex> lock(stats_mutex);
    gpulab_sim_kernel_stats t = kernel_totals;
    t.threads = threads;
    last_kernel = t;
    last_barriers = kernel_barriers;
    last_every = kernel_every.exchange(1);
    have_last_kernel = true;
    kernel_totals = gpulab_sim_kernel_stats{};
    kernel_barriers = 0;
    if (!stats_print)
        return;
    double n = threads ? (double)threads : 1.0;
    check_line("gpulab-sim stats: kernel %s (launched at %s:%d), counted by the simulator", kernel,
               file, line);
    check_line("    %llu threads; global loads %llu (%.1f per thread), stores %llu (%.1f per "
               "thread); shared loads %llu, stores %llu",
               t.threads, t.global_loads, t.global_loads / n, t.global_stores, t.global_stores / n,
               t.shared_loads, t.shared_stores);
    check_line("    global load requests %llu: %llu sectors of 32 bytes (%.1f per request)",
               t.load_requests, t.load_sectors,
               t.load_requests ? (double)t.load_sectors / t.load_requests : 0.0);
    check_line("    global store requests %llu: %llu sectors of 32 bytes (%.1f per request)",
               t.store_requests, t.store_sectors,
               t.store_requests ? (double)t.store_sectors / t.store_requests : 0.0);
}

void check_begin_block()
{
    if (ck && (tools & CHECK_STATS))
        fold_block(ck);
    if (ck) {
        ck->block = block_serial++;
        ck->epoch = ck->block << 8;
    }
}

void check_barrier()
{
    if (ck) {
        ck->epoch++;
        ck->barriers++;
    }
}

bool check_counts_sample()
{
    return tools == CHECK_STATS && !stats_print;
}

bool check_block_counted(uint64_t b, uint64_t total)
{
    return stats_print || b % sample_every(total) == 0;
}

// The cells of the dynamic shared memory (nullptr when the checks keep none).
static race_cell *dynamic_cells()
{
    uintptr_t dyn = (uintptr_t)gpulab_sim_dynamic_shared;
    if (!ck || !tools || dyn < ck->tls_lo || dyn + ck->dynamic_shmem > ck->tls_hi ||
        dyn - ck->tls_lo + ck->dynamic_shmem > ck->cells.size())
        return nullptr;
    return &ck->cells[dyn - ck->tls_lo];
}

void check_save_block(check_block_state *out)
{
    if (!ck || !tools)
        return;
    if (tools & CHECK_STATS)
        fold_block(ck);
    out->block = ck->block;
    const unsigned char *w = (const unsigned char *)ck->window_cells.data();
    out->window_cells.assign(w, w + ck->window_cells.size() * sizeof(race_cell));
    const unsigned char *d = (const unsigned char *)dynamic_cells();
    if (d)
        out->dynamic_cells.assign(d, d + ck->dynamic_shmem * sizeof(race_cell));
}

void check_restore_block(const check_block_state &in)
{
    if (!ck || !tools)
        return;
    ck->block = in.block;
    ck->epoch = block_serial++ << 8;
    ck->window_cells.resize(in.window_cells.size() / sizeof(race_cell));
    if (!in.window_cells.empty())
        memcpy((void *)ck->window_cells.data(), in.window_cells.data(), in.window_cells.size());
    race_cell *d = dynamic_cells();
    if (d && in.dynamic_cells.size() == ck->dynamic_shmem * sizeof(race_cell))
        memcpy((void *)d, in.dynamic_cells.data(), in.dynamic_cells.size());
}

int check_sample_every()
{
    std::lock_guard<std::mutex> lock(stats_mutex);
    return (int)last_every;
}

bool check_last_counts(kernel_counts *out)
{
    *out = kernel_counts{};
    if (!(tools & CHECK_STATS))
        return false;
    std::lock_guard<std::mutex> lock(stats_mutex);
    if (!have_last_kernel)
        return false;
    const gpulab_sim_kernel_stats &t = last_kernel;
    out->counted = true;
    out->sample = (double)last_every;
    out->threads = (double)t.threads;
    out->load_requests = (double)t.load_requests;
    out->load_sectors = (double)t.load_sectors;
    out->store_requests = (double)t.store_requests;
    out->store_sectors = (double)t.store_sectors;
    out->global_accesses = (double)(t.global_loads + t.global_stores);
    out->shared_accesses = (double)(t.shared_loads + t.shared_stores);
    out->barriers = (double)last_barriers; // every block: barriers are cheap to count
    return true;
}

void check_warp_mask(unsigned mask, unsigned present, const char *file, int line)
{
    if (!(tools & CHECK_SYNC))
        return;
    check_count_error();
    char key[600];
    snprintf(key, sizeof(key), "divergent warp at %s:%d", file, line);
    if (!first_time(key))
        return;
    std::lock_guard<std::mutex> lock(out_mutex);
    check_line("Barrier error detected. Divergent thread(s) in warp");
    check_line("    at %s in %s:%d", ck ? ck->kernel : "?", file, line);
    by_thread_line();
    check_line("    mask 0x%08x, lanes that can arrive 0x%08x", mask, present);
}

} // namespace gpulab_sim

// ---------------------------------------------------------------------------
// The hooks GCC's -fsanitize=thread calls. Names and signatures are those of
// the TSan interface; nothing else of TSan is used.

using gpulab_sim::check_access;

extern "C" {

void __tsan_init(void)
{
    gpulab_sim::instrumented = true;
}
void __tsan_func_entry(void *) {}
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **, void *) {}
void __tsan_vptr_read(void **) {}

#define GPULAB_TSAN_RW(n)                                                                          \
    void __tsan_read##n(void *p)                                                                   \
    {                                                                                              \
        check_access(p, n, false, (uintptr_t)__builtin_return_address(0));                         \
    }                                                                                              \
    void __tsan_write##n(void *p)                                                                  \
    {                                                                                              \
        check_access(p, n, true, (uintptr_t)__builtin_return_address(0));                          \
    }                                                                                              \
    void __tsan_unaligned_read##n(void *p)                                                         \
    {                                                                                              \
        check_access(p, n, false, (uintptr_t)__builtin_return_address(0));                         \
    }                                                                                              \
    void __tsan_unaligned_write##n(void *p)                                                        \
    {                                                                                              \
        check_access(p, n, true, (uintptr_t)__builtin_return_address(0));                          \
    }
GPULAB_TSAN_RW(1)
GPULAB_TSAN_RW(2)
GPULAB_TSAN_RW(4)
GPULAB_TSAN_RW(8)
GPULAB_TSAN_RW(16)

void __tsan_read_range(void *p, unsigned long n)
{
    check_access(p, n, false, (uintptr_t)__builtin_return_address(0));
}
void __tsan_write_range(void *p, unsigned long n)
{
    check_access(p, n, true, (uintptr_t)__builtin_return_address(0));
}

// Atomics: checked as a read and a write of the location (no race reports
// between atomics), then done for real.
#define GPULAB_TSAN_ATOMIC(bits, T)                                                                \
    T __tsan_atomic##bits##_load(const volatile T *a, int)                                         \
    {                                                                                              \
        check_access((void *)a, sizeof(T), false, (uintptr_t)__builtin_return_address(0), true);   \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                               \
    }                                                                                              \
    void __tsan_atomic##bits##_store(volatile T *a, T v, int)                                      \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                  \
    }                                                                                              \
    GPULAB_TSAN_RMW(bits, T, exchange, __atomic_exchange_n)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_add, __atomic_fetch_add)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_and, __atomic_fetch_and)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_or, __atomic_fetch_or)                                          \
    GPULAB_TSAN_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                                      \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int, int)          \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);    \
    }                                                                                              \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int, int)            \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);     \
    }                                                                                              \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int, int)                \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
        return c;                                                                                  \
    }
#define GPULAB_TSAN_RMW(bits, T, name, op)                                                         \
    T __tsan_atomic##bits##_##name(volatile T *a, T v, int)                                        \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        return op(a, v, __ATOMIC_SEQ_CST);                                                         \
    }
GPULAB_TSAN_ATOMIC(8, unsigned char)
GPULAB_TSAN_ATOMIC(16, unsigned short)
GPULAB_TSAN_ATOMIC(32, unsigned int)
GPULAB_TSAN_ATOMIC(64, unsigned long long)

void __tsan_atomic_thread_fence(int)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

} // extern "C"

extern "C" int gpulab_sim_last_kernel_stats(struct gpulab_sim_kernel_stats *out)
{
    std::lock_guard<std::mutex> lock(gpulab_sim::stats_mutex);
    // Counts for the model alone (no GPULAB_SIM_STATS=1) may be a sample: not these.
    if (!out || !(gpulab_sim::tools & gpulab_sim::CHECK_STATS) || !gpulab_sim::stats_print ||
        !gpulab_sim::have_last_kernel)
        return -1;
    *out = gpulab_sim::last_kernel;
    return 0;
}
