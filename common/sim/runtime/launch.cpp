// launch.cpp — running kernels: launch checks, the worker pool, blocks as
// plain loops or as fibers, barriers, warp functions, and kernels that stop
// (a failed assert, __trap, a fault, a divergent barrier).
#include "check.hpp"
#include "fiber.hpp"
#include "internal.hpp"
#include "model.hpp"
#include "plain_copy.hpp"
#include "shared.hpp"

#include <cooperative_groups.h>
#include <dlfcn.h>
#include <ucontext.h>

#include <csetjmp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <condition_variable>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

__thread uint3 threadIdx;
__thread uint3 blockIdx;
__thread dim3 blockDim;
__thread dim3 gridDim;

// Dynamic shared memory (`extern __shared__ T s[];`): the launch rewriter
// binds such declarations to this per-worker buffer. A worker runs one block
// at a time, so it is per block.
constexpr size_t dynamic_shared_max = 100 * 1024;
extern "C" {
__thread unsigned char gpulab_sim_dynamic_shared[dynamic_shared_max] __attribute__((aligned(16)));
}

namespace gpulab_sim
{
namespace
{

// ---------------------------------------------------------------------------
// Kernel traits registry

std::mutex traits_mutex;
std::map<const void *, int> &traits()
{
    static std::map<const void *, int> t;
    return t;
}

// Kernel names by address, for launches that do not carry one (cooperative).
std::map<const void *, const char *> &kernel_names()
{
    static std::map<const void *, const char *> n;
    return n;
}

// ---------------------------------------------------------------------------
// One launch being executed.

struct job {
    launch_request req; // strings are literals; pointers/task owned below
    std::vector<const void *> pointers;
    std::vector<bool> is_pointer;
    bool sync = true;         // run threads as fibers
    bool cooperative = false; // cudaLaunchCooperativeKernel: grid.sync() may be used
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
    ~job()
    {
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
};

// Plain pointer in TLS: no per-access initialization check.
__thread worker_state *worker_tls = nullptr;
// The same, but only while the worker runs a block as fibers (else null): the
// one test barriers and warp functions make before their fast path.
__thread worker_state *fiber_tls = nullptr;

inline worker_state &self()
{
    return *worker_tls;
}

job *current_job()
{
    return worker_tls ? worker_tls->current : nullptr;
}

size_t stack_size_setting()
{
    const char *s = getenv("GPULAB_SIM_STACK_KB");
    long kb = s ? strtol(s, nullptr, 10) : 0;
    return (size_t)(kb >= 16 && kb <= 65536 ? kb : 64) * 1024;
}

void fmt_dim(char *buf, size_t n, uint3 v)
{
    snprintf(buf, n, "(%u,%u,%u)", v.x, v.y, v.z);
}

// Names argument i of a launch from the text of its arguments ("d_a, h_b, n").
std::string arg_name(const char *text, int i)
{
    std::string s = text ? text : "";
    int depth = 0, idx = 0;
    size_t start = 0;
    for (size_t k = 0; k <= s.size(); k++) {
        char c = k < s.size() ? s[k] : ',';
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (c == ',' && depth == 0) {
            if (idx == i) {
                std::string a = s.substr(start, k - start);
                size_t b = a.find_first_not_of(" \t\n"), e = a.find_last_not_of(" \t\n");
                return b == std::string::npos ? "?" : a.substr(b, e - b + 1);
            }
            idx++;
            start = k + 1;
        }
    }
    return "?";
}

const char *where_line(const job *j, char *buf, size_t n)
{
    snprintf(buf, n, "kernel %s (launched at %s:%d)", j->req.kernel_name, j->req.file, j->req.line);
    return buf;
}

void set_error(job *j, cudaError_t e)
{
    int expected = cudaSuccess;
    j->error.compare_exchange_strong(expected, (int)e);
}

// Stops the block on this worker, and the rest of the kernel, with error e.
[[noreturn]] void abort_block(cudaError_t e)
{
    worker_state &w = self();
    set_error(w.current, e);
    if (w.fibers) {
        // Leave the fiber for good: the scheduler sees the error and stops.
        fiber_context dead;
        fiber_switch(&dead, &w.scheduler);
    }
    siglongjmp(w.escape, 1);
}

// ---------------------------------------------------------------------------
// Faults: a kernel that dereferences a wild pointer lands here, and so does
// host code that touches device memory (protect.cpp).

void on_fault(int sig, siginfo_t *info, void *uctx)
{
    if (!worker_tls || !worker_tls->in_kernel) {
        uintptr_t pc = 0;
        int write = -1;
#if defined(__x86_64__) && defined(REG_RIP)
        const ucontext_t *uc = static_cast<const ucontext_t *>(uctx);
        pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
        write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#elif defined(__aarch64__)
        pc = (uintptr_t) static_cast<const ucontext_t *>(uctx)->uc_mcontext.pc;
#endif
        host_fault((uintptr_t)info->si_addr, pc, write); // ends the program if it was that
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    worker_tls->fault_addr = (uintptr_t)info->si_addr;
    worker_tls->fault_pc = 0;
    worker_tls->fault_write = -1;
#if defined(__x86_64__) && defined(REG_RIP)
    const ucontext_t *uc = static_cast<const ucontext_t *>(uctx);
    worker_tls->fault_pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    worker_tls->fault_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0; // page fault: W bit
#elif defined(__aarch64__)
    worker_tls->fault_pc = (uintptr_t) static_cast<const ucontext_t *>(uctx)->uc_mcontext.pc;
#endif
    worker_tls->in_kernel = false;
    // The block runner saves no signal mask (that is a system call per block):
    // restore here the mask that returning from the handler would have.
    pthread_sigmask(SIG_SETMASK, &static_cast<const ucontext_t *>(uctx)->uc_sigmask, nullptr);
    siglongjmp(worker_tls->escape, 2);
}

} // namespace

void install_fault_handler()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, nullptr);
        sigaction(SIGBUS, &sa, nullptr);
    });
}

