// exec.hpp — the running of kernels, shared by the files that do it: one
// launch (job), the simulated threads of a block run as fibers (sim_thread),
// a worker's state, and the inline steps of a switch from one thread to the
// next. launch.cpp (launch and argument checks), pool.cpp (the worker pool),
// block.cpp (blocks as fibers), barrier.cpp (barriers and warp functions),
// grid.cpp (cooperative launches and grid.sync()), fault.cpp (kernels that
// stop: a fault, __trap, a failed assert).
#ifndef GPULAB_SIM_EXEC_HPP
#define GPULAB_SIM_EXEC_HPP

#include "fiber.hpp"
#include "internal.hpp"

#include <pthread.h>
#include <signal.h>

#include <csetjmp>
#include <cstring>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

// Defined in launch.cpp; the switch stores it (resume), so every file of the
// runtime that switches reaches it as the defining file does.
extern __thread uint3 threadIdx __attribute__((tls_model("local-exec")));

namespace gpulab_sim
{

// ---------------------------------------------------------------------------
// One launch being executed.

struct job {
    launch_request req; // strings are literals; pointers/task owned below
    std::vector<const void *> pointers;
    std::vector<bool> is_pointer;
    bool sync = true;         // run threads as fibers
    bool cooperative = false; // cudaLaunchCooperativeKernel: grid.sync() may be used
    int device = 0;           // the simulated device it runs on
    uint64_t total_blocks = 0;
    uint64_t chunk = 1; // blocks a worker claims at a time (see run_kernel)
    // Claimed by every worker: on a cache line of its own.
    alignas(64) std::atomic<uint64_t> next_block{ 0 };
    char pad[64 - sizeof(std::atomic<uint64_t>)];
    std::atomic<int> error{ cudaSuccess };
    std::atomic<bool> check_failed{ false }; // the check mode stopped a thread
    const kernel_ops *plain = nullptr;       // the twin's plain copy (plain_copy.cpp)
    std::atomic<uint64_t> plain_blocks{ 0 }; // blocks that ran it
    std::mutex report_mutex;
    // A launch of a graph's kernel node runs the node's arguments again: it
    // keeps the job that owns them (the one made when the node was captured).
    std::shared_ptr<job> owner;
    ~job()
    {
        if (!owner)
            req.ops->destroy(req.task);
    }
};

// States of a simulated thread run as a fiber.
// AT_GROUP: at coalesced_threads(); AT_GRID: at grid.sync() (see the cooperative
// groups section at the end).
enum thread_state : unsigned char { RUNNABLE, AT_BARRIER, AT_WARP, EXITED, AT_GROUP, AT_GRID };

// A warp function's operation, width (1 to 32) and argument in one word: the
// lanes of a group that agree on it are resolved together the fast way.
inline unsigned long long warp_sig(warp_op op, int width, int arg)
{
    return (unsigned)op | (unsigned)width << 8 | (unsigned long long)(unsigned)arg << 32;
}
inline warp_op sig_op(unsigned long long sig)
{
    return (warp_op)(sig & 0xff);
}
inline int sig_width(unsigned long long sig)
{
    return (int)(sig >> 8 & 0xff);
}
inline int sig_arg(unsigned long long sig)
{
    return (int)(unsigned)(sig >> 32);
}

// One cache line per thread: what a switch, a barrier and a warp function
// touch of it.
struct alignas(64) sim_thread {
    fiber_context ctx;
    const char *file; // where it waits (barrier or warp function)
    // Warp functions: this lane's value, its result, its warp_sig and mask.
    unsigned long long value, result, sig;
    uint3 tid;
    int line;
    unsigned mask;
    thread_state state;
    // The barrier generation it arrived in. A released thread is at most one
    // generation behind: no barrier is released before it arrives again.
    unsigned char gen;
    // Its fiber runs a thread's kernel (1) or is between threads (0): what
    // gpulab_sim_fiber_step does next.
    unsigned char phase;
};

// Per warp of the running block.
struct alignas(32) warp_slot {
    unsigned waiting = 0;       // lanes at a warp function
    unsigned present = 0;       // lanes that exist and have not exited
    unsigned long long sig = 0; // the warp_sig of the first of the waiting lanes
    bool mixed = false;         // waiting lanes may differ in their warp_sig
};

// Per worker thread: what it is running now. Fibers switch directly from one
// to the next runnable one; the scheduler (the worker's own stack) only
// starts a block and takes over when no thread can run: the block is done,
// stopped, or stuck.
struct worker_state {
    // The hot part: what every barrier, warp function and switch reads.
    sim_thread *cur = nullptr;            // the running fiber's thread
    sim_thread *end = nullptr;            // past the block's last thread
    size_t live = 0;                      // threads of the block that have not exited
    size_t barrier_left = 0;              // of them, those that have not arrived at the barrier
    unsigned char barrier_gen = 0;        // barriers released so far (modulo 256)
    unsigned short released_wait = 0;     // wait_word of a thread the last release freed
    int barrier_line = 0;                 // the barrier the first arrival waits at
    const char *barrier_file = nullptr;   // (null: no thread waits at a barrier)
    bool barrier_divergent = false;       // an arrival waits at another barrier
    unsigned tools = 0;                   // check_tools(), read when a kernel starts on this worker
    void (*run_thread)(void *) = nullptr; // the kernel's thread function, and its task
    void *task = nullptr;
    job *current = nullptr;
    // The code the current block runs: current->req.ops, or its plain copy.
    const kernel_ops *ops = nullptr;
    bool in_kernel = false; // a fault now belongs to the kernel
    bool fibers = false;    // the current block runs as fibers
    sigjmp_buf escape;      // where a fault of the current block lands
    std::vector<sim_thread> threads;
    size_t n = 0;                 // threads in the block
    dim3 tid_dim = dim3(0, 0, 0); // the block shape the threads' tid fields are for
    size_t exited = 0;
    int barrier_count = 0;   // sum of __syncthreads_count predicates
    int barrier_result = 0;  // __syncthreads_count of the last one released
    size_t parked = 0;       // fibers 0..parked-1 wait, parked, for their next thread
    bool fiber_lost = false; // a fiber of this block was stopped mid-kernel
    std::vector<warp_slot> warps;
    fiber_context scheduler;
    std::unique_ptr<stack_pool> stacks;
    std::vector<char> altstack;
    uintptr_t fault_addr = 0;
    uintptr_t fault_pc = 0; // the faulting instruction, when the platform says
    int fault_write = -1;   // 1 a write, 0 a read, -1 not known
    uintptr_t fault_sp = 0; // the stack pointer then (0: not known)
    // For the watchdog (watchdog.cpp): the worker's thread, the block it runs
    // as fibers, and the place its running thread was found at.
    pthread_t thread;
    uint3 block = { 0, 0, 0 };
    std::atomic<uintptr_t> sampled_pc{ 0 };
};

// Plain pointer in TLS: no per-access initialization check (pool.cpp). The
// runtime is linked into programs, never into a shared library: the
// local-exec model makes each access one instruction, as in the file that
// defines it.
extern __thread worker_state *worker_tls __attribute__((tls_model("local-exec")));
// The same, but only while the worker runs a block as fibers (else null): the
// one test barriers and warp functions make before their fast path.
extern __thread worker_state *fiber_tls __attribute__((tls_model("local-exec")));

inline worker_state &self()
{
    return *worker_tls;
}

// The job the calling worker runs, or null (pool.cpp).
job *current_job();
// Runs the kernel of jp on the worker pool, on the executor thread of its
// stream; returns the error it stopped with (pool.cpp).
cudaError_t run_kernel(const std::shared_ptr<job> &jp);
// GPULAB_SIM_STACK_KB, the stack of each simulated thread run as a fiber.
size_t stack_size_setting();
// Gives the calling thread a worker_state, once.
void prepare_worker();
// Watches worker w for a block that stops making progress (watchdog.cpp).
void watchdog_register(worker_state *w);
// Installs handler (SA_SIGINFO, on the alternate stack, with `flags`) for sig (fault.cpp).
void install_signal(int sig, void (*handler)(int, siginfo_t *, void *), int flags);

// Report helpers (fault.cpp): "(x,y,z)"; "kernel k (launched at f:l)"; the
// job's first error wins.
void fmt_dim(char *buf, size_t n, uint3 v);
const char *where_line(const job *j, char *buf, size_t n);
void set_error(job *j, cudaError_t e);
// Stops the block on this worker, and the rest of the kernel, with error e.
[[noreturn]] void abort_block(cudaError_t e);
// The report of a fault in a kernel (the worker's fault_addr and fault_pc).
void report_fault(job *j);
// "__syncthreads at f:l" (or the warp function, coalesced_threads(),
// grid.sync()) for a thread that waits (block.cpp).
void wait_place(const sim_thread &t, char *buf, size_t n);

// ---------------------------------------------------------------------------
// Blocks as fibers: the steps of a switch, inlined where barriers and warp
// functions use them.

// A thread's state and barrier generation as one 16-bit word.
static_assert(offsetof(sim_thread, gen) == offsetof(sim_thread, state) + 1, "state, gen adjacent");
inline unsigned short wait_word(const sim_thread &t)
{
    unsigned short v;
    memcpy(&v, reinterpret_cast<const char *>(&t) + offsetof(sim_thread, state), sizeof(v));
    return v;
}

// The wait_word of a thread that waited at the barrier last released.
inline unsigned short released_word(unsigned char barrier_gen)
{
    unsigned char pair[2] = { AT_BARRIER, (unsigned char)(barrier_gen - 1) };
    unsigned short v;
    memcpy(&v, pair, sizeof(v));
    return v;
}

// Whether a thread can run: runnable, or waiting at a barrier since released.
// A released thread keeps its state until it waits again: releasing a barrier
// is one increment of the generation.
inline bool can_run(const worker_state &w, const sim_thread &t)
{
    return t.state == RUNNABLE || (t.state == AT_BARRIER && t.gen != w.barrier_gen);
}

// Makes t the running thread and switches to it from `from`; the switch that
// suspended t returns t's warp result there (see fiber_switch).
inline __attribute__((always_inline)) unsigned long long resume(worker_state *w,
                                                                fiber_context *from, sim_thread *t)
{
    w->cur = t;
    threadIdx = t->tid;
    if (&t->ctx == from) // the running thread itself goes on without a switch
        return t->result;
    return fiber_switch(from, &t->ctx, t->result);
}

// Switches from the running fiber (saved in *from) to the next thread that
// can run, searching round-robin from `start`; to the scheduler when none can
// (barrier.cpp).
__attribute__((noinline)) unsigned long long run_next_search(worker_state *w, fiber_context *from,
                                                             sim_thread *start);

// Goes on with `start` when it can run (the usual case), else searches. The
// block's end never runs: a search from there starts at the first thread.
inline __attribute__((always_inline)) unsigned long long
run_next(worker_state *w, fiber_context *from, sim_thread *start)
{
    if (can_run(*w, *start))
        return resume(w, from, start);
    return run_next_search(w, from, start);
}

inline unsigned lanes_in_warp(size_t n, size_t warp)
{
    size_t first = warp * 32;
    size_t count = n - first < 32 ? n - first : 32;
    return count == 32 ? 0xffffffffu : ((1u << count) - 1u);
}

// If every lane that lane's mask names has arrived (or exited), computes the
// results of the group and makes it runnable; returns the group (0 if not yet)
// (barrier.cpp).
unsigned try_resolve_warp(size_t warp, int lane);
// Every live thread waits at a barrier: releases them. Returns false (the
// barrier is divergent: they wait at different ones) without releasing.
bool release_barrier();
// Lanes of a warp that waited only for a lane that has exited go on.
__attribute__((noinline)) void resolve_after_exit(worker_state &w, size_t warp);

// Thread t has exited (or was stopped): from now on it counts as arrived at
// every barrier and warp function; those that waited only for it go on.
inline void thread_exited(worker_state &w, sim_thread *t)
{
    t->state = EXITED;
    w.exited++;
    w.live--;
    size_t i = (size_t)(t - w.threads.data()), warp = i / 32;
    w.warps[warp].present &= ~(1u << (i % 32));
    if (w.warps[warp].waiting)
        resolve_after_exit(w, warp);
    if (--w.barrier_left == 0 && w.live > 0) // the others all wait at a barrier
        release_barrier();
}

#if !defined(GPULAB_SIM_FIBER_UCONTEXT) && defined(__x86_64__)
// x86-64: a fiber runs gpulab_sim_fiber_loop (fiber_x86_64.S), which calls
// gpulab_sim_fiber_step (block.cpp) for what to call next, and calls it from
// one place: the thread's kernel, or gpulab_sim_fiber_exit_swap, which hands
// over to the next thread (t + 1) when the thread has exited. Both calls
// return to the same address, so the return of the kernel of the thread the
// exit handed over to is predicted (fiber_x86_64.S).
#define GPULAB_SIM_FIBER_LOOP 1
struct fiber_step_result {
    void (*fn)(void *);
    void *arg;
};
extern "C" void gpulab_sim_fiber_loop(void *thread);
extern "C" void gpulab_sim_fiber_exit_swap(void *thread);
#endif

// block.cpp: runs the block's fibers until no thread can run; runs a block
// (blockIdx set) as fibers; reports a block whose threads can never go on.
void drive_block(job *j);
void run_block_fibers(job *j);
void report_deadlock(job *j);
// barrier.cpp: the running fiber's thread, or a report and a stop when the
// kernel does not run as fibers.
[[noreturn]] __attribute__((noinline)) void not_in_fibers(const char *what, const char *file,
                                                          int line);
// Whether two threads wait at the same place (coalesced_threads()).
inline bool same_place(const sim_thread &a, const sim_thread &b)
{
    return a.line == b.line && (a.file == b.file || strcmp(a.file, b.file) == 0);
}
// No thread of the block can run: the lanes at each coalesced_threads() call
// form their group and go on. Returns whether any did (barrier.cpp).
bool release_idle_groups(worker_state &w);
// grid.cpp: every live thread of the block waits at grid.sync(); one worker
// runs a whole cooperative grid.
bool waits_at_grid(const worker_state &w);
void run_cooperative(job *j);

} // namespace gpulab_sim

#endif
