/* Context switch of the simulator's fibers, x86-64 System V.
 * gpulab_sim_fiber_swap(void **save_sp, void *load_sp, uint64_t value): pushes
 * the callee-saved registers, stores %rsp in *save_sp, switches to load_sp and
 * pops the same layout from there; the call that suspended the resumed fiber
 * returns `value` (%rdx, into %rax). The SSE and x87 control words are not switched: kernels
 * do not change rounding modes, and every fiber starts with the thread's. */
#if defined(__x86_64__)
#include "fiber_regs_x86_64.inc"
    .text
    .globl gpulab_sim_fiber_swap
    .type gpulab_sim_fiber_swap, @function
gpulab_sim_fiber_swap:
    .cfi_startproc
    PUSH_CALLEE_SAVED
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    POP_CALLEE_SAVED
    movq %rdx, %rax
    ret
    .cfi_endproc
    .size gpulab_sim_fiber_swap, .-gpulab_sim_fiber_swap

/* gpulab_sim_fiber_swap_jump: the same switch, but the resumed fiber goes on
 * through an indirect jump to its return address instead of `ret`. A `ret`
 * is predicted from the return stack, which holds the call that entered the
 * switch: right when the resumed fiber waits at the same call (a barrier
 * every thread reaches), wrong when it waits elsewhere (a thread that exits
 * hands over to one waiting in the kernel; a barrier hands over to a fiber
 * parked between threads). The indirect jump is predicted from where such
 * switches went before, and leaves the return stack as it was. */
    .globl gpulab_sim_fiber_swap_jump
    .type gpulab_sim_fiber_swap_jump, @function
gpulab_sim_fiber_swap_jump:
    .cfi_startproc
    PUSH_CALLEE_SAVED
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    POP_CALLEE_SAVED
    movq %rdx, %rax
    popq %rcx
    jmpq *%rcx
    .cfi_endproc
    .size gpulab_sim_fiber_swap_jump, .-gpulab_sim_fiber_swap_jump

/* A fresh fiber starts here with entry in %r12 and its argument in %r13. */
    .globl gpulab_sim_fiber_start
    .type gpulab_sim_fiber_start, @function
gpulab_sim_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r13, %rdi
    andq $-16, %rsp
    callq *%r12
    ud2
    .cfi_endproc
    .size gpulab_sim_fiber_start, .-gpulab_sim_fiber_start
#endif
    .section .note.GNU-stack,"",@progbits