namespace
{

// Never freed: a worker's state lives as long as its thread.
void prepare_worker()
{
    if (worker_tls)
        return;
    worker_state *w = new worker_state;
    w->altstack.resize(64 * 1024);
    stack_t ss;
    memset(&ss, 0, sizeof(ss));
    ss.ss_sp = w->altstack.data();
    ss.ss_size = w->altstack.size();
    sigaltstack(&ss, nullptr);
    w->stacks.reset(new stack_pool(stack_size_setting()));
    // Never resized (parked fibers point into it); one more than a block has
    // threads: the one past the block's last is a thread that never runs.
    w->threads.resize(1025);
    worker_tls = w;
}

// The .cu file a rewritten file stands for: addr2line reading DWARF 5 can name
// the rewritten "<dir>/x.cu.cpp" where its #line directives say "x.cu". The
// original is one of `known` (same name plus ".cpp"), or the one the rewritten
// file's first line names.
std::string original_file(const std::string &file, std::initializer_list<const char *> known)
{
    size_t n = file.size();
    if (n < 4 || file.compare(n - 4, 4, ".cpp") != 0)
        return file;
    std::string base = file.substr(0, n - 4);
    base = base.substr(base.find_last_of('/') + 1);
    for (const char *k : known) {
        std::string kb = k ? k : "";
        if (!kb.empty() && kb.substr(kb.find_last_of('/') + 1) == base)
            return kb;
    }
    std::string out = file;
    if (FILE *f = fopen(file.c_str(), "r")) {
        char first[4200];
        if (fgets(first, sizeof(first), f) && strncmp(first, "#line 1 \"", 9) == 0) {
            char *end = strrchr(first + 9, '"');
            if (end)
                out.assign(first + 9, end);
        }
        fclose(f);
    }
    return out;
}

} // namespace

// " at file:line" of the instruction at pc, when the program has line
// information (-g) and addr2line is there; else "".
std::string source_line(uintptr_t pc, std::initializer_list<const char *> known)
{
    Dl_info info;
    if (!pc || !dladdr((void *)pc, &info) || !info.dli_fname || strchr(info.dli_fname, '\''))
        return "";
    char cmd[4600];
    snprintf(cmd, sizeof(cmd), "addr2line -i -e '%s' 0x%lx 2>/dev/null", info.dli_fname,
             (unsigned long)(pc - (uintptr_t)info.dli_fbase));
    std::string where;
    if (FILE *p = popen(cmd, "r")) {
        char line[1024];
        if (fgets(line, sizeof(line), p)) {
            line[strcspn(line, "\n")] = '\0';
            if (char *disc = strstr(line, " (discriminator"))
                *disc = '\0';
            char *colon = strrchr(line, ':');
            if (line[0] != '?' && colon && colon[1] != '?' && strcmp(colon, ":0") != 0)
                where = " at " + original_file(std::string(line, colon), known) + colon;
        }
        while (fgets(line, sizeof(line), p))
            ;
        pclose(p);
    }
    return where;
}

