// check.hpp — the simulator's check mode (GPULAB_SIM_CHECK): what the rest of
// the runtime tells it, and what it asks of the launch code. See check.cpp.
#ifndef GPULAB_SIM_CHECK_HPP
#define GPULAB_SIM_CHECK_HPP

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpulab_sim
{

enum check_tool : unsigned {
    CHECK_MEM = 1,   // memcheck
    CHECK_RACE = 2,  // racecheck
    CHECK_SYNC = 4,  // synccheck
    CHECK_INIT = 8,  // initcheck
    CHECK_STATS = 16 // access counts (GPULAB_SIM_STATS=1)
};

// Tools switched on for this run (0: none, or a build without instrumented kernels).
unsigned check_tools();

// Prints one line of a report, prefixed "========= " like compute-sanitizer.
void check_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// Counts one more error for the ERROR SUMMARY.
void check_count_error();
// Counts a launch of a kernel compiled without the check's hooks (an error:
// the run was not checked; its exit status is then never 0).
void check_count_unchecked_kernel();
// Before an error report's first line: false when the print limit
// (GPULAB_SIM_CHECK_PRINT_LIMIT, `gpulab sanitizer --print-limit`) has been
// reached, and the report is left out (the error still counts).
bool check_report_begin();

// Where an allocation was made: the cudaMalloc call in the program's source
// (all null when the call did not go through cuda_runtime.h's macros).
struct alloc_site {
    const char *file = nullptr;
    int line = 0;
    const char *function = nullptr;
};

// Memory bookkeeping from memory.cpp.
void check_alloc(uintptr_t base, size_t size, int device, bool managed, const char *api,
                 const alloc_site &site);
void check_free(uintptr_t base, size_t size, const char *by); // by: the freeing call
void check_mark_init(const void *p, size_t n);                // written by a copy or a set
void check_arena(int device, uintptr_t base, size_t size);    // a device's memory, once mapped

// From pool.cpp and grid.cpp, on the worker thread running a kernel:
struct check_kernel_info {
    const char *kernel;   // name
    size_t dynamic_shmem; // bytes of dynamic shared memory of the launch
    const void *task;     // the launch's copy of the arguments, which the kernel reads
    size_t task_size;
};
void check_enter_kernel(const check_kernel_info &k); // before its first block on this worker
void check_leave_kernel();
// On the executor, when every block of a kernel has run: prints its counts.
void check_kernel_done(const char *kernel, const char *file, int line, unsigned long long threads);
void check_begin_block(); // shared memory is fresh (uninitialized, no accesses yet)
void check_barrier();     // a barrier of the running block was released
// A block of a cooperative grid stops at grid.sync() while others run on
// this worker: what the checks know of its shared memory, saved and put back
// (the resumed block gets a new epoch: grid.sync() is a barrier).
struct check_block_state {
    uint32_t block = 0;
    std::vector<unsigned char> window_cells, dynamic_cells; // the cells, as bytes
};
void check_save_block(check_block_state *out);
void check_restore_block(const check_block_state &in);

// For the performance model (model.cpp): the counts of the last kernel that
// finished (out->sample: 1 in how many blocks were counted, from block 0 on;
// the counts are those blocks' only); false (and zeros) when counting is
// off. And the sampling of the last kernel (1: every block).
struct kernel_counts;
bool check_last_counts(kernel_counts *out);
int check_sample_every();
// Whether the counts are the model's alone (no check tool, no
// GPULAB_SIM_STATS=1), so that a large grid's counts come from a sample; and
// whether block b (linear index) of a grid of `total` blocks is in it.
bool check_counts_sample();
bool check_block_counted(uint64_t b, uint64_t total);
// Reports a warp function whose mask is wrong (synccheck).
void check_warp_mask(unsigned mask, unsigned arrived_or_exited, const char *file, int line);
// Reports an integer division in a kernel by zero (or of the most negative
// value by -1) at pc, which a GPU does not trap on (check mode, any tool).
void check_integer_division(uintptr_t pc, bool by_zero, bool is_signed, int bits);
// Why a shuffle's source lane was outside the group that ran it.
enum shfl_lane_why { SHFL_LANE_ABSENT, SHFL_LANE_EXITED, SHFL_LANE_NOT_IN_MASK };
// Reports a shuffle whose lane `lane` (thread tid) read lane `src`, outside
// its group (synccheck): CUDA leaves that value undefined. `exist`: the lanes
// the block has in that warp; `group`: the lanes that ran the shuffle.
void check_shfl_outside(const char *file, int line, uint3 tid, int lane, int src, shfl_lane_why why,
                        unsigned exist, unsigned group);

// Provided by block.cpp: stops the running simulated thread for good (its
// access is not performed); the kernel fails with cudaErrorLaunchFailure.
[[noreturn]] void check_stop_thread();
// The running thread's index in its block (x fastest), for racecheck.
size_t check_thread_index();

} // namespace gpulab_sim

#endif
