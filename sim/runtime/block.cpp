// block.cpp — a block run as fibers: one fiber per simulated thread, each
// switching directly to the next thread that can run (barrier.cpp has the
// barriers and warp functions that switch); the scheduler starts the block
// and takes over when no thread can run: it is done, stopped, or stuck (the
// deadlock report).
#include "check.hpp"
#include "exec.hpp"

#include <cstdlib>
#include <map>
#include <string>

namespace gpulab_sim
{
namespace
{

#ifndef GPULAB_SIM_FIBER_LOOP
// A fiber runs one simulated thread after another: when its thread exits it
// parks, and the next block that has a thread of its index resumes it.
// (x86-64: gpulab_sim_fiber_loop and gpulab_sim_fiber_step, at the end.)
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
#endif

} // namespace

#ifdef GPULAB_SIM_FIBER_LOOP
static_assert(offsetof(sim_thread, ctx) == 0 && offsetof(sim_thread, result) == 24 &&
                  sizeof(sim_thread) == 64,
              "the layout gpulab_sim_fiber_exit_swap reads");
#endif

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
    w.block = blockIdx;
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
        t.phase = 0;
#ifdef GPULAB_SIM_FIBER_LOOP
        fiber_prepare(&t.ctx, stack, w.stacks->stack_size() - color, gpulab_sim_fiber_loop, &t);
#else
        fiber_prepare(&t.ctx, stack, w.stacks->stack_size() - color, fiber_main, &t);
#endif
    }
    size_t before = w.parked;
    w.parked = 0; // until the block ends well, its fibers may stop anywhere
    drive_block(j);
    if (j->error.load(std::memory_order_relaxed) == cudaSuccess && !w.fiber_lost)
        w.parked = n > before ? n : before; // all exited: parked at the top of their loop
    w.fiber_lost = false;
}

void wait_place(const sim_thread &t, char *buf, size_t n)
{
    snprintf(buf, n, "%s at %s:%d",
             t.state == AT_BARRIER ? "__syncthreads"
             : t.state == AT_GROUP ? "coalesced_threads()"
             : t.state == AT_GRID  ? "grid.sync()"
                                   : "a warp function",
             t.file ? t.file : "?", t.line);
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
        wait_place(t, p, sizeof(p));
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
        if (check_report_begin()) {
            check_line("Barrier error detected. Divergent thread(s) in block");
            check_line("    at %s in %s:%d", j->req.kernel_name, first->file, first->line);
            check_line("    by thread (%u,%u,%u) in block %s", first->tid.x, first->tid.y,
                       first->tid.z, b);
            for (auto &kv : places)
                check_line("    %d thread(s) wait in %s", kv.second, kv.first.c_str());
        }
    }
    report("Barrier error detected. Divergent thread(s) in block %s of %s: the threads of the "
           "block wait at different barriers, so none can ever be released:%s\n    (threads that "
           "have exited count as arrived). The kernel stops with cudaErrorSynchronizationError",
           b, where_line(j, where, sizeof(where)), list.c_str());
    set_error(j, cudaErrorSynchronizationError);
}

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

} // namespace gpulab_sim

#ifdef GPULAB_SIM_FIBER_LOOP
// What the fiber of thread t calls next (gpulab_sim_fiber_loop): its thread's
// kernel; once that has returned, the switch to the next thread. When the
// next thread cannot run, the switch is made here, and so is the one to the
// scheduler when the block is done; the fiber goes on with its next thread
// when it is resumed.
extern "C" gpulab_sim::fiber_step_result gpulab_sim_fiber_step(gpulab_sim::sim_thread *t)
{
    using namespace gpulab_sim;
    if (t->phase) { // its thread's kernel returned
        worker_state *w = fiber_tls;
        thread_exited(*w, t);
        t->phase = 0;
        sim_thread *next = t + 1;
        if (w->live == 0) {
            fiber_switch(&t->ctx, &w->scheduler); // the block is done
        } else if (can_run(*w, *next)) {
            w->cur = next;
            threadIdx = next->tid;
            return { gpulab_sim_fiber_exit_swap, t };
        } else {
            run_next_search(w, &t->ctx, next);
        }
    }
    worker_state *w = fiber_tls;
    t->phase = 1;
    return { w->run_thread, w->task };
}
#endif