namespace
{

// A fault in the worker's static shared-memory window: an index past the end
// (or before the start) of a __shared__ array. Returns false for other faults.
bool report_shared_fault(job *j, const char *t, const char *b)
{
    worker_state &w = self();
    shared_place p;
    if (!static_shared_find(w.fault_addr, &p))
        return false;
    char where[512], what[512];
    static_shared_describe(w.fault_addr, 1, p, what, sizeof(what));
    std::string line = source_line(w.fault_pc, { p.site ? p.site->file : nullptr, j->req.file });
    report("%s: thread %s of block %s %s %p%s, which %s: a block has no shared memory there. The "
           "kernel stops with cudaErrorIllegalAddress, which is sticky until cudaDeviceReset. "
           "Check the index against the array's size (more threads than elements?)%s",
           where_line(j, where, sizeof(where)), t, b,
           w.fault_write == 1   ? "wrote"
           : w.fault_write == 0 ? "read"
                                : "accessed",
           (void *)w.fault_addr, line.c_str(), what,
           line.empty() ? "; GPULAB_SIM_CHECK=memcheck names the line of the access" : "");
    return true;
}

void report_fault(job *j)
{
    worker_state &w = self();
    char where[512], b[32], t[32];
    fmt_dim(b, sizeof(b), blockIdx);
    fmt_dim(t, sizeof(t), w.fibers && w.cur ? w.cur->tid : threadIdx);
    if (report_shared_fault(j, t, b))
        return;
    const char *why = "an address that is not mapped";
    if (w.stacks && w.stacks->in_guard((void *)w.fault_addr))
        why = "the guard page below its stack (too much local memory or deep recursion; raise "
              "GPULAB_SIM_STACK_KB)";
    report("%s: thread %s of block %s accessed %p, %s. The kernel stops with "
           "cudaErrorIllegalAddress, which is sticky until cudaDeviceReset",
           where_line(j, where, sizeof(where)), t, b, (void *)w.fault_addr, why);
}

// ---------------------------------------------------------------------------
// Blocks as fibers.

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
// can run, searching round-robin from `start`; to the scheduler when none can.
__attribute__((noinline)) unsigned long long run_next_search(worker_state *w, fiber_context *from,
                                                             sim_thread *start)
{
    sim_thread *first = w->threads.data();
    size_t n = w->n, s = (size_t)(start - first);
    for (size_t k = 0; k < n; k++) {
        sim_thread *t = first + (s + k < n ? s + k : s + k - n);
        if (can_run(*w, *t))
            return resume(w, from, t);
    }
    return fiber_switch(from, &w->scheduler);
}

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

// The lane a shuffle of lane `lane` reads, by CUDA's rules for its op.
inline __attribute__((always_inline)) int shfl_source(warp_op op, int width, int arg, int lane)
{
    int seg = (width & (width - 1)) == 0 ? lane & -width : lane / width * width;
    switch (op) {
    case SHFL_IDX:
        return seg + (arg & (width - 1));
    case SHFL_UP:
        return lane - arg < seg ? lane : lane - arg;
    case SHFL_DOWN:
        return lane + arg >= seg + width ? lane : lane + arg;
    default: {
        int src = lane ^ arg;
        return src < seg || src >= seg + width ? lane : src;
    }
    }
}

// The results of a group of lanes t[...] that all run shuffle `op` with the
// same width and argument: the usual case, with the op's rule known.
template <warp_op op>
void shuffle_group(sim_thread *t, unsigned group, int width, int arg)
{
    for (unsigned g = group; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        int src = shfl_source(op, width, arg, l);
        t[l].result = (group >> src) & 1u ? t[src].value : t[l].value;
        t[l].state = RUNNABLE;
    }
}

// If every lane that lane's mask names has arrived (or exited), computes the
// results of the group and makes it runnable; returns the group (0 if not yet).
unsigned try_resolve_warp(size_t warp, int lane)
{
    worker_state &w = self();
    sim_thread *t = &w.threads[warp * 32];
    warp_slot &ws = w.warps[warp];
    unsigned present = ws.present;
    unsigned want = t[lane].mask & present;
    if (want & ~ws.waiting)
        return 0;                // someone has not arrived yet
    if (t[lane].mask & ~present) // lanes named that never arrive
        check_warp_mask(t[lane].mask, present, t[lane].file, t[lane].line);
    // One pass: a shuffle's result depends only on the values; a vote needs
    // the ballot of the whole group, so votes get theirs in two more passes.
    unsigned group = want, ballot = 0;
    bool votes = false;
    warp_op op = sig_op(ws.sig);
    int width = sig_width(ws.sig), arg = sig_arg(ws.sig);
    if (!ws.mixed && op == SHFL_DOWN && (width & (width - 1)) == 0) {
        shuffle_group<SHFL_DOWN>(t, group, width, arg);
    } else if (!ws.mixed && op == SHFL_XOR && (width & (width - 1)) == 0) {
        shuffle_group<SHFL_XOR>(t, group, width, arg);
    } else {
        for (unsigned g = group; g; g &= g - 1) {
            int l = __builtin_ctz(g);
            sim_thread &x = t[l];
            x.state = RUNNABLE;
            op = sig_op(x.sig);
            if (op <= SHFL_XOR) {
                int src = shfl_source(op, sig_width(x.sig), sig_arg(x.sig), l);
                x.result = (group >> src) & 1u ? t[src].value : x.value;
            } else if (op == SYNCWARP) {
                x.result = 0;
            } else {
                votes = true;
            }
        }
    }
    for (unsigned g = votes ? group : 0; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        ballot |= (unsigned)(t[l].value != 0) << l;
    }
    for (unsigned g = votes ? group : 0; g; g &= g - 1) {
        sim_thread &x = t[__builtin_ctz(g)];
        op = sig_op(x.sig);
        if (op == BALLOT)
            x.result = ballot;
        else if (op == ANY)
            x.result = ballot != 0;
        else if (op == ALL)
            x.result = ballot == group;
    }
    if (sig_op(t[lane].sig) == SYNCWARP)
        check_barrier(); // __syncwarp orders the memory accesses of its lanes
    ws.waiting &= ~group;
    ws.mixed = ws.waiting != 0; // the lanes left may differ from ws.sig
    return group;
}

// Every live thread waits at a barrier: releases them. Returns false (the
// barrier is divergent: they wait at different ones) without releasing.
bool release_barrier()
{
    worker_state &w = self();
    sim_thread *t = w.threads.data();
    if (w.barrier_divergent) { // the same barrier may come with another file pointer
        for (size_t i = 0; i < w.n; i++)
            if (t[i].state == AT_BARRIER &&
                (t[i].line != w.barrier_line || strcmp(t[i].file, w.barrier_file) != 0))
                return false;
        w.barrier_divergent = false;
    }
    // Releasing is one increment: a thread that waits at a barrier of an older
    // generation is runnable (see can_run).
    w.barrier_result = w.barrier_count;
    w.barrier_gen++;
    w.released_wait = released_word(w.barrier_gen);
    check_barrier();
    w.barrier_left = w.live;
    w.barrier_count = 0;
    w.barrier_file = nullptr; // the next barrier is named by its first arrival
    return true;
}

// Lanes of a warp that waited only for a lane that has exited go on.
__attribute__((noinline)) void resolve_after_exit(worker_state &w, size_t warp)
{
    unsigned waiting = w.warps[warp].waiting;
    while (waiting) {
        int lane = __builtin_ctz(waiting);
        waiting &= ~try_resolve_warp(warp, lane) & ~(1u << lane);
    }
}

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

// A fiber runs one simulated thread after another: when its thread exits it
// parks, and the next block that has a thread of its index resumes it.
void fiber_main(void *arg)
{
    sim_thread *t = static_cast<sim_thread *>(arg);
    for (;;) {
        worker_state *w = fiber_tls;
        w->run_thread(w->task);
        thread_exited(*w, t);
        if (w->live == 0)
            fiber_switch(&t->ctx, &w->scheduler); // the block is done
        else
            run_next(w, &t->ctx, t + 1);
    }
}

void report_deadlock(job *j);
bool release_idle_groups(worker_state &w);
bool waits_at_grid(const worker_state &w);

// Runs the block's fibers until no thread can run (done, stopped, or stuck;
// a block of a cooperative grid also stops when its threads wait at grid.sync()).
void drive_block(job *j)
{
    worker_state &w = self();
    fiber_tls = &w; // the block's fibers run: barriers and warp functions take the fast path
    run_next(&w, &w.scheduler, w.threads.data()); // returns when no thread can run
    while (j->error.load(std::memory_order_relaxed) == cudaSuccess && w.live > 0 &&
           release_idle_groups(w))
        run_next(&w, &w.scheduler, w.threads.data());
    fiber_tls = nullptr;
    if (j->error.load(std::memory_order_relaxed) == cudaSuccess && w.live > 0 && !waits_at_grid(w))
        report_deadlock(j);
}

void run_block_fibers(job *j)
{
    worker_state &w = self();
    const size_t n = (size_t)blockDim.x * blockDim.y * blockDim.z;
    w.warps.assign((n + 31) / 32, warp_slot());
    for (size_t k = 0; k < w.warps.size(); k++)
        w.warps[k].present = lanes_in_warp(n, k);
    w.n = n;
    w.end = w.threads.data() + n;
    w.end->state = EXITED; // what the last thread finds as its next one: searches wrap

    w.exited = 0;
    w.live = n;
    w.barrier_left = n;
    w.released_wait = released_word(w.barrier_gen);
    w.barrier_count = 0;
    w.barrier_file = nullptr;
    w.barrier_divergent = false;
    check_begin_block();
    if (blockDim.x != w.tid_dim.x || blockDim.y != w.tid_dim.y || blockDim.z != w.tid_dim.z) {
        uint3 tid = { 0, 0, 0 };
        for (size_t i = 0; i < n; i++) {
            w.threads[i].tid = tid;
            if (++tid.x == blockDim.x) {
                tid.x = 0;
                if (++tid.y == blockDim.y) {
                    tid.y = 0;
                    tid.z++;
                }
            }
        }
        w.tid_dim = blockDim;
    }
    for (size_t i = 0; i < n; i++)
        w.threads[i].state = RUNNABLE;
    for (size_t i = w.parked; i < n; i++) { // the others resume where they parked
        sim_thread &t = w.threads[i];
        void *stack = w.stacks->stack(i);
        if (!stack) {
            report("cannot allocate a stack for simulated thread %zu", i);
            set_error(j, cudaErrorLaunchOutOfResources);
            w.parked = 0;
            return;
        }
        // Stack tops 4 KiB apart would share cache sets: offset each one.
        size_t color = i * 208 % 4096;
        fiber_prepare(&t.ctx, stack, w.stacks->stack_size() - color, fiber_main, &t);
    }
    size_t before = w.parked;
    w.parked = 0; // until the block ends well, its fibers may stop anywhere
    drive_block(j);
    if (j->error.load(std::memory_order_relaxed) == cudaSuccess && !w.fiber_lost)
        w.parked = n > before ? n : before; // all exited: parked at the top of their loop
    w.fiber_lost = false;
}

// No thread can run and some have not exited: they wait at different
// barriers, or at a warp function whose lanes cannot all arrive. Reported in
// compute-sanitizer synccheck's words, with where each group of threads waits.
void report_deadlock(job *j)
{
    worker_state &w = self();
    char where[512], b[32];
    fmt_dim(b, sizeof(b), blockIdx);
    std::map<std::string, int> places;
    for (size_t i = 0; i < w.n; i++) {
        const sim_thread &t = w.threads[i];
        if (t.state == EXITED)
            continue;
        char p[400];
        snprintf(p, sizeof(p), "%s at %s:%d",
                 t.state == AT_BARRIER ? "__syncthreads"
                 : t.state == AT_GROUP ? "coalesced_threads()"
                 : t.state == AT_GRID  ? "grid.sync()"
                                       : "a warp function",
                 t.file, t.line);
        places[p]++;
    }
    std::string list;
    for (auto &kv : places)
        list += "\n    " + std::to_string(kv.second) + " thread(s) wait in " + kv.first;
    if (check_tools() & CHECK_SYNC) {
        const sim_thread *first = nullptr;
        for (size_t i = 0; i < w.n && !first; i++)
            if (w.threads[i].state != EXITED)
                first = &w.threads[i];
        check_count_error();
        check_line("Barrier error detected. Divergent thread(s) in block");
        check_line("    at %s in %s:%d", j->req.kernel_name, first->file, first->line);
        check_line("    by thread (%u,%u,%u) in block %s", first->tid.x, first->tid.y, first->tid.z,
                   b);
        for (auto &kv : places)
            check_line("    %d thread(s) wait in %s", kv.second, kv.first.c_str());
    }
    report("Barrier error detected. Divergent thread(s) in block %s of %s: the threads of the "
           "block wait at different barriers, so none can ever be released:%s\n    (threads that "
           "have exited count as arrived). The kernel stops with cudaErrorSynchronizationError",
           b, where_line(j, where, sizeof(where)), list.c_str());
    set_error(j, cudaErrorSynchronizationError);
}

// ---------------------------------------------------------------------------
// The worker pool.

struct pool {
    std::mutex m;
    std::condition_variable start, finished;
    job *current = nullptr;
    uint64_t generation = 0;
    int busy = 0;
    int workers = 0;
    std::mutex owner; // one kernel at a time uses the pool
};

pool &the_pool();
void run_cooperative(job *j);

// Chooses the code block b of j runs (on w): the kernel's, or its plain copy
// for a block the model's sample leaves out. Its fibers run ops->run_thread
// (cached with the task for fiber_main).
void choose_ops(worker_state &w, job *j, uint64_t b)
{
    w.ops = j->req.ops;
    if (j->plain && !check_block_counted(b, j->total_blocks)) {
        w.ops = j->plain;
        j->plain_blocks.fetch_add(1, std::memory_order_relaxed);
    }
    w.run_thread = w.ops->run_thread;
    w.task = j->req.task;
}

void run_one_block(job *j, uint64_t b)
{
    blockIdx.x = (unsigned)(b % gridDim.x);
    blockIdx.y = (unsigned)(b / gridDim.x % gridDim.y);
    blockIdx.z = (unsigned)(b / ((uint64_t)gridDim.x * gridDim.y));
    worker_state &w = self();
    w.fibers = j->sync;
    choose_ops(w, j, b);
    int why = sigsetjmp(w.escape, 0); // no mask: on_fault restores it
    if (why == 0) {
        w.in_kernel = true;
        if (j->sync)
            run_block_fibers(j);
        else
            w.ops->run_block(j->req.task);
    } else if (why == 2) {
        report_fault(j);
        int expected = cudaSuccess;
        j->error.compare_exchange_strong(expected, (int)cudaErrorIllegalAddress);
    }
    fiber_tls = nullptr; // a fault left the block's fibers without resetting it
    w.in_kernel = false;
}

void work_on(job *j)
{
    prepare_worker();
    self().current = j;
    self().tools = check_tools();
    check_enter_kernel(
        check_kernel_info{ j->req.kernel_name, j->req.shmem, j->req.task, j->req.ops->task_size });
    blockDim = j->req.block;
    gridDim = j->req.grid;
    for (bool go = true; go;) {
        uint64_t b = j->next_block.fetch_add(j->chunk, std::memory_order_relaxed);
        uint64_t end = b + j->chunk < j->total_blocks ? b + j->chunk : j->total_blocks;
        for (go = b < end; b < end; b++) {
            if (j->error.load(std::memory_order_relaxed) != cudaSuccess) {
                go = false;
                break;
            }
            run_one_block(j, b);
        }
    }
    check_leave_kernel();
    self().current = nullptr;
}

void worker_loop(pool *p)
{
    uint64_t seen = 0;
    for (;;) {
        job *j;
        {
            std::unique_lock<std::mutex> lock(p->m);
            p->start.wait(lock, [p, seen] { return p->generation != seen; });
            seen = p->generation;
            j = p->current;
        }
        work_on(j);
        std::lock_guard<std::mutex> lock(p->m);
        if (--p->busy == 0)
            p->finished.notify_all();
    }
}

int worker_setting()
{
    const char *s = getenv("GPULAB_SIM_THREADS");
    if (s && *s) {
        long n = strtol(s, nullptr, 10);
        if (n >= 1 && n <= 1024)
            return (int)n;
        report("GPULAB_SIM_THREADS=\"%s\" is not a number from 1 to 1024; using one per core", s);
    }
    unsigned n = std::thread::hardware_concurrency();
    return n ? (int)n : 1;
}

// Never destroyed: its threads live until the process exits.
pool &the_pool()
{
    static pool *p = [] {
        pool *q = new pool;
        q->workers = worker_setting() - 1; // the executor thread works too
        for (int i = 0; i < q->workers; i++)
            std::thread(worker_loop, q).detach();
        return q;
    }();
    return *p;
}

cudaError_t run_kernel(const std::shared_ptr<job> &jp)
{
    job *j = jp.get();
    pool &p = the_pool();
    std::lock_guard<std::mutex> own(p.owner);
    install_fault_handler();
    j->plain = plain_copy(j->req.ops, j->total_blocks);
    device_memory_batch_open();
    uint64_t helpers =
        (uint64_t)p.workers < j->total_blocks - 1 ? (uint64_t)p.workers : j->total_blocks - 1;
    if (j->cooperative)
        helpers = 0; // one worker takes the whole grid's threads in turn (run_cooperative)
    if (helpers > 0 && !j->sync) {
        // A block run as a loop takes a few hundred nanoseconds. Claimed one at
        // a time, workers would take turns along memory (each core's prefetcher
        // fetching the blocks of the others) and pass the counter's cache line
        // to and fro for every block: runs of about 8192 threads keep each
        // worker on its own stretch, at most an eighth of each one's share
        // keeps the ends even.
        uint64_t threads = (uint64_t)j->req.block.x * j->req.block.y * j->req.block.z;
        uint64_t by_size = 8192 / threads, by_share = j->total_blocks / (8 * (helpers + 1));
        j->chunk = by_size < by_share ? by_size : by_share;
        if (j->chunk < 1)
            j->chunk = 1;
    }
    if (helpers > 0) {
        std::lock_guard<std::mutex> lock(p.m);
        p.current = j;
        p.busy = p.workers;
        p.generation++;
        p.start.notify_all();
    }
    if (j->cooperative)
        run_cooperative(j);
    else
        work_on(j);
    if (helpers > 0) {
        std::unique_lock<std::mutex> lock(p.m);
        p.finished.wait(lock, [&p] { return p.busy == 0; });
        p.current = nullptr;
    }
    plain_copy_done(j->plain_blocks.load());
    check_kernel_done(j->req.kernel_name, j->req.file, j->req.line,
                      j->total_blocks * j->req.block.x * j->req.block.y * j->req.block.z);
    model_kernel(j->req.stream, j->req.kernel_name, { j->req.grid, j->req.block, j->req.shmem });
    if (j->check_failed.load() && j->error.load() == cudaSuccess)
        return cudaErrorLaunchFailure; // as a kernel stopped by compute-sanitizer's memcheck
    return (cudaError_t)j->error.load();
}

// ---------------------------------------------------------------------------
// Launch checks.

cudaError_t check_config(const launch_request &r, int d)
{
    (void)d;
    const dim3 g = r.grid, b = r.block;
    unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0 || b.x > 1024 ||
        b.y > 1024 || b.z > 64 || threads > 1024 || g.x > 2147483647u || g.y > 65535 || g.z > 65535)
        return cudaErrorInvalidConfiguration;
    if (r.shmem > dynamic_shared_limit(r.kernel_addr)) {
        report("kernel %s launched at %s:%d asks for %zu bytes of dynamic shared memory; the "
               "limit is %zu (more needs cudaFuncSetAttribute with "
               "cudaFuncAttributeMaxDynamicSharedMemorySize, up to 99 KiB)",
               r.kernel_name, r.file, r.line, r.shmem, dynamic_shared_limit(r.kernel_addr));
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

// A pointer argument a GPU could not use: host memory, or memory of another
// device without peer access. Returns the message, or "" when fine.
std::string check_pointer(const launch_request &r, int d, int i)
{
    const void *p = r.pointers[i];
    char buf[512];
    allocation al;
    if (!p)
        return "";
    if (find_allocation(p, &al)) {
        if (al.managed || al.device == d || peer_enabled(d, al.device))
            return "";
        snprintf(buf, sizeof(buf),
                 "is memory of device %d (%p), but the kernel runs on device %d and peer access "
                 "from device %d to device %d is not enabled (cudaDeviceEnablePeerAccess)",
                 al.device, p, d, d, al.device);
        return buf;
    }
    if (arena_of(p) >= 0 || is_pinned_host(p) || is_symbol(p))
        return ""; // freed device memory is memcheck's business; pinned memory is mapped
    snprintf(buf, sizeof(buf),
             "is a host pointer (%p), not device memory: a kernel can only use memory from "
             "cudaMalloc (copy the data there with cudaMemcpy first)",
             p);
    return buf;
}

// A cooperative grid must fit on the device at once, as a GPU requires:
// at most (blocks per multiprocessor, by the occupancy the simulator
// reports) x (multiprocessors) blocks.
cudaError_t check_cooperative(const launch_request &r, int d, uint64_t blocks)
{
    int per_sm = 0, sms = 0;
    int threads = (int)(r.block.x * r.block.y * r.block.z);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, r.kernel_addr, threads, r.shmem);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d);
    uint64_t most = (uint64_t)per_sm * (uint64_t)sms;
    if (blocks <= most)
        return cudaSuccess;
    report("cudaLaunchCooperativeKernel of %s at %s:%d: %llu blocks of %d threads cannot all be "
           "on the device at once (%d per multiprocessor by "
           "cudaOccupancyMaxActiveBlocksPerMultiprocessor x %d multiprocessors = %llu), and "
           "grid.sync() needs every block running: cudaErrorCooperativeLaunchTooLarge; size the "
           "grid with those two numbers",
           r.kernel_name, r.file, r.line, (unsigned long long)blocks, threads, per_sm, sms,
           (unsigned long long)most);
    return cudaErrorCooperativeLaunchTooLarge;
}

} // namespace

