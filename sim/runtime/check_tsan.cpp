// check_tsan.cpp — how the check mode sees every access: the twin's kernel
// code is compiled with -fsanitize=thread, and the hooks it calls are defined
// here (the TSan runtime is never linked). Each access is sorted by where it
// goes (the launch's arguments, shared memory, device memory, the stack, the
// program's globals, host memory) and handed to the checks on.
#include "check_internal.hpp"

#include <cstring>

namespace gpulab_sim
{
namespace checks
{

// threadIdx, blockIdx, blockDim and gridDim: read by every kernel, never checked.
bool is_builtin(uintptr_t a)
{
    return a - (uintptr_t)&threadIdx < sizeof(uint3) || a - (uintptr_t)&blockIdx < sizeof(uint3) ||
           a - (uintptr_t)&blockDim < sizeof(dim3) || a - (uintptr_t)&gridDim < sizeof(dim3);
}

inline void check_access(const void *p, size_t size, bool write, uintptr_t pc, bool atomic = false)
{
    checker *c = ck;
    uintptr_t a = (uintptr_t)p;
    if (!c || !c->in_kernel) {
        // Host code: device memory is out of its reach (protect.cpp), even
        // while work it queued runs.
        if (a >= arenas_lo && a < arenas_hi && in_device_memory(a))
            host_access(a, size, write, location(pc).c_str());
        return;
    }
    if (a >= c->task_lo && a < c->task_hi)
        return; // the kernel's arguments
    if (a >= c->tls_lo && a < c->tls_hi) {
        if (is_builtin(a))
            return;
        if (tools & CHECK_STATS)
            count_access(c, false, write, a, size, pc);
        if (tools & (CHECK_MEM | CHECK_RACE | CHECK_INIT))
            check_shared(a, size, write, pc, atomic);
        return;
    }
    if (device_shadow *s = shadow_for(a)) {
        if (tools & CHECK_STATS)
            count_access(c, true, write, a, size, pc);
        if (tools & (CHECK_MEM | CHECK_INIT))
            check_global(a, size, write, pc, s);
        return;
    }
    shared_place place;
    if (static_shared_find(a, &place)) {
        if (tools & CHECK_STATS)
            count_access(c, false, write, a, size, pc);
        if (tools & (CHECK_MEM | CHECK_RACE | CHECK_INIT))
            check_shared(a, size, write, pc, atomic, &place);
        return;
    }
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if ((a >= sp && a < sp + (1u << 20)) || (a >= c->stack_lo && a < c->stack_hi))
        return;                          // local memory: this thread's stack
    if (a >= image_lo && a < image_hi) { // __device__ and __constant__ variables
        const char *name;
        if (write && (tools & CHECK_MEM) && (name = constant_at(a)) != nullptr) {
            char why[256];
            snprintf(why, sizeof(why),
                     "is in the __constant__ variable %s: kernels only read constant memory "
                     "(a write through a pointer is undefined on a GPU); the host sets it with "
                     "cudaMemcpyToSymbol",
                     name);
            invalid(GLOBAL, write, size, a, pc, why);
        }
        return;
    }
    if (is_pinned_host(p) || is_symbol(p))
        return; // mapped host memory
    if (!(tools & CHECK_MEM))
        return;
    if (a < 65536) // the first 64 KiB are never mapped: a null pointer, or an index off one
        invalid(GLOBAL, write, size, a, pc,
                a ? "is out of bounds: a null pointer plus an offset (was the pointer ever set "
                    "by cudaMalloc?)"
                  : "is out of bounds: a null pointer (was the pointer ever set by cudaMalloc?)");
    invalid(GLOBAL, write, size, a, pc,
            "is a host pointer: host memory is not accessible from a kernel");
}
} // namespace checks
} // namespace gpulab_sim

// ---------------------------------------------------------------------------
// The hooks GCC's -fsanitize=thread calls. Names and signatures are those of
// the TSan interface; nothing else of TSan is used.

using gpulab_sim::checks::check_access;

extern "C" {

void __tsan_init(void)
{
    gpulab_sim::checks::instrumented = true;
}
void __tsan_func_entry(void *) {}
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **, void *) {}
void __tsan_vptr_read(void **) {}

