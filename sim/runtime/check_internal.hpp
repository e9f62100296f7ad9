// check_internal.hpp — what the files of the check mode share (see check.cpp
// for how it works): check.cpp (settings, the twin, reports, the calls from
// the rest of the runtime), check_tsan.cpp (the -fsanitize=thread hooks every
// access goes through), memcheck.cpp, racecheck.cpp, initcheck.cpp,
// synccheck.cpp, and check_counts.cpp (access counts for GPULAB_SIM_STATS and
// the performance model).
#ifndef GPULAB_SIM_CHECK_INTERNAL_HPP
#define GPULAB_SIM_CHECK_INTERNAL_HPP

#include "check.hpp"
#include "internal.hpp"
#include "shared.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpulab_sim/stats.h"

// The dynamic shared memory of the running block (launch.cpp).
extern "C" __thread unsigned char gpulab_sim_dynamic_shared[];

namespace gpulab_sim
{
namespace checks
{

// check.cpp: set by __tsan_init, from an instrumented file's constructor; the
// tools on; errors so far; one report at a time.
extern bool instrumented;
extern unsigned tools;
extern std::atomic<long> error_count;
extern std::mutex out_mutex;
// The program's image (its __device__ and __constant__ variables).
extern uintptr_t image_lo, image_hi, load_bias;
// The name of the __constant__ variable that holds address a, or null
// (gpulab_sim_register_constant, memcheck.cpp).
const char *constant_at(uintptr_t a);

// ---------------------------------------------------------------------------
// Device memory's allocation records and granule map (memcheck.cpp).

struct alloc_rec {
    uintptr_t base;
    size_t size;
    bool freed;
    bool managed;
    int device;
    const char *api;
    alloc_site site;
    const char *freed_by; // the call that freed it (cudaFree, cudaFreeAsync, ...)
};

// Allocation records by id, in a table that never moves (so kernels read it
// without a lock); records are only appended. Id 0 is "none".
constexpr size_t max_allocs = (size_t)1 << 22;
extern std::mutex alloc_mutex;
extern alloc_rec *alloc_table;
extern std::atomic<uint32_t> alloc_count;
constexpr int granule_shift = 8; // 256 bytes, cudaMalloc's alignment
struct device_shadow {
    uintptr_t base = 0;
    size_t size = 0;
    uint32_t *granule = nullptr; // allocation id per granule
    uint8_t *init = nullptr;     // one bit per byte: written
};
extern device_shadow shadows[16];
extern uintptr_t arenas_lo, arenas_hi; // span of every device's memory
extern int shadow_count;

// Fresh zeroed pages, reserved without swap (nullptr if none).
void *reserve(size_t bytes);

inline device_shadow *shadow_for(uintptr_t a)
{
    if (a < arenas_lo || a >= arenas_hi)
        return nullptr;
    for (int i = 0; i < shadow_count; i++)
        if (a >= shadows[i].base && a < shadows[i].base + shadows[i].size)
            return &shadows[i];
    return nullptr;
}

// Initialization bits (initcheck.cpp).
void set_init(device_shadow *s, uintptr_t a, size_t n, bool on);
bool all_init(const device_shadow *s, uintptr_t a, size_t n);
// Reports an uninitialized read of global memory at a (size bytes), or of
// shared memory, once per place.
void uninit_global_read(uintptr_t a, size_t size, uintptr_t pc);
void uninit_shared_read(size_t size, uintptr_t pc);

// file:line of the kernel code at pc (check.cpp).
std::string location(uintptr_t pc);

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
    // Shared accesses of the blocks whose bank wavefronts are counted (the
    // model counts them in a sub-sample of its sample, check_counts.cpp).
    unsigned long long bank_accesses = 0;
    std::unordered_map<uint64_t, uint32_t> executions; // (pc, thread) -> times run
    std::unordered_map<uint64_t, std::vector<std::vector<uint64_t>>> requests[2]; // load, store
    // Shared memory: per (instruction, warp), the words of its k-th execution.
    std::unordered_map<uint64_t, std::vector<std::vector<uint32_t>>> shared_words;
    // The static __shared__ variables those blocks touched (the kernel's
    // static shared memory, for the occupancy `gpulab ncu` reports).
    std::vector<const shared_site *> sites;
};

// The calling worker's checker (nullptr until it ran a kernel). The runtime is
// linked into programs only: one instruction per access, as in check.cpp.
extern __thread checker *ck __attribute__((tls_model("local-exec")));
extern std::atomic<uint32_t> block_serial;
checker *this_checker();

// Reports are grouped by what and where: whether this is the first of its key.
bool first_time(const std::string &key);
// "    by thread (x,y,z) in block (x,y,z)".
void by_thread_line();

// ---------------------------------------------------------------------------
// The checks

enum space { GLOBAL, SHARED, LOCAL };

// An invalid access, reported (memcheck.cpp); the thread stops.
[[noreturn]] void invalid(space sp, bool write, size_t size, uintptr_t a, uintptr_t pc,
                          const char *why);
// An access to global memory (memcheck.cpp).
void check_global(uintptr_t a, size_t size, bool write, uintptr_t pc, device_shadow *s);
// An access to shared memory: static __shared__ variables when sp says where
// (the worker's window, see shared.cpp), else the TLS block (racecheck.cpp).
void check_shared(uintptr_t a, size_t size, bool write, uintptr_t pc, bool atomic,
                  const shared_place *sp = nullptr);
// The leak check, at exit with the program's exit status (memcheck.cpp).
void leak_check(int status);

// Access counts (check_counts.cpp): GPULAB_SIM_STATS=1 prints each kernel's.
extern bool stats_print;
void count_access(checker *c, bool global, bool write, uintptr_t a, size_t size, uintptr_t pc);
void fold_block(checker *c);

} // namespace checks
} // namespace gpulab_sim

#endif