size_t check_thread_index()
{
    return threadIdx.x + (size_t)blockDim.x * (threadIdx.y + (size_t)blockDim.y * threadIdx.z);
}

void check_stop_thread()
{
    worker_state &w = self();
    w.current->check_failed.store(true);
    if (!w.fibers)
        abort_block(cudaErrorLaunchFailure);
    // Leave this thread for good; the others of the block go on.
    sim_thread *t = w.cur;
    thread_exited(w, t);
    w.fiber_lost = true; // this fiber stopped mid-kernel: it cannot be reused
    fiber_context dead;
    run_next(&w, &dead, t + 1);
    abort(); // never resumed
}

bool in_kernel()
{
    return current_job() != nullptr;
}

void register_kernel(const void *addr, const char *name, int sync)
{
    std::lock_guard<std::mutex> lock(traits_mutex);
    traits()[addr] = sync;
    kernel_names()[addr] = name;
}

int kernel_sync(const void *addr)
{
    std::lock_guard<std::mutex> lock(traits_mutex);
    auto it = traits().find(addr);
    return it == traits().end() ? -1 : it->second;
}

kernel_registrar::kernel_registrar(const void *addr, const char *name, int sync)
{
    register_kernel(addr, name, sync);
}

namespace
{

cudaError_t submit(const launch_request &r, bool cooperative);

} // namespace