#define GPULAB_TSAN_RW(n)                                                                          \
    void __tsan_read##n(void *p)                                                                   \
    {                                                                                              \
        check_access(p, n, false, (uintptr_t)__builtin_return_address(0));                         \
    }                                                                                              \
    void __tsan_write##n(void *p)                                                                  \
    {                                                                                              \
        check_access(p, n, true, (uintptr_t)__builtin_return_address(0));                          \
    }                                                                                              \
    void __tsan_unaligned_read##n(void *p)                                                         \
    {                                                                                              \
        check_access(p, n, false, (uintptr_t)__builtin_return_address(0));                         \
    }                                                                                              \
    void __tsan_unaligned_write##n(void *p)                                                        \
    {                                                                                              \
        check_access(p, n, true, (uintptr_t)__builtin_return_address(0));                          \
    }
GPULAB_TSAN_RW(1)
GPULAB_TSAN_RW(2)
GPULAB_TSAN_RW(4)
GPULAB_TSAN_RW(8)
GPULAB_TSAN_RW(16)

void __tsan_read_range(void *p, unsigned long n)
{
    check_access(p, n, false, (uintptr_t)__builtin_return_address(0));
}
void __tsan_write_range(void *p, unsigned long n)
{
    check_access(p, n, true, (uintptr_t)__builtin_return_address(0));
}

// Block copies and sets. Clang's -fsanitize=thread turns a copy it does not
// split into loads and stores (a 16-byte struct assigned whole, an explicit
// memcpy) into a call: to memcpy, memmove or memset up to LLVM 14, whose
// references gpulab-sim-plain-copy renames to these names in the twin's
// instrumented objects, and to these names themselves from LLVM 15 on. They
// check the bytes read and written as one access each, as the hooks above,
// then copy.
static inline void check_copy(void *d, const void *s, size_t n, uintptr_t pc)
{
    if (n) {
        check_access(s, n, false, pc);
        check_access(d, n, true, pc);
    }
}
void *__tsan_memcpy(void *d, const void *s, size_t n)
{
    check_copy(d, s, n, (uintptr_t)__builtin_return_address(0));
    return memcpy(d, s, n);
}
void *__tsan_memmove(void *d, const void *s, size_t n)
{
    check_copy(d, s, n, (uintptr_t)__builtin_return_address(0));
    return memmove(d, s, n);
}
void *__tsan_memset(void *d, int c, size_t n)
{
    if (n)
        check_access(d, n, true, (uintptr_t)__builtin_return_address(0));
    return memset(d, c, n);
}

// Atomics: checked as a read and a write of the location (no race reports
// between atomics), then done for real.
#define GPULAB_TSAN_ATOMIC(bits, T)                                                                \
    T __tsan_atomic##bits##_load(const volatile T *a, int)                                         \
    {                                                                                              \
        check_access((void *)a, sizeof(T), false, (uintptr_t)__builtin_return_address(0), true);   \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                               \
    }                                                                                              \
    void __tsan_atomic##bits##_store(volatile T *a, T v, int)                                      \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                  \
    }                                                                                              \
    GPULAB_TSAN_RMW(bits, T, exchange, __atomic_exchange_n)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_add, __atomic_fetch_add)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_and, __atomic_fetch_and)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_or, __atomic_fetch_or)                                          \
    GPULAB_TSAN_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                                        \
    GPULAB_TSAN_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                                      \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int, int)          \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);    \
    }                                                                                              \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int, int)            \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);     \
    }                                                                                              \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int, int)                \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
        return c;                                                                                  \
    }
#define GPULAB_TSAN_RMW(bits, T, name, op)                                                         \
    T __tsan_atomic##bits##_##name(volatile T *a, T v, int)                                        \
    {                                                                                              \
        check_access((void *)a, sizeof(T), true, (uintptr_t)__builtin_return_address(0), true);    \
        return op(a, v, __ATOMIC_SEQ_CST);                                                         \
    }
GPULAB_TSAN_ATOMIC(8, unsigned char)
GPULAB_TSAN_ATOMIC(16, unsigned short)
GPULAB_TSAN_ATOMIC(32, unsigned int)
GPULAB_TSAN_ATOMIC(64, unsigned long long)

void __tsan_atomic_thread_fence(int)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

} // extern "C"
