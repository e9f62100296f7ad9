// internal.hpp — the simulator runtime's internal interface, shared by its
// source files (errors, devices, memory, streams, launches, cuBLAS). Not seen
// by lab code: lab code sees only the stand-in CUDA headers.
#ifndef GPULAB_SIM_INTERNAL_HPP
#define GPULAB_SIM_INTERNAL_HPP

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>

namespace gpulab_sim
{

// ---------------------------------------------------------------------------
// Errors (errors.cpp)

// Records e as this host thread's last error when it is not cudaSuccess; returns e.
// Under memcheck, an error is also reported as compute-sanitizer reports a
// failed API call, naming `api` (by default the function calling record).
cudaError_t record(cudaError_t e, const char *api = __builtin_FUNCTION());
// The sticky error of device d (cudaSuccess when none).
cudaError_t sticky(int d);
// Makes e the sticky error of device d: every later call on it fails with e
// until cudaDeviceReset. The first sticky error wins.
void set_sticky(int d, cudaError_t e);
void clear_sticky(int d);
// Forgets this host thread's last error (cudaDeviceReset).
void clear_last_error();
// Prints "gpulab-sim: <message>" on stderr (one line, flushed), for reports
// that explain an error to the student.
void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// Says once per process, on stderr, that `what` is not supported by the
// simulator; returns cudaErrorNotSupported (recorded).
cudaError_t unsupported(const char *what);

// ---------------------------------------------------------------------------
// Kernels known by address (launch_args.cpp)

// The sizes of a registered kernel's parameters; false when addr is none.
bool kernel_params(const void *addr, const size_t **sizes, int *n);
// cudaLaunchKernel under another call's name (a graph's kernel node).
cudaError_t launch_kernel_at(const char *api, const void *func, dim3 grid, dim3 block, void **args,
                             size_t shmem, cudaStream_t stream);

// ---------------------------------------------------------------------------
// Devices (device.cpp)

int device_count();   // simulated devices: GPULAB_SIM_DEVICES, default 1
int current_device(); // this host thread's current device (cudaSetDevice)
bool valid_device(int d);
bool peer_enabled(int from, int to); // may device `from` access memory of `to`?
// Whether p is memory from a pool that cudaMemPoolSetAccess opened to device d
// (mempool.cpp).
bool pool_grants_access(const void *p, int d);
// Common entry of API calls that work on the current device: returns the
// sticky error (recorded) or cudaSuccess; *d receives the current device.
cudaError_t enter(int *d, const char *api = __builtin_FUNCTION());
// A limit of cudaDeviceSetLimit (cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize),
// for a kernel that uses it: from then on it can no longer be set.
size_t device_limit(cudaLimit which);

// ---------------------------------------------------------------------------
// Memory (memory.cpp)

// A live device (or managed) allocation.
struct allocation {
    uintptr_t base = 0;
    size_t size = 0;
    int device = -1;
    bool managed = false;
    // The call that made it: "cudaMalloc" and the like, and its place in the
    // program (null and 0 when the call did not go through cuda_runtime.h).
    const char *api = nullptr;
    const char *file = nullptr;
    int line = 0;
    const char *function = nullptr;
};
// The live allocation containing p, if any.
bool find_allocation(const void *p, allocation *out);
// Which simulated device's arena p lies in (allocated or not); -1 if none.
int arena_of(const void *p);
// Whether [p, p + bytes) is inside one live allocation.
bool range_in_allocation(const void *p, size_t bytes, allocation *out);
// Whether p lies in host memory the runtime allocated or registered (pinned).
bool is_pinned_host(const void *p);
// Whether p is a __device__/__constant__ variable handed out by cudaGetSymbolAddress.
bool is_symbol(const void *p);
// What malloc in a kernel allocates (an allocation's api).
extern const char heap_api[];
// A block of device d's heap (malloc in a kernel): `size` bytes of its device
// memory, while the heap's `limit` bytes allow; null when they do not.
void *heap_alloc(int d, size_t size, size_t limit);
// Frees a heap block (free in a kernel); false when p is not one.
bool heap_free(void *p);
// Shows the kernels' printf output of device d kept so far (heap.cpp).
void device_printf_flush(int d);
// Frees the allocation starting at p, as cudaFree does once the device is
// idle (api names the call in reports); cudaErrorInvalidValue, reported,
// when p starts none.
cudaError_t free_allocation(void *p, const char *api);
// Device memory of `size` bytes on device d (null when it does not fit),
// recorded as made by `api` at the call site cuda_runtime.h passed.
void *allocate_on(int d, size_t size, const char *api);
// Frees every allocation of device d (cudaDeviceReset).
void free_all(int d);
// Bytes allocated on device d, and the size of its arena.
size_t used_bytes(int d);
size_t arena_bytes(int d);
// For the report of a host access to device memory, from a signal handler:
// 1 and *out when p is in a live allocation, 0 when not, -1 when the
// allocations could not be looked at (their lock stayed taken).
int fault_allocation(const void *p, allocation *out);

// ---------------------------------------------------------------------------
// Host code and device memory (protect.cpp)
//
// Host code that touches device memory faults, as on a GPU: each device's
// memory is kept inaccessible while no operation of the runtime uses it.
// Kernels and cuBLAS calls open all of it, for a run of them on an executor
// (device_memory_batch_open); copies and sets, and the runtime's own
// host-side fills, open only the bytes they touch. Opens nest; the last
// close closes.

// Device memory is on huge pages of this size where the system gives them
// (memory.cpp asks), and is opened and closed in whole ones (protect.cpp).
constexpr size_t device_huge_page = (size_t)2 << 20; // x86-64's and AArch64's usual
// Device d's memory is [base, base + size); mapped, and closed from now on.
void protect_device_memory(int d, uintptr_t base, size_t size);
// Allocations of device d now reach up to `end`.
void device_memory_grow(int d, uintptr_t end);
void device_memory_open();
void device_memory_close();
// [p, p + n), when it is device memory (nothing otherwise).
void device_memory_open(const void *p, size_t n);
void device_memory_close(const void *p, size_t n);
// On an executor thread: opens all device memory until the executor's queue
// is empty (kernels, cuBLAS calls: a run of them pays once).
void device_memory_batch_open();
// On the executor thread, before it says that its last queued op is done:
// closes what device_memory_batch_open opened.
void device_memory_batch_close();
struct device_memory_scope {
    device_memory_scope(const void *p, size_t n) : p_(p), n_(n)
    {
        device_memory_open(p, n);
    }
    ~device_memory_scope()
    {
        device_memory_close(p_, n_);
    }
    const void *p_;
    size_t n_;
    device_memory_scope(const device_memory_scope &) = delete;
    device_memory_scope &operator=(const device_memory_scope &) = delete;
};
// A fault of host code: when `addr` is device memory, reports the access
// (the host line, the pointer, its allocation) and ends the program with
// SIGSEGV; returns when it is not, for the caller to handle. `pc` is the
// faulting instruction (0 if unknown), `write` 1, 0 or -1 (not known).
void host_fault(uintptr_t addr, uintptr_t pc, int write);
// Whether addr lies in some device's memory (not managed memory).
bool in_device_memory(uintptr_t addr);
// The check twin's hooks saw host code access device memory: the report
// and SIGSEGV, with the access's size and its place (file:line).
[[noreturn]] void host_access(uintptr_t addr, size_t size, int write, const char *where);
// SIGSEGV and SIGBUS go to the simulator's handler (fault.cpp): a fault in
// a kernel is the kernel's, a fault of host code in device memory is
// reported, any other is the usual crash.
void install_fault_handler();
// " at file:line" of the instruction at pc when the program has line
// information and addr2line is there; else "". `known` lists source files
// the answer may stand for (fault.cpp).
std::string source_line(uintptr_t pc, std::initializer_list<const char *> known);

// ---------------------------------------------------------------------------
// Streams and the device executor (stream.cpp)

// Resolves a stream handle (0, cudaStreamLegacy, cudaStreamPerThread or a
// created stream) to its device; false for an invalid or destroyed handle.
bool stream_device(cudaStream_t s, int *d);
// Queues fn on stream s (in order with the stream's other work, and with the
// legacy default stream's semantics); returns at once. fn runs on the device's
// executor thread; it returns the error it met (cudaSuccess normally). That
// error becomes the device's sticky error when the host synchronizes with the
// op (stream_sync, device_sync, an event or a query), never earlier; ops
// queued after it are skipped.
cudaError_t enqueue(cudaStream_t s, const char *what, std::function<cudaError_t()> fn);
// Stream capture (graph.cpp drives it): the graph s is being captured into
// (null when none); makes s capture into g (null: stop); stops every stream
// capturing into g.
cudaGraph_t stream_capture(cudaStream_t s);
cudaError_t stream_capture_set(cudaStream_t s, cudaGraph_t g);
void stream_capture_end(cudaGraph_t g);
// Graphs (graph.cpp): work queued on a stream being captured becomes a node of
// g, after the capture's last node; a kernel launch's node makes a fresh
// launch on the stream the graph is launched on.
cudaError_t graph_capture(cudaGraph_t g, const char *what, std::function<cudaError_t()> fn);
// What a graph's memory-allocation node allocates (an allocation's api):
// kept for the program's life, left out of the leak check.
extern const char graph_memory_api[];
cudaError_t graph_capture_launch(cudaGraph_t g, const char *what,
                                 std::function<cudaError_t(cudaStream_t)> launch);
// Waits until everything queued on s so far has run; returns the sticky error.
cudaError_t stream_sync(cudaStream_t s);
// Waits until everything queued on device d so far has run; returns the sticky error.
cudaError_t device_sync(int d);
// Destroys every stream and event of device d and forgets the error its work
// raised (cudaDeviceReset, after device_sync).
void destroy_streams(int d);

// ---------------------------------------------------------------------------
// Per-kernel traits, registered by the launch rewriter's output
// (GPULAB_SIM_KERNEL_TRAITS): whether the kernel can reach a barrier or a
// warp-level function, and so must run each thread as a fiber.
void register_kernel(const void *addr, const char *name, int sync);
// 1 sync, 0 plain, -1 unknown.
int kernel_sync(const void *addr);
// Whether the calling thread is running a kernel now.
bool in_kernel();
// Largest dynamic shared memory a launch of the kernel may ask for
// (48 KiB unless raised with cudaFuncSetAttribute).
size_t dynamic_shared_limit(const void *kernel);

} // namespace gpulab_sim

#endif