void submit_launch(const launch_request &r)
{
    submit(r, false);
}

cudaError_t submit_cooperative_launch(const launch_request &given)
{
    launch_request r = given;
    if (!r.kernel_name) {
        std::lock_guard<std::mutex> lock(traits_mutex);
        auto it = kernel_names().find(r.kernel_addr);
        r.kernel_name = it == kernel_names().end() ? "(cooperative kernel)" : it->second;
    }
    return submit(r, true);
}

namespace
{

cudaError_t submit(const launch_request &r, bool cooperative)
{
    auto j = std::make_shared<job>();
    j->req = r;
    j->pointers.assign(r.pointers, r.pointers + r.n_args);
    j->is_pointer.assign(r.is_pointer, r.is_pointer + r.n_args);
    j->req.pointers = nullptr;
    j->req.is_pointer = nullptr;
    int d;
    if (!stream_device(r.stream, &d)) {
        record(cudaErrorInvalidResourceHandle, "cudaLaunchKernel");
        return cudaErrorInvalidResourceHandle;
    }
    if (sticky(d) != cudaSuccess) {
        record(sticky(d), "cudaLaunchKernel");
        return sticky(d);
    }
    cudaError_t e = check_config(r, d);
    if (e != cudaSuccess) {
        record(e, "cudaLaunchKernel");
        return e;
    }
    int sync = kernel_sync(r.kernel_addr);
    j->sync = sync != 0 || cooperative;
    j->cooperative = cooperative;
    j->total_blocks = (uint64_t)r.grid.x * r.grid.y * r.grid.z;
    if (cooperative && (e = check_cooperative(r, d, j->total_blocks)) != cudaSuccess)
        return record(e, "cudaLaunchCooperativeKernel");
    std::string bad;
    for (int i = 0; i < r.n_args && bad.empty(); i++) {
        if (!r.is_pointer[i])
            continue;
        bad = check_pointer(r, d, i);
        if (!bad.empty())
            report("kernel %s launched at %s:%d: argument %d '%s' %s. The kernel fails with "
                   "cudaErrorIllegalAddress, which is sticky: every later CUDA call returns it "
                   "until cudaDeviceReset",
                   r.kernel_name, r.file, r.line, i + 1, arg_name(r.args_text, i).c_str(),
                   bad.c_str());
    }
    if (!bad.empty()) {
        enqueue(r.stream, r.kernel_name, [j]() { return cudaErrorIllegalAddress; });
        return cudaSuccess;
    }
    enqueue(r.stream, r.kernel_name, [j]() { return run_kernel(j); });
    return cudaSuccess;
}

} // namespace

