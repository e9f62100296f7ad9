/* Context switch of the simulator's fibers, AArch64 (AAPCS64).
 * gpulab_sim_fiber_swap(void **save_sp, void *load_sp, uint64_t value): saves
 * x19-x30 and d8-d15 on the running stack, stores sp in *save_sp, switches to
 * load_sp and restores the same layout from there; the call that suspended the
 * resumed fiber returns `value` (x2, into x0). */
#if defined(__aarch64__)
    .text
    .globl gpulab_sim_fiber_swap
    .type gpulab_sim_fiber_swap, %function
gpulab_sim_fiber_swap:
    sub sp, sp, #176
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x3, sp
    str x3, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #176
    mov x0, x2
    ret
    .size gpulab_sim_fiber_swap, .-gpulab_sim_fiber_swap

/* A fresh fiber starts here with entry in x19 and its argument in x20. */
    .globl gpulab_sim_fiber_start
    .type gpulab_sim_fiber_start, %function
gpulab_sim_fiber_start:
    mov x0, x20
    blr x19
    brk #0
    .size gpulab_sim_fiber_start, .-gpulab_sim_fiber_start
#endif
    .section .note.GNU-stack,"",%progbits
