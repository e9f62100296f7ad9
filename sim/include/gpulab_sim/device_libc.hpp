// gpulab_sim/device_libc.hpp — the C library as a kernel sees it: clock()
// and clock64() count the simulated clock, malloc and free use the device's
// heap, printf the device's printf buffer (sim/runtime/heap.cpp).
// Host code calling them gets the C library's own.
#ifndef GPULAB_SIM_DEVICE_LIBC_HPP
#define GPULAB_SIM_DEVICE_LIBC_HPP

// clock() in a kernel counts cycles of the simulated SM clock, as on a GPU
// (host code keeps the C library's clock()). <time.h> is included first so
// its own declaration is not renamed.
#include <ctime>
#include <time.h>
extern "C" clock_t gpulab_sim_clock(void);
namespace std
{
using ::gpulab_sim_clock;
}
#define clock() gpulab_sim_clock()

// malloc, free and printf in a kernel are the device's (heap.cpp): malloc
// draws on a heap of cudaLimitMallocHeapSize bytes (8 MiB by default) in
// device memory and gives NULL when it is spent; printf's output goes to a
// buffer of cudaLimitPrintfFifoSize bytes (1 MiB) shown when the kernel ends.
// Host code calling them gets the C library's. The C headers come first so
// their declarations are not renamed; the runtime's own sources keep the C
// library's names.
#ifndef GPULAB_SIM_RUNTIME_BUILD
#include <cstdio>
#include <cstdlib>
#include <stdio.h>
#include <stdlib.h>
extern "C" void *gpulab_sim_malloc(size_t size) noexcept;
extern "C" void gpulab_sim_free(void *p) noexcept;
extern "C" int gpulab_sim_printf(const char *format, ...) noexcept
    __attribute__((format(printf, 1, 2)));
namespace std
{
using ::gpulab_sim_free;
using ::gpulab_sim_malloc;
using ::gpulab_sim_printf;
} // namespace std
#define malloc(size) gpulab_sim_malloc(size)
#define free(p) gpulab_sim_free(p)
#define printf(...) gpulab_sim_printf(__VA_ARGS__)
#endif

static inline long long clock64(void)
{
    unsigned int lo, hi;
#if defined(__x86_64__)
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((long long)hi << 32) | lo;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    (void)lo;
    (void)hi;
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
#endif
}

#endif // GPULAB_SIM_DEVICE_LIBC_HPP
