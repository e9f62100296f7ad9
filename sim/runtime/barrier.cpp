// barrier.cpp — barriers and warp functions, called from kernels:
// __syncthreads and its _count/_and/_or forms, shuffles, votes, __syncwarp,
// __activemask, cooperative groups' tiles (through warp_exchange) and
// coalesced_threads(). Each arrival switches to the next thread that can run
// (the fast paths inline the switch: exec.hpp).
#include "check.hpp"
#include "exec.hpp"

#include <cstdlib>
#include <cstring>

namespace gpulab_sim
{

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
namespace
{

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
// same width and argument: the usual case, with the op's rule known. A lane
// whose source is outside the group gets 0 (see try_resolve_warp); returns
// those lanes.
template <warp_op op>
unsigned shuffle_group(sim_thread *t, unsigned group, int width, int arg)
{
    unsigned outside = 0;
    for (unsigned g = group; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        int src = shfl_source(op, width, arg, l);
        if ((group >> src) & 1u) {
            t[l].result = t[src].value;
        } else {
            t[l].result = 0;
            outside |= 1u << l;
        }
        t[l].state = RUNNABLE;
    }
    return outside;
}

// The result of a vote, match or reduction of lane x over the values of the
// group's lanes.
unsigned long long collective_result(const sim_thread *t, unsigned group, unsigned ballot,
                                     const sim_thread &x)
{
    switch (sig_op(x.sig)) {
    case BALLOT:
        return ballot;
    case ANY:
        return ballot != 0;
    case ALL:
        return ballot == group;
    case MATCH_ANY:
    case MATCH_ALL: {
        unsigned same = 0;
        for (unsigned g = group; g; g &= g - 1)
            if (t[__builtin_ctz(g)].value == x.value)
                same |= g & -g;
        if (sig_op(x.sig) == MATCH_ANY)
            return same;
        return same == group ? group : 0;
    }
    default:
        break;
    }
    // __reduce_*_sync: 32-bit values.
    warp_op op = sig_op(x.sig);
    uint32_t acc = op == REDUCE_MIN_S   ? 0x7fffffffu
                   : op == REDUCE_MIN_U ? 0xffffffffu
                   : op == REDUCE_MAX_S ? 0x80000000u
                   : op == REDUCE_AND   ? 0xffffffffu
                                        : 0u;
    for (unsigned g = group; g; g &= g - 1) {
        uint32_t v = (uint32_t)t[__builtin_ctz(g)].value;
        switch (op) {
        case REDUCE_ADD:
            acc += v;
            break;
        case REDUCE_MIN_S:
            acc = (int32_t)v < (int32_t)acc ? v : acc;
            break;
        case REDUCE_MIN_U:
            acc = v < acc ? v : acc;
            break;
        case REDUCE_MAX_S:
            acc = (int32_t)v > (int32_t)acc ? v : acc;
            break;
        case REDUCE_MAX_U:
            acc = v > acc ? v : acc;
            break;
        case REDUCE_AND:
            acc &= v;
            break;
        case REDUCE_OR:
            acc |= v;
            break;
        default:
            acc ^= v;
            break;
        }
    }
    return acc;
}

// Check mode: the lanes in `outside` shuffled from a lane outside their group.
__attribute__((noinline)) void report_outside_reads(const worker_state &w, size_t warp,
                                                    unsigned outside, unsigned group)
{
    const sim_thread *t = &w.threads[warp * 32];
    unsigned present = w.warps[warp].present;
    size_t exist = w.n - warp * 32 < 32 ? w.n - warp * 32 : 32;
    for (unsigned g = outside; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        const sim_thread &x = t[l];
        int src = shfl_source(sig_op(x.sig), sig_width(x.sig), sig_arg(x.sig), l);
        shfl_lane_why why = (size_t)src >= exist       ? SHFL_LANE_ABSENT
                            : !((present >> src) & 1u) ? SHFL_LANE_EXITED
                                                       : SHFL_LANE_NOT_IN_MASK;
        check_shfl_outside(x.file, x.line, x.tid, l, src, why, (unsigned)exist, group);
    }
}
} // namespace

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
    // One pass: a shuffle's result depends only on the values; a vote, match
    // or reduction needs the values of the whole group, so they get theirs in
    // a second pass. A shuffle from a lane outside the group (one the block
    // does not have, one that exited, one the mask leaves out) is undefined
    // in CUDA; GPUs give 0 for a lane the block does not have, and so does
    // the simulator for all three, which the check mode reports.
    unsigned group = want, ballot = 0, outside = 0;
    bool votes = false;
    warp_op op = sig_op(ws.sig);
    int width = sig_width(ws.sig), arg = sig_arg(ws.sig);
    if (!ws.mixed && op == SHFL_DOWN && (width & (width - 1)) == 0) {
        outside = shuffle_group<SHFL_DOWN>(t, group, width, arg);
    } else if (!ws.mixed && op == SHFL_XOR && (width & (width - 1)) == 0) {
        outside = shuffle_group<SHFL_XOR>(t, group, width, arg);
    } else {
        for (unsigned g = group; g; g &= g - 1) {
            int l = __builtin_ctz(g);
            sim_thread &x = t[l];
            x.state = RUNNABLE;
            op = sig_op(x.sig);
            if (op <= SHFL_XOR) {
                int src = shfl_source(op, sig_width(x.sig), sig_arg(x.sig), l);
                if ((group >> src) & 1u) {
                    x.result = t[src].value;
                } else {
                    x.result = 0;
                    outside |= 1u << l;
                }
            } else if (op == SYNCWARP) {
                x.result = 0;
            } else {
                votes = true;
            }
        }
    }
    if (__builtin_expect(outside != 0, 0) && (w.tools & CHECK_SYNC))
        report_outside_reads(w, warp, outside, group);
    for (unsigned g = votes ? group : 0; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        ballot |= (unsigned)(t[l].value != 0) << l;
    }
    for (unsigned g = votes ? group : 0; g; g &= g - 1) {
        sim_thread &x = t[__builtin_ctz(g)];
        if (sig_op(x.sig) > SHFL_XOR && sig_op(x.sig) != SYNCWARP)
            x.result = collective_result(t, group, ballot, x);
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
} // namespace

// this_fiber's report and stop, for callers that checked the fast way first.
[[noreturn]] __attribute__((noinline)) void not_in_fibers(const char *what, const char *file,
                                                          int line)
{
    this_fiber(what, file, line);
    abort(); // this_fiber stops a thread that does not run as a fiber
}

namespace
{

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
    if (wait_word(*next) == w->released_wait) {
        w->cur = next;
        threadIdx = next->tid;
        fiber_switch(&t->ctx, &next->ctx); // returns where this call will: predicted
        return;
    }
    if (can_run(*w, *next)) { // never *end
        w->cur = next;
        threadIdx = next->tid;
        // Not started yet in this block (parked between threads), or a lane
        // that waits to return from a warp function with its result.
        fiber_switch_jump(&t->ctx, &next->ctx, next->result);
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
    if (m & ws.present & ~(before | bit)) { // others of the group have yet to arrive
        sim_thread *next = t + 1;
        if (!next->phase && can_run(*w, *next)) { // parked: it resumes elsewhere (see syncthreads)
            w->cur = next;
            threadIdx = next->tid;
            return fiber_switch_jump(&t->ctx, &next->ctx, next->result);
        }
        return run_next(w, &t->ctx, next);
    }
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

// ---------------------------------------------------------------------------
// Cooperative groups (include/cooperative_groups.h): coalesced_threads() and
// grid.sync().
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

} // namespace gpulab_sim
