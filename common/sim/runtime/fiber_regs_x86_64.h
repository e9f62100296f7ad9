/* The callee-saved registers of x86-64 System V as every fiber switch saves
 * them (fiber_x86_64.S, fiber_loop_x86_64.S): pushed in this order on the
 * suspended fiber's stack, popped in the reverse from the resumed one's. A
 * fresh fiber's stack is laid out the same way (fiber.cpp). Assembler macros,
 * for .S files only. */
    .macro PUSH_CALLEE_SAVED
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    .endm

    .macro POP_CALLEE_SAVED
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    .endm
