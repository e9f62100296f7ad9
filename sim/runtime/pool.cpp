// pool.cpp — the worker pool: one worker per core (GPULAB_SIM_THREADS) takes
// blocks of a kernel in turn, each block run as a loop over its threads or as
// fibers (block.cpp); the executor thread that runs the kernel works too.
#include "check.hpp"
#include "exec.hpp"
#include "model.hpp"
#include "plain_copy.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace gpulab_sim
{

__thread worker_state *worker_tls = nullptr;
__thread worker_state *fiber_tls = nullptr;

job *current_job()
{
    return worker_tls ? worker_tls->current : nullptr;
}

// A GPU gives a thread up to 512 KiB of local memory; the simulator's own
// frames need a few more. The stacks are reserved, not committed: a thread
// pays only for the pages it touches.
size_t stack_size_setting()
{
    const char *s = getenv("GPULAB_SIM_STACK_KB");
    long kb = s ? strtol(s, nullptr, 10) : 0;
    return (size_t)(kb >= 16 && kb <= 65536 ? kb : 576) * 1024;
}
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
    w->thread = pthread_self();
    worker_tls = w;
    watchdog_register(w);
}

namespace
{

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
} // namespace

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

} // namespace gpulab_sim