// ---------------------------------------------------------------------------
// Barriers and warp functions, called from kernels.

namespace
{

// The running fiber, or a report and a stop when the kernel runs as a loop.
sim_thread *this_fiber(const char *what, const char *file, int line)
{
    if (fiber_tls)
        return fiber_tls->cur;
    job *j = current_job();
    if (!j) {
        report("%s called outside a kernel (%s:%d)", what, file, line);
        abort();
    }
    char where[512];
    report("%s: %s at %s:%d was reached by a kernel the launch rewriter did not see use it "
           "(is it called through a function of another .cu file?). The kernel stops with "
           "cudaErrorLaunchFailure",
           where_line(j, where, sizeof(where)), what, file, line);
    abort_block(cudaErrorLaunchFailure);
}

// this_fiber's report and stop, for callers that checked the fast way first.
[[noreturn]] __attribute__((noinline)) void not_in_fibers(const char *what, const char *file,
                                                          int line)
{
    this_fiber(what, file, line);
    abort(); // this_fiber stops a thread that does not run as a fiber
}

bool single_thread_loop()
{
    return current_job() && !self().fibers && blockDim.x * blockDim.y * blockDim.z == 1;
}

// The running thread t arrives at a barrier. Returns whether it is the last
// to arrive.
inline __attribute__((always_inline)) bool arrive(worker_state *w, sim_thread *t, const char *file,
                                                  int line)
{
    t->state = AT_BARRIER;
    t->gen = w->barrier_gen;
    t->file = file;
    t->line = line;
    // The first arrival finds no barrier (barrier_file is null): it names it.
    if (__builtin_expect(line != w->barrier_line || file != w->barrier_file, 0)) {
        if (!w->barrier_file) {
            w->barrier_file = file;
            w->barrier_line = line;
        } else {
            // Maybe another barrier; release_barrier compares the names to be sure.
            w->barrier_divergent = true;
        }
    }
    return --w->barrier_left == 0;
}

__attribute__((noinline)) void syncthreads_slow(const char *file, int line)
{
    if (!single_thread_loop())
        not_in_fibers("__syncthreads()", file, line);
}

// The last thread arrived: release everyone and go on from thread 0, or let
// the scheduler report a divergent barrier.
__attribute__((noinline)) void barrier_complete(worker_state *w, sim_thread *t)
{
    if (!release_barrier())
        fiber_switch(&t->ctx, &w->scheduler);
    else
        run_next(w, &t->ctx, w->threads.data());
}

// The last lane of a warp function's group arrived: compute the results and go
// on with the group's first lane.
__attribute__((noinline)) unsigned long long warp_complete(worker_state *w, sim_thread *t,
                                                           size_t warp)
{
    unsigned group = try_resolve_warp(warp, (int)((size_t)(t - w->threads.data()) % 32));
    sim_thread *next = group ? &w->threads[warp * 32 + (size_t)__builtin_ctz(group)] : t + 1;
    return run_next(w, &t->ctx, next);
}

} // namespace

// The hot path of every barrier. Every way out is a tail call, so it needs no
// saved registers: a thread that waits costs a few stores and one switch.
void syncthreads(const char *file, int line)
{
    worker_state *w = fiber_tls;
    if (__builtin_expect(!w, 0))
        return syncthreads_slow(file, line);
    sim_thread *t = w->cur;
    if (arrive(w, t, file, line))
        return barrier_complete(w, t);
    sim_thread *next = t + 1;
    // Usually the next thread waited at the barrier last released: one comparison.
    if (wait_word(*next) == w->released_wait || can_run(*w, *next)) { // never *end
        w->cur = next;
        threadIdx = next->tid;
        // A lane that waits to return from a warp function gets its result.
        fiber_switch(&t->ctx, &next->ctx, next->result);
        return;
    }
    run_next_search(w, &t->ctx, next);
}

int syncthreads_count(int pred, const char *file, int line)
{
    worker_state *w = fiber_tls;
    if (!w) {
        if (single_thread_loop())
            return pred;
        not_in_fibers("__syncthreads_count()", file, line);
    }
    sim_thread *t = w->cur;
    w->barrier_count += pred;
    if (!arrive(w, t, file, line)) {
        run_next(w, &t->ctx, t + 1);
    } else if (release_barrier()) {
        run_next(w, &t->ctx, w->threads.data());
    } else {
        fiber_switch(&t->ctx, &w->scheduler); // the scheduler reports it
        return 0;
    }
    return w->barrier_result; // read by every thread before the next release
}

