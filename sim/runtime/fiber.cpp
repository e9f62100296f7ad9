// fiber.cpp — context switch and stacks for the simulator's fibers.
#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#ifndef GPULAB_SIM_FIBER_UCONTEXT
// First code a fresh fiber runs: calls entry(arg) from the saved registers.
extern "C" void gpulab_sim_fiber_start(void);
#endif

namespace gpulab_sim
{

#ifdef GPULAB_SIM_FIBER_UCONTEXT

thread_local unsigned long long fiber_handoff;

void fiber_prepare(fiber_context *ctx, void *stack_base, size_t stack_size, void (*entry)(void *),
                   void *arg)
{
    getcontext(&ctx->uc);
    ctx->uc.uc_stack.ss_sp = stack_base;
    ctx->uc.uc_stack.ss_size = stack_size;
    ctx->uc.uc_link = nullptr;
    // makecontext passes int arguments: split the pointers in two halves.
    uintptr_t e = (uintptr_t)entry, a = (uintptr_t)arg;
    makecontext(
        &ctx->uc,
        (void (*)()) +
            [](unsigned eh, unsigned el, unsigned ah, unsigned al) {
                auto fn = (void (*)(void *))(((uintptr_t)eh << 32) | el);
                fn((void *)(((uintptr_t)ah << 32) | al));
            },
        4, (unsigned)(e >> 32), (unsigned)e, (unsigned)(a >> 32), (unsigned)a);
}

#else

void fiber_prepare(fiber_context *ctx, void *stack_base, size_t stack_size, void (*entry)(void *),
                   void *arg)
{
    uintptr_t top = ((uintptr_t)stack_base + stack_size) & ~(uintptr_t)15;
    uintptr_t *sp;
#if defined(__x86_64__)
    // From low to high addresses, what gpulab_sim_fiber_swap pops:
    // r15, r14, r13, r12, rbx, rbp, return address.
    sp = (uintptr_t *)(top - 64);
    sp[0] = 0;                // r15
    sp[1] = 0;                // r14
    sp[2] = (uintptr_t)arg;   // r13: argument
    sp[3] = (uintptr_t)entry; // r12: entry
    sp[4] = 0;                // rbx
    sp[5] = 0;                // rbp
    sp[6] = (uintptr_t)gpulab_sim_fiber_start;
    sp[7] = 0;
#elif defined(__aarch64__)
    // 176 bytes: x19..x30 (12 registers), d8..d15 (8), 16 spare for alignment.
    sp = (uintptr_t *)(top - 176);
    memset(sp, 0, 176);
    sp[0] = (uintptr_t)entry;                   // x19
    sp[1] = (uintptr_t)arg;                     // x20
    sp[11] = (uintptr_t)gpulab_sim_fiber_start; // x30: where ret goes
#endif
    ctx->sp = sp;
}

#endif

stack_pool::stack_pool(size_t stack_size)
{
    page_ = (size_t)sysconf(_SC_PAGESIZE);
    size_ = (stack_size + page_ - 1) / page_ * page_;
}

stack_pool::~stack_pool()
{
    for (void *m : maps_)
        munmap(m, size_ + page_);
}

void *stack_pool::stack(size_t i)
{
    while (maps_.size() <= i) {
        void *m = mmap(nullptr, size_ + page_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (m == MAP_FAILED)
            return nullptr;
        mprotect(m, page_, PROT_NONE); // guard page: a stack overflow faults here
        maps_.push_back(m);
    }
    return (char *)maps_[i] + page_;
}

bool stack_pool::in_guard(const void *addr) const
{
    uintptr_t a = (uintptr_t)addr;
    for (void *m : maps_)
        if (a >= (uintptr_t)m && a < (uintptr_t)m + page_)
            return true;
    return false;
}

} // namespace gpulab_sim
