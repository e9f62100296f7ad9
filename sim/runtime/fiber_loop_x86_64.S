/* The loop of a fiber that runs simulated threads, x86-64 System V (see
 * exec.hpp, GPULAB_SIM_FIBER_LOOP): part of the runtime, which defines
 * gpulab_sim_fiber_step (block.cpp); fiber_x86_64.S is the plain switch.
 * Nothing here under GPULAB_SIM_FIBER_UCONTEXT (fiber_main runs the loop). */
#if defined(__x86_64__) && !defined(GPULAB_SIM_FIBER_UCONTEXT)
#include "fiber_regs_x86_64.inc"
    .text
/* gpulab_sim_fiber_loop(sim_thread *t): the loop a fiber runs on x86-64 (see
 * exec.hpp). gpulab_sim_fiber_step(t) returns the function to call and its
 * argument (%rax, %rdx); the one `call *%rax` below calls the thread's kernel
 * and, once it has returned, gpulab_sim_fiber_exit_swap. */
    .globl gpulab_sim_fiber_loop
    .type gpulab_sim_fiber_loop, @function
gpulab_sim_fiber_loop:
    .cfi_startproc
    .cfi_undefined rip
    movq %rdi, %rbx
    subq $8, %rsp
1:
    movq %rbx, %rdi
    callq gpulab_sim_fiber_step@PLT
    movq %rdx, %rdi
    callq *%rax
    jmp 1b
    .cfi_endproc
    .size gpulab_sim_fiber_loop, .-gpulab_sim_fiber_loop

/* gpulab_sim_fiber_exit_swap(sim_thread *t): t has exited; switches from its
 * fiber to that of the next thread, t + 1 (sim_threads are 64 bytes, the
 * context first: block.cpp asserts it), which resumes with its `result`
 * (offset 24), through an indirect jump (see gpulab_sim_fiber_swap_jump).
 * The fiber of t resumes later in gpulab_sim_fiber_loop, for its next thread. */
    .globl gpulab_sim_fiber_exit_swap
    .type gpulab_sim_fiber_exit_swap, @function
gpulab_sim_fiber_exit_swap:
    .cfi_startproc
    PUSH_CALLEE_SAVED
    movq %rsp, (%rdi)
    movq 64(%rdi), %rsp
    movq 88(%rdi), %rax
    POP_CALLEE_SAVED
    popq %rcx
    jmpq *%rcx
    .cfi_endproc
    .size gpulab_sim_fiber_exit_swap, .-gpulab_sim_fiber_exit_swap
#endif
    .section .note.GNU-stack,"",@progbits