namespace
{

// The running lane t arrives at a warp function: it waits for the others of
// its group, or it is the last to arrive and computes the group's results.
// Every way out is a tail call, and the lane resumed returns its result from
// the switch (see fiber_switch).
inline __attribute__((always_inline)) unsigned long long
warp_arrive(worker_state *w, sim_thread *t, warp_op op, unsigned mask, unsigned long long value,
            int arg, int width, const char *file, int line)
{
    t->state = AT_WARP;
    t->value = value;
    t->file = file;
    t->line = line;
    unsigned long long sig = warp_sig(op, width > 0 && width <= 32 ? width : 32, arg);
    t->sig = sig;
    size_t me = (size_t)(t - w->threads.data()), warp = me / 32;
    unsigned bit = 1u << (me % 32), m = mask | bit;
    t->mask = m;
    warp_slot &ws = w->warps[warp];
    unsigned before = ws.waiting;
    if (before == 0) {
        ws.sig = sig;
        ws.mixed = false;
    } else if (sig != ws.sig) {
        ws.mixed = true;
    }
    ws.waiting = before | bit;
    if (m & ws.present & ~(before | bit)) // others of the group have yet to arrive
        return run_next(w, &t->ctx, t + 1);
    return warp_complete(w, t, warp);
}

// warp_exchange's rare cases: not in a fiber, __activemask, and the check
// mode's test of the mask.
__attribute__((noinline)) unsigned long long warp_exchange_slow(warp_op op, unsigned mask,
                                                                unsigned long long value, int arg,
                                                                int width, const char *file,
                                                                int line)
{
    worker_state *w = fiber_tls;
    if (!w)
        not_in_fibers("a warp function", file, line);
    sim_thread *t = w->cur;
    size_t me = (size_t)(t - w->threads.data()), warp = me / 32;
    unsigned present = w->warps[warp].present;
    if (op == ACTIVEMASK)
        return present;
    if ((w->tools & CHECK_SYNC) && (!(mask & (1u << (me % 32))) || (mask & ~present)))
        check_warp_mask(mask, present, file, line);
    return warp_arrive(w, t, op, mask, value, arg, width, file, line);
}

} // namespace

// The hot path of every warp function: a lane that waits for others of its
// group costs a few stores and one switch.
unsigned long long warp_exchange(warp_op op, unsigned mask, unsigned long long value, int arg,
                                 int width, const char *file, int line)
{
    worker_state *w = fiber_tls;
    if (__builtin_expect(!w || op == ACTIVEMASK || (w->tools & CHECK_SYNC), 0))
        return warp_exchange_slow(op, mask, value, arg, width, file, line);
    return warp_arrive(w, w->cur, op, mask, value, arg, width, file, line);
}

void syncwarp(unsigned mask, const char *file, int line)
{
    warp_exchange(SYNCWARP, mask, 0, 0, 32, file, line);
}

void kernel_trap(cudaError_t why, const char *message)
{
    job *j = current_job();
    if (!j) {
        report("%s (outside a kernel)", message);
        abort();
    }
    char where[512], b[32], t[32];
    fmt_dim(b, sizeof(b), blockIdx);
    fmt_dim(t, sizeof(t), threadIdx);
    report("%s: block %s, thread %s: %s", where_line(j, where, sizeof(where)), b, t, message);
    abort_block(why);
}

// ---------------------------------------------------------------------------
// Cooperative groups (include/cooperative_groups.h): coalesced_threads() and
// grid.sync().

namespace
{

bool same_place(const sim_thread &a, const sim_thread &b)
{
    return a.line == b.line && (a.file == b.file || strcmp(a.file, b.file) == 0);
}

} // namespace

// Lanes at coalesced_threads() wait until their warp's other live lanes are
// known: there too, or blocked elsewhere (a barrier, a warp function), or
// exited. A GPU's converged lanes are those at the same call together.
unsigned coalesced_mask(const char *file, int line)
{
    worker_state *w = fiber_tls;
    if (!w)
        not_in_fibers("coalesced_threads()", file, line);
    sim_thread *t = w->cur;
    size_t warp = (size_t)(t - w->threads.data()) / 32;
    sim_thread *lanes = &w->threads[warp * 32];
    t->state = AT_GROUP;
    t->file = file;
    t->line = line;
    unsigned live = w->warps[warp].present, here = 0;
    for (unsigned m = live; m; m &= m - 1) {
        const sim_thread &x = lanes[__builtin_ctz(m)];
        if (x.state == AT_GROUP && same_place(x, *t))
            here |= m & -m;
    }
    sim_thread *next = t + 1; // the block's end never runs: a search wraps from there
    if (here == live) {       // the whole warp is here: it goes on at once
        for (unsigned m = here; m; m &= m - 1) {
            sim_thread &x = lanes[__builtin_ctz(m)];
            x.state = RUNNABLE;
            x.result = here;
        }
        next = &lanes[__builtin_ctz(here)];
    }
    // Whoever resumes this lane hands it its result (see resume).
    return (unsigned)run_next(w, &t->ctx, next);
}

