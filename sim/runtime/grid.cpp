// grid.cpp — cooperative launches (cudaLaunchCooperativeKernel) and
// grid.sync(): one worker runs every block of the grid in turn, each until
// its threads wait at grid.sync(), saving its shared memory and check state
// while the others run.
#include "check.hpp"
#include "exec.hpp"
#include "shared.hpp"

#include <cooperative_groups.h>

#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

// The dynamic shared memory of the running block (launch.cpp).
extern "C" __thread unsigned char gpulab_sim_dynamic_shared[];

namespace gpulab_sim
{

// Every thread of the block that has not exited waits at grid.sync().
bool waits_at_grid(const worker_state &w)
{
    size_t at_grid = 0;
    for (size_t i = 0; i < w.n; i++)
        at_grid += w.threads[i].state == AT_GRID;
    return at_grid > 0 && at_grid == w.live;
}
namespace
{

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
} // namespace

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
        if (check_tools() & CHECK_SYNC)
            check_count_error();
        if ((check_tools() & CHECK_SYNC) && check_report_begin()) {
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
