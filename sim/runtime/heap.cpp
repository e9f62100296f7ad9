// heap.cpp — malloc, free and printf called in a kernel, as a GPU has them.
//
// malloc draws on the device's heap: cudaLimitMallocHeapSize bytes (8 MiB
// unless the program sets it before its first kernel that calls malloc), in
// blocks of device memory (memory.cpp), so that host code cannot touch them
// and memcheck checks their bounds. When the heap is spent, malloc gives
// NULL, as on a GPU. free takes a heap block back; any other pointer is the
// program's bug, reported.
//
// printf's output goes to the device's printf buffer, cudaLimitPrintfFifoSize
// bytes (1 MiB), and is shown when the kernel ends. A GPU's buffer is
// circular: what does not fit overwrites the oldest output. Here too whole
// calls are dropped from the front until the rest fits (counted by their
// text, where a GPU counts a record of the format and its arguments), and
// a line on stderr says how much was lost; a GPU loses it without a word.
//
// Host code (no kernel running on the calling thread) gets the C library's
// functions.
#include "exec.hpp"
#include "internal.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>

namespace gpulab_sim
{
namespace
{

struct printf_buffer {
    std::mutex m;
    std::deque<std::string> calls; // the output of each printf, oldest first
    size_t bytes = 0;              // in calls
    size_t lost_bytes = 0;         // overwritten since the last flush
    size_t lost_calls = 0;
    const char *kernel = nullptr; // the last kernel that printed
};

printf_buffer buffers[16];

printf_buffer &buffer_of(int d)
{
    return buffers[d >= 0 && d < 16 ? d : 0];
}

} // namespace

void device_printf_flush(int d)
{
    printf_buffer &b = buffer_of(d);
    std::deque<std::string> calls;
    size_t lost_bytes, lost_calls;
    const char *kernel;
    {
        std::lock_guard<std::mutex> lock(b.m);
        if (b.calls.empty() && !b.lost_calls)
            return;
        calls.swap(b.calls);
        lost_bytes = b.lost_bytes;
        lost_calls = b.lost_calls;
        kernel = b.kernel;
        b.bytes = b.lost_bytes = b.lost_calls = 0;
    }
    if (lost_calls) {
        fflush(stdout);
        report("kernel %s: its printf output did not fit the device's printf buffer "
               "(cudaLimitPrintfFifoSize, %zu bytes): the oldest %zu bytes, from %zu calls, were "
               "overwritten, as a GPU overwrites them (set a larger buffer with "
               "cudaDeviceSetLimit before the first launch, or print less)",
               kernel ? kernel : "?", device_limit(cudaLimitPrintfFifoSize), lost_bytes,
               lost_calls);
    }
    for (const std::string &s : calls)
        fwrite(s.data(), 1, s.size(), stdout);
    fflush(stdout);
}

} // namespace gpulab_sim

using namespace gpulab_sim;

extern "C" {

void *gpulab_sim_malloc(size_t size) noexcept
{
    job *j = current_job();
    if (!j)
        return malloc(size);
    return heap_alloc(j->device, size, device_limit(cudaLimitMallocHeapSize));
}

void gpulab_sim_free(void *p) noexcept
{
    job *j = current_job();
    if (!j) {
        if (p && arena_of(p) >= 0) {
            report("free(%p) in host code: that is device memory (cudaFree frees what cudaMalloc "
                   "gave, free in a kernel what malloc in a kernel gave); ignored",
                   p);
            return;
        }
        free(p);
        return;
    }
    if (!p || heap_free(p))
        return;
    report("kernel %s: free(%p) in a kernel: not a pointer that malloc in a kernel returned, "
           "or freed already (a GPU's behaviour is undefined); ignored",
           j->req.kernel_name, p);
}

int gpulab_sim_printf(const char *format, ...) noexcept
{
    va_list ap;
    va_start(ap, format);
    job *j = current_job();
    if (!j) {
        int n = vprintf(format, ap);
        va_end(ap);
        return n;
    }
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(nullptr, 0, format, ap);
    va_end(ap);
    size_t limit = device_limit(cudaLimitPrintfFifoSize);
    std::string text;
    if (n > 0 && (size_t)n <= limit) {
        text.resize((size_t)n);
        vsnprintf(&text[0], (size_t)n + 1, format, again);
    }
    va_end(again);
    if (n <= 0)
        return n;
    printf_buffer &b = buffer_of(j->device);
    std::lock_guard<std::mutex> lock(b.m);
    b.kernel = j->req.kernel_name;
    if (text.empty()) { // one call larger than the whole buffer
        b.lost_bytes += (size_t)n;
        b.lost_calls++;
        return n;
    }
    b.bytes += text.size();
    b.calls.push_back(std::move(text));
    while (b.bytes > limit) {
        b.bytes -= b.calls.front().size();
        b.lost_bytes += b.calls.front().size();
        b.lost_calls++;
        b.calls.pop_front();
    }
    return n;
}

} // extern "C"