namespace
{

// No thread of the block can run: the lanes at each coalesced_threads() call
// form its group and go on (runnable, with the group as the result their
// fibers are resumed with). Returns whether any did.
bool release_idle_groups(worker_state &w)
{
    bool any = false;
    for (size_t i = 0; i < w.n; i++) {
        sim_thread &first = w.threads[i];
        if (first.state != AT_GROUP)
            continue;
        size_t warp = i / 32;
        unsigned group = 0;
        for (size_t l = i % 32; l < 32 && warp * 32 + l < w.n; l++) {
            const sim_thread &x = w.threads[warp * 32 + l];
            if (x.state == AT_GROUP && same_place(x, first))
                group |= 1u << l;
        }
        for (unsigned m = group; m; m &= m - 1) {
            sim_thread &x = w.threads[warp * 32 + (size_t)__builtin_ctz(m)];
            x.state = RUNNABLE;
            x.result = group;
        }
        any = true;
    }
    return any;
}

// Every thread of the block that has not exited waits at grid.sync().
bool waits_at_grid(const worker_state &w)
{
    size_t at_grid = 0;
    for (size_t i = 0; i < w.n; i++)
        at_grid += w.threads[i].state == AT_GRID;
    return at_grid > 0 && at_grid == w.live;
}

// The running thread waits at grid.sync(): its block stops when every live
// thread of it waits there, and run_cooperative resumes it when every block has.
// It has not arrived at the block's barrier (barrier_left keeps counting it):
// a block whose threads wait both there and at grid.sync() is stuck.
void grid_wait(const char *file, int line)
{
    worker_state *w = fiber_tls;
    if (!w)
        not_in_fibers("grid.sync()", file, line);
    sim_thread *t = w->cur;
    t->state = AT_GRID;
    t->file = file;
    t->line = line;
    run_next(w, &t->ctx, t + 1);
}

// A block of a cooperative grid: its own fibers and barrier state, and its
// shared memory while another block of the grid has the worker.
struct coop_block {
    std::unique_ptr<worker_state> w;
    uint3 idx{};
    bool started = false, waiting = false;
    std::vector<unsigned char> window, dynamic;
    check_block_state checks;
};

// Runs block cb (or resumes it past grid.sync()) on this worker until it is
// done, stopped, or waits at grid.sync() again.
void coop_step(job *j, coop_block &cb)
{
    // The block's worker_state takes the worker's place; drive_block points
    // fiber_tls at it while its fibers run.
    worker_state *home = worker_tls;
    worker_state &w = *cb.w;
    worker_tls = &w;
    fiber_tls = nullptr;
    blockIdx = cb.idx;
    if (cb.started) {
        static_shared_restore(cb.window);
        memcpy(gpulab_sim_dynamic_shared, cb.dynamic.data(), cb.dynamic.size());
        check_restore_block(cb.checks);
    }
    int why = sigsetjmp(w.escape, 0); // no mask: on_fault restores it
    if (why == 0) {
        w.in_kernel = true;
        if (!cb.started) {
            cb.started = true;
            run_block_fibers(j);
        } else {
            // Released: runnable again. None of them had arrived at a barrier
            // or a warp function, so barrier_left and the warp slots stand.
            for (size_t i = 0; i < w.n; i++)
                if (w.threads[i].state == AT_GRID)
                    w.threads[i].state = RUNNABLE;
            check_barrier(); // grid.sync() orders the block's accesses too
            drive_block(j);
        }
    } else if (why == 2) {
        report_fault(j);
        set_error(j, cudaErrorIllegalAddress);
    }
    fiber_tls = nullptr; // a fault left the block's fibers without resetting it
    w.in_kernel = false;
    cb.waiting = j->error.load() == cudaSuccess && w.exited < w.n && waits_at_grid(w);
    if (cb.waiting) {
        static_shared_save(&cb.window);
        cb.dynamic.assign(gpulab_sim_dynamic_shared, gpulab_sim_dynamic_shared + j->req.shmem);
        check_save_block(&cb.checks);
    }
    worker_tls = home;
}

// A cooperative launch: every block of the grid must be able to wait for
// every other at grid.sync(), so one worker runs them all, block after block,
// each until its threads wait at grid.sync(); when every block waits, the
// barrier is released and each block goes on in turn.
void run_cooperative(job *j)
{
    prepare_worker();
    worker_state &home = self();
    home.current = j;
    home.tools = check_tools();
    check_enter_kernel(
        check_kernel_info{ j->req.kernel_name, j->req.shmem, j->req.task, j->req.ops->task_size });
    blockDim = j->req.block;
    gridDim = j->req.grid;
    std::vector<coop_block> blocks(j->total_blocks);
    for (uint64_t b = 0; b < j->total_blocks; b++) {
        coop_block &cb = blocks[b];
        cb.w.reset(new worker_state);
        cb.w->stacks.reset(new stack_pool(stack_size_setting()));
        cb.w->threads.resize(1025); // as prepare_worker's: one past the block's last thread
        cb.w->current = j;
        cb.w->ops = j->req.ops; // a cooperative grid runs every block counted: no plain copy
        cb.w->run_thread = j->req.ops->run_thread;
        cb.w->task = j->req.task;
        cb.w->tools = home.tools;
        cb.w->fibers = true;
        cb.idx.x = (unsigned)(b % gridDim.x);
        cb.idx.y = (unsigned)(b / gridDim.x % gridDim.y);
        cb.idx.z = (unsigned)(b / ((uint64_t)gridDim.x * gridDim.y));
    }
    for (bool again = true; again && j->error.load() == cudaSuccess;) {
        size_t ran = 0, waiting = 0;
        const coop_block *gone = nullptr; // a block that ended while others wait
        for (coop_block &cb : blocks) {
            if (cb.started && !cb.waiting)
                continue; // done
            coop_step(j, cb);
            ran++;
            if (j->error.load() != cudaSuccess)
                break;
            waiting += cb.waiting;
            if (!cb.waiting && !gone)
                gone = &cb;
        }
        again = waiting > 0;
        if (j->error.load() == cudaSuccess && waiting > 0 && waiting < ran) {
            const coop_block *w = nullptr;
            for (const coop_block &cb : blocks)
                if (cb.waiting && !w)
                    w = &cb;
            const sim_thread *t = nullptr;
            for (size_t i = 0; i < w->w->n && !t; i++)
                if (w->w->threads[i].state == AT_GRID)
                    t = &w->w->threads[i];
            char where[512];
            report("%s: %zu block(s) wait at grid.sync() (%s:%d, block (%u,%u,%u) among them) "
                   "while block (%u,%u,%u) has ended without reaching it: a grid barrier needs "
                   "every thread of the grid, so it can never be released. The kernel stops "
                   "with cudaErrorSynchronizationError",
                   where_line(j, where, sizeof(where)), waiting, t->file, t->line, w->idx.x,
                   w->idx.y, w->idx.z, gone->idx.x, gone->idx.y, gone->idx.z);
            set_error(j, cudaErrorSynchronizationError);
        }
    }
    check_leave_kernel();
    home.current = nullptr;
}

} // namespace

bool grid_cooperative()
{
    job *j = current_job();
    return j && j->cooperative;
}

void grid_sync(const char *file, int line)
{
    job *j = current_job();
    if (!j) {
        report("grid.sync() called outside a kernel (%s:%d)", file, line);
        abort();
    }
    if (!j->cooperative) {
        char where[512], b[32], t[32];
        fmt_dim(b, sizeof(b), blockIdx);
        fmt_dim(t, sizeof(t), threadIdx);
        if (check_tools() & CHECK_SYNC) {
            check_count_error();
            check_line("Barrier error detected. grid.sync() in a kernel not launched "
                       "cooperatively");
            check_line("    at %s in %s:%d", j->req.kernel_name, file, line);
            check_line("    by thread %s in block %s", t, b);
        }
        report("%s: grid.sync() at %s:%d (thread %s of block %s), but the kernel was launched "
               "with <<<...>>>: only a kernel launched with cudaLaunchCooperativeKernel can "
               "synchronize its grid (on a GPU this hangs or fails). The kernel stops with "
               "cudaErrorLaunchFailure",
               where_line(j, where, sizeof(where)), file, line, t, b);
        abort_block(cudaErrorLaunchFailure);
    }
    grid_wait(file, line);
}

} // namespace gpulab_sim

// A failed assert() in a kernel stops the kernel with cudaErrorAssert, as on a
// GPU; in host code it aborts the program as usual. This replaces the C
// library's function of that name (the name is fixed by <assert.h>).
extern "C" [[noreturn]] void __assert_fail(const char *expr, const char *file, unsigned int line,
                                           const char *function)
{
    if (!gpulab_sim::current_job()) {
        fflush(stdout);
        fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expr);
        abort();
    }
    char msg[1024];
    snprintf(msg, sizeof(msg), "%s:%u: %s: Assertion `%s` failed.", file, line, function, expr);
    gpulab_sim::kernel_trap(cudaErrorAssert, msg);
}
