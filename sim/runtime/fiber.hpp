// fiber.hpp — the simulator's fibers: one per GPU thread of a block that can
// reach a barrier or warp function. A fiber runs on its own stack (pooled, with
// a guard page below it) and switches to the block scheduler and back with a
// hand-written context switch (x86-64, AArch64) or ucontext elsewhere.
#ifndef GPULAB_SIM_FIBER_HPP
#define GPULAB_SIM_FIBER_HPP

#include <cstddef>
#include <vector>

// The portable fallback; the build can force it (GPULAB_SIM_UCONTEXT=ON) to test it.
#if defined(GPULAB_SIM_FIBER_UCONTEXT) || (!defined(__x86_64__) && !defined(__aarch64__))
#include <ucontext.h>
#ifndef GPULAB_SIM_FIBER_UCONTEXT
#define GPULAB_SIM_FIBER_UCONTEXT 1
#endif
#endif

namespace gpulab_sim
{

// A saved execution context.
struct fiber_context {
#ifdef GPULAB_SIM_FIBER_UCONTEXT
    ucontext_t uc;
#else
    void *sp = nullptr;
#endif
};

#ifdef GPULAB_SIM_FIBER_UCONTEXT
// The value handed to the fiber being resumed (swapcontext passes none).
extern thread_local unsigned long long fiber_handoff;
#else
extern "C" unsigned long long gpulab_sim_fiber_swap(void **save_sp, void *load_sp,
                                                    unsigned long long value);
extern "C" unsigned long long gpulab_sim_fiber_swap_jump(void **save_sp, void *load_sp,
                                                         unsigned long long value);
#endif

// Saves the running context into `from` and resumes `to`, where the
// fiber_switch that suspended `to` returns `value` (a fiber that starts gets
// none). A caller that returns what fiber_switch returns can make it a tail
// call: the resumed fiber returns `value` from that caller directly.
inline unsigned long long fiber_switch(fiber_context *from, fiber_context *to,
                                       unsigned long long value = 0)
{
#ifdef GPULAB_SIM_FIBER_UCONTEXT
    fiber_handoff = value;
    swapcontext(&from->uc, &to->uc);
    return fiber_handoff;
#else
    return gpulab_sim_fiber_swap(&from->sp, to->sp, value);
#endif
}

// fiber_switch for a switch whose target waits somewhere else than the call
// that entered the switch (see gpulab_sim_fiber_swap_jump): the same effect,
// better predicted. fiber_switch where the platform has no such variant.
inline unsigned long long fiber_switch_jump(fiber_context *from, fiber_context *to,
                                            unsigned long long value = 0)
{
#if !defined(GPULAB_SIM_FIBER_UCONTEXT) && defined(__x86_64__)
    return gpulab_sim_fiber_swap_jump(&from->sp, to->sp, value);
#else
    return fiber_switch(from, to, value);
#endif
}

// Prepares `ctx` to start `entry(arg)` on the given stack when first resumed.
// entry must never return (it switches away for good instead).
void fiber_prepare(fiber_context *ctx, void *stack_base, size_t stack_size, void (*entry)(void *),
                   void *arg);

// Stacks for the fibers of one worker thread, reused from block to block.
class stack_pool
{
  public:
    explicit stack_pool(size_t stack_size);
    ~stack_pool();
    stack_pool(const stack_pool &) = delete;
    stack_pool &operator=(const stack_pool &) = delete;
    // Base of stack i (allocated on first use); nullptr when out of memory.
    void *stack(size_t i);
    size_t stack_size() const
    {
        return size_;
    }
    // Whether addr lies in the guard page of one of the stacks.
    bool in_guard(const void *addr) const;

  private:
    size_t size_;
    size_t page_;
    std::vector<void *> maps_; // each: guard page + stack
};

} // namespace gpulab_sim

#endif
