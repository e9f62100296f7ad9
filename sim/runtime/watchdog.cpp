// watchdog.cpp — a block whose running thread never lets the others run. A
// thread that spins on a flag which only a thread waiting at a barrier would
// set hangs the block, on a GPU as here; one that spins on a flag another
// thread of its block would set before any barrier hangs here (the
// simulator switches threads only at barriers and warp functions), where a
// GPU since Volta may go on. Once a second a watchdog thread looks at every
// worker running a block as fibers: when the same thread has run for
// GPULAB_SIM_HANG_S seconds (default 10; 0: never) while others of its block
// wait or have not run, it says once per kernel which thread runs, where
// (when the program has line information) and where the others are. The
// kernel goes on: a long computation by one thread is not a hang, and the
// words say so.
#include "check.hpp"
#include "exec.hpp"

#include <signal.h>
#include <ucontext.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>

namespace gpulab_sim
{

namespace
{

struct watched {
    worker_state *w;
    // What it ran when last seen, and since when it has not changed.
    const job *j = nullptr;
    const sim_thread *cur = nullptr;
    unsigned char gen = 0;
    size_t exited = 0;
    int still = 0;             // seconds without a change
    const job *told = nullptr; // the kernel it already reported
};

std::mutex watch_mutex;
std::vector<watched> *watch_list = nullptr;

int hang_seconds()
{
    const char *s = getenv("GPULAB_SIM_HANG_S");
    if (!s || !*s)
        return 10;
    long v = strtol(s, nullptr, 10);
    return v < 0 ? 10 : v > 100000 ? 100000 : (int)v;
}

// Where the running thread of a worker is: its program counter, from a
// signal the worker answers (SIGURG, which nothing else here uses).
void on_sample(int, siginfo_t *, void *uctx)
{
#if defined(__x86_64__) && defined(REG_RIP)
    if (worker_tls)
        worker_tls->sampled_pc.store(
            (uintptr_t) static_cast<ucontext_t *>(uctx)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    if (worker_tls)
        worker_tls->sampled_pc.store((uintptr_t) static_cast<ucontext_t *>(uctx)->uc_mcontext.pc);
#else
    (void)uctx;
#endif
}

uintptr_t sample_pc(worker_state *w)
{
    static std::once_flag once;
    std::call_once(once, [] { install_signal(SIGURG, on_sample, SA_RESTART); });
    w->sampled_pc.store(0);
    if (pthread_kill(w->thread, SIGURG) != 0)
        return 0;
    for (int i = 0; i < 100 && !w->sampled_pc.load(); i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return w->sampled_pc.load();
}

void report_stuck(worker_state *w, const job *j, const sim_thread *cur, int seconds)
{
    std::map<std::string, int> places;
    int waiting = 0, not_run = 0;
    size_t n = w->n;
    for (size_t i = 0; i < n; i++) {
        const sim_thread &t = w->threads[i];
        if (&t == cur || t.state == EXITED)
            continue;
        // Runnable, or released from a barrier and not resumed since.
        if (t.state == RUNNABLE || (t.state == AT_BARRIER && t.gen != w->barrier_gen)) {
            not_run++;
            continue;
        }
        char p[400];
        wait_place(t, p, sizeof(p));
        places[p]++;
        waiting++;
    }
    if (!waiting && !not_run)
        return; // the block's only thread left: a long computation
    std::string list;
    for (auto &kv : places)
        list += "\n    " + std::to_string(kv.second) + " thread(s) wait in " + kv.first;
    if (not_run)
        list += "\n    " + std::to_string(not_run) +
                " thread(s) have not run since (the simulator runs a block's threads one at a "
                "time, and switches only at a barrier or a warp function)";
    std::string at = source_line(sample_pc(w), { j->req.file });
    char where[512], b[32], t[32];
    fmt_dim(b, sizeof(b), w->block);
    fmt_dim(t, sizeof(t), cur->tid);
    report("%s, block %s: thread %s has run for %d s%s without reaching a barrier or a warp "
           "function. The other threads of its block:%s\n    If the running thread waits for one "
           "of them (a loop on a flag that another thread sets), it never ends here. On a GPU "
           "it never ends either when they wait at a barrier (every thread of a block must "
           "reach each __syncthreads), and may end when they have not run (a GPU since Volta "
           "schedules them on their own). A long computation by one thread is not a hang: the "
           "kernel goes on (GPULAB_SIM_HANG_S sets this delay, 0 turns it off)",
           where_line(j, where, sizeof(where)), b, t, seconds, at.c_str(), list.c_str());
}

void watch_loop(int limit)
{
    for (;;) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        std::lock_guard<std::mutex> lock(watch_mutex);
        for (watched &v : *watch_list) {
            worker_state *w = v.w;
            // Read without the worker's cooperation: a stuck block does not
            // change them, and a running one is only seen as changing.
            const job *j = __atomic_load_n(&w->current, __ATOMIC_RELAXED);
            bool fibers = __atomic_load_n(&w->fibers, __ATOMIC_RELAXED) &&
                          __atomic_load_n(&w->in_kernel, __ATOMIC_RELAXED);
            const sim_thread *cur = __atomic_load_n(&w->cur, __ATOMIC_RELAXED);
            unsigned char gen = __atomic_load_n(&w->barrier_gen, __ATOMIC_RELAXED);
            size_t exited = __atomic_load_n(&w->exited, __ATOMIC_RELAXED);
            if (!j || !fibers || !cur || j != v.j || cur != v.cur || gen != v.gen ||
                exited != v.exited) {
                v.j = j;
                v.cur = cur;
                v.gen = gen;
                v.exited = exited;
                v.still = 0;
                continue;
            }
            if (++v.still == limit && v.told != j) {
                v.told = j;
                report_stuck(w, j, cur, limit);
            }
        }
    }
}

} // namespace

void watchdog_register(worker_state *w)
{
    static int limit = hang_seconds();
    if (limit == 0)
        return;
    std::lock_guard<std::mutex> lock(watch_mutex);
    if (!watch_list) {
        watch_list = new std::vector<watched>;
        std::thread(watch_loop, limit).detach();
    }
    watched v;
    v.w = w;
    watch_list->push_back(v);
}

} // namespace gpulab_sim
