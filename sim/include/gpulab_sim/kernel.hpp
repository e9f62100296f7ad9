// gpulab_sim/kernel.hpp — the device side of CUDA C for the simulator: what
// nvcc gives a .cu file for free (qualifiers, built-in variables, barriers,
// warp functions, atomics, intrinsics) and the typed launch the rewriter
// turns `k<<<g, b, s, st>>>(args)` into. Included by cuda_runtime.h in C++.
#ifndef GPULAB_SIM_KERNEL_HPP
#define GPULAB_SIM_KERNEL_HPP

#include "cuda_runtime_api.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

// Whether this file is compiled for a check twin (-fsanitize=thread): GCC says
// so with __SANITIZE_THREAD__, clang through __has_feature.
#if defined(__SANITIZE_THREAD__)
#define GPULAB_SIM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GPULAB_SIM_TSAN 1
#endif
#endif
#ifndef GPULAB_SIM_TSAN
#define GPULAB_SIM_TSAN 0
#endif

// ---------------------------------------------------------------------------
// Qualifiers. Kernels and device functions are ordinary functions; __shared__
// variables are per worker thread, and a worker runs one block at a time, so
// they are per block: in a function body the launch rewriter turns each one
// into GPULAB_SIM_STATIC_SHARED (below), a place in the worker's shared
// window with a guard page after it; elsewhere (file scope) __shared__ is
// thread-local storage. __constant__ and __device__ variables are ordinary
// globals (shared by every simulated device).
#define __global__
#define __device__
#define __host__
#define __shared__ static __thread
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
// Empty: libstdc++ spells the attribute __attribute__((__noinline__)), which a
// non-empty definition would break; losing the hint changes no result.
#define __noinline__
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__

// ---------------------------------------------------------------------------
// Built-in variables: set by the simulator for the running thread.
extern __thread uint3 threadIdx;
extern __thread uint3 blockIdx;
extern __thread dim3 blockDim;
extern __thread dim3 gridDim;
static constexpr int warpSize = 32;

namespace gpulab_sim
{

// ---------------------------------------------------------------------------
// Barriers and warp functions (barrier.cpp). `file` and `line` name the call
// for reports; `mask` is the warp mask of the *_sync functions.
void syncthreads(const char *file, int line);
int syncthreads_count(int pred, const char *file, int line);
void syncwarp(unsigned mask, const char *file, int line);
enum warp_op {
    SHFL_IDX,
    SHFL_UP,
    SHFL_DOWN,
    SHFL_XOR,
    BALLOT,
    ANY,
    ALL,
    MATCH_ANY,
    ACTIVEMASK,
    SYNCWARP,
    MATCH_ALL,
    REDUCE_ADD,
    REDUCE_MIN_S,
    REDUCE_MIN_U,
    REDUCE_MAX_S,
    REDUCE_MAX_U,
    REDUCE_AND,
    REDUCE_OR,
    REDUCE_XOR
};
// Exchanges a 64-bit value among the lanes of mask; returns this lane's result.
unsigned long long warp_exchange(warp_op op, unsigned mask, unsigned long long value, int arg,
                                 int width, const char *file, int line);
// Stops the running kernel from a thread (trap, failed assert).
[[noreturn]] void kernel_trap(cudaError_t why, const char *message);

template <class T>
inline T shfl(warp_op op, unsigned mask, T var, int arg, int width, const char *file, int line)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "warp shuffles move values of at most 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &var, sizeof(T));
    bits = warp_exchange(op, mask, bits, arg, width, file, line);
    T out;
    std::memcpy(&out, &bits, sizeof(T));
    return out;
}

// __match_any_sync and __match_all_sync: lanes compare the bits of values of
// 4 or 8 bytes, as match.sync does.
template <class T>
inline unsigned match_sync(warp_op op, unsigned mask, T var, int *pred, const char *file, int line)
{
    static_assert((sizeof(T) == 4 || sizeof(T) == 8) && std::is_trivially_copyable<T>::value,
                  "__match_*_sync compares values of 4 or 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &var, sizeof(T));
    unsigned r = (unsigned)warp_exchange(op, mask, bits, 0, 32, file, line);
    if (pred)
        *pred = r != 0;
    return r;
}

// __reduce_*_sync (compute capability 8.0): 32-bit integers; min and max
// compare as the value's type does.
inline unsigned reduce_sync(warp_op op, unsigned mask, unsigned v, const char *file, int line)
{
    if (op == REDUCE_MIN_S)
        op = REDUCE_MIN_U;
    else if (op == REDUCE_MAX_S)
        op = REDUCE_MAX_U;
    return (unsigned)warp_exchange(op, mask, v, 0, 32, file, line);
}
inline int reduce_sync(warp_op op, unsigned mask, int v, const char *file, int line)
{
    return (int)(unsigned)warp_exchange(op, mask, (unsigned)v, 0, 32, file, line);
}

// ---------------------------------------------------------------------------
// The typed launch. GPULAB_SIM_LAUNCH((k), "k", line, "args text")(g, b, s, st)(args)
// checks the configuration and the pointer arguments, copies the arguments
// (by value, converted to the kernel's parameter types, as a call would) and
// queues the kernel on its stream.

// How the runtime runs one launch's threads.
struct kernel_ops {
    void (*run_block)(void *task);  // every thread of the current block, in order
    void (*run_thread)(void *task); // the current thread only (fibers)
    void (*destroy)(void *task);
    size_t task_size;  // bytes of the task object (the check mode lets kernels read it)
    bool instrumented; // compiled for a check twin (each access calls the check's hooks)
};

struct launch_request {
    const void *kernel_addr;
    const char *kernel_name;
    const char *file;
    int line;
    const char *args_text; // the arguments as written, for naming them in reports
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
    int n_args;
    const void *const *pointers; // pointer-typed arguments, by parameter index (else null)
    const bool *is_pointer;
    void *task;
    const kernel_ops *ops;
};

// Validates and queues a launch; owns r.task from here on. Sets the last error.
void submit_launch(const launch_request &r);

// std::apply for C++11 and later (a .cu file may be compiled with -std=c++11).
template <std::size_t... I>
struct index_list {
};
template <std::size_t N, std::size_t... I>
struct make_index_list : make_index_list<N - 1, N - 1, I...> {
};
template <std::size_t... I>
struct make_index_list<0, I...> {
    typedef index_list<I...> type;
};
template <class Body, class Args, std::size_t... I>
inline void apply_args(const Body &body, Args &args, index_list<I...>)
{
    body(std::get<I>(args)...);
}
template <class Body, class Args>
inline void apply(const Body &body, Args &args)
{
    apply_args(body, args,
               typename make_index_list<
                   std::tuple_size<typename std::remove_const<Args>::type>::value>::type());
}

template <class Body, class Args>
struct task {
    Body body;
    Args args;
};

template <class Body, class Args>
void run_block(void *p)
{
    auto *t = static_cast<task<Body, Args> *>(p);
    const unsigned nx = blockDim.x, ny = blockDim.y, nz = blockDim.z;
#if GPULAB_SIM_TSAN
    for (unsigned z = 0; z < nz; z++)
        for (unsigned y = 0; y < ny; y++)
            for (unsigned x = 0; x < nx; x++) {
                // The check build's hooks read threadIdx, which the compiler
                // does not expect of them: store it for real before the body.
                *(volatile unsigned *)&threadIdx.x = x;
                *(volatile unsigned *)&threadIdx.y = y;
                *(volatile unsigned *)&threadIdx.z = z;
                ::gpulab_sim::apply(t->body, t->args);
            }
#else
    // The body reads the arguments from a copy that no store of the kernel can
    // reach, so they stay in registers; threadIdx.y and .z are stored by the
    // loop that changes them (kernels never write threadIdx).
    const Body body = t->body;
    const Args args = t->args;
    for (unsigned z = 0; z < nz; z++) {
        threadIdx.z = z;
        for (unsigned y = 0; y < ny; y++) {
            threadIdx.y = y;
            for (unsigned x = 0; x < nx; x++) {
                threadIdx.x = x;
                ::gpulab_sim::apply(body, args);
            }
        }
    }
#endif
}

template <class Body, class Args>
void run_thread(void *p)
{
    auto *t = static_cast<task<Body, Args> *>(p);
    ::gpulab_sim::apply(t->body, t->args);
}

template <class Body, class Args>
void destroy_task(void *p)
{
    delete static_cast<task<Body, Args> *>(p);
}

template <class T>
inline const void *pointer_or_null(const T &v, std::true_type)
{
    return (const void *)v;
}
template <class T>
inline const void *pointer_or_null(const T &, std::false_type)
{
    return nullptr;
}
template <class T>
inline const void *pointer_or_null(const T &v)
{
    return pointer_or_null(v, std::is_pointer<T>());
}

template <class... T>
struct type_list {
};

// One call operator per prefix of the kernel's parameters P: a launch may
// pass fewer arguments than P when the kernel declares default arguments
// (the body calls the kernel by name, which supplies them; without defaults
// that call does not compile, as the launch would not with nvcc). Cfg derives
// from prefix_calls<Cfg, type_list<>, type_list<P...>>.
template <class Cfg, class Done, class Rest>
struct prefix_calls;
template <class Cfg, class... D, class R0, class... R>
struct prefix_calls<Cfg, type_list<D...>, type_list<R0, R...>>
    : prefix_calls<Cfg, type_list<D..., R0>, type_list<R...>> {
    using prefix_calls<Cfg, type_list<D..., R0>, type_list<R...>>::operator();
    void operator()(D... args) const
    {
        static_cast<const Cfg &>(*this).template submit<D...>(args...);
    }
};
template <class Cfg, class... D>
struct prefix_calls<Cfg, type_list<D...>, type_list<>> {
    void operator()(D... args) const
    {
        static_cast<const Cfg &>(*this).template submit<D...>(args...);
    }
};

template <class Body, class... P>
struct configured : prefix_calls<configured<Body, P...>, type_list<>, type_list<P...>> {
    Body body;
    const void *addr;
    const char *name, *file, *args_text;
    int line;
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;

    configured(const Body &body_, const void *addr_, const char *name_, const char *file_,
               const char *args_text_, int line_, dim3 grid_, dim3 block_, size_t shmem_,
               cudaStream_t stream_)
        : body(body_), addr(addr_), name(name_), file(file_), args_text(args_text_), line(line_),
          grid(grid_), block(block_), shmem(shmem_), stream(stream_)
    {
    }

    // The launch with the arguments written, A: P or a prefix of it.
    template <class... A>
    void submit(A... args) const
    {
        using args_t = std::tuple<typename std::decay<A>::type...>;
        static const kernel_ops ops = { run_block<Body, args_t>, run_thread<Body, args_t>,
                                        destroy_task<Body, args_t>, sizeof(task<Body, args_t>),
                                        GPULAB_SIM_TSAN != 0 };
        constexpr int n = sizeof...(A);
        const void *ptrs[n + 1] = { pointer_or_null(args)..., nullptr };
        const bool is_ptr[n + 1] = { std::is_pointer<typename std::decay<A>::type>::value...,
                                     false };
        auto *t = new task<Body, args_t>{ body, args_t(args...) };
        launch_request r = { addr,  name,   file, line, args_text, grid, block,
                             shmem, stream, n,    ptrs, is_ptr,    t,    &ops };
        submit_launch(r);
    }
};

template <class Body, class... P>
struct launcher {
    Body body;
    const void *addr;
    const char *name, *file, *args_text;
    int line;

    configured<Body, P...> operator()(dim3 grid, dim3 block, size_t shmem = 0,
                                      cudaStream_t stream = 0) const
    {
        return configured<Body, P...>(body, addr, name, file, args_text, line, grid, block, shmem,
                                      stream);
    }
};

template <class Body, class... P>
launcher<Body, P...> launch_site(void (*kernel)(P...), Body body, const char *name,
                                 const char *file, int line, const char *args_text)
{
    return launcher<Body, P...>{ body, (const void *)kernel, name, file, args_text, line };
}

struct kernel_registrar {
    kernel_registrar(const void *addr, const char *name, int sync);
};

} // namespace gpulab_sim

// What the rewriter emits. The body lambda calls the kernel by name, so the
// compiler can inline it into the simulator's thread loop. C++11 has no
// generic lambda: there the body calls the kernel through its address.
#if __cplusplus >= 201402L
#define GPULAB_SIM_LAUNCH(K, NAME, LINE, ARGS)                                                     \
    ::gpulab_sim::launch_site(                                                                     \
        K,                                                                                         \
        [=](auto &&...gpulab_sim_a) {                                                              \
            K(static_cast<decltype(gpulab_sim_a) &&>(gpulab_sim_a)...);                            \
        },                                                                                         \
        NAME, __FILE__, LINE, ARGS)
#else
namespace gpulab_sim
{
template <class... P>
struct call_kernel {
    void (*kernel)(P...);
    template <class... A>
    void operator()(A &&...a) const
    {
        kernel(static_cast<A &&>(a)...);
    }
};
template <class... P>
call_kernel<P...> kernel_caller(void (*kernel)(P...))
{
    return call_kernel<P...>{ kernel };
}
} // namespace gpulab_sim
#define GPULAB_SIM_LAUNCH(K, NAME, LINE, ARGS)                                                     \
    ::gpulab_sim::launch_site(K, ::gpulab_sim::kernel_caller(K), NAME, __FILE__, LINE, ARGS)
#endif

// One per kernel defined in a .cu file or a header rewritten with it (a
// unique variable per use in the translation unit).
#define GPULAB_SIM_CAT2(a, b) a##b
#define GPULAB_SIM_CAT(a, b) GPULAB_SIM_CAT2(a, b)
#define GPULAB_SIM_KERNEL_TRAITS(K, SYNC)                                                          \
    static ::gpulab_sim::kernel_registrar GPULAB_SIM_CAT(gpulab_sim_traits_,                       \
                                                         __COUNTER__)((const void *)&K, #K, SYNC); \
    static ::gpulab_sim::kernel_entry_registrar GPULAB_SIM_CAT(gpulab_sim_entry_, __COUNTER__)(&K, \
                                                                                               #K)

// A launch from an array of pointers to the arguments, as cudaLaunchKernel
// and cudaLaunchCooperativeKernel take them: each argument is read with its
// parameter's type. The kernel's address (cast to void *) finds its typed
// launcher through the registration above (runtime/launch_args.cpp).
namespace gpulab_sim
{
cudaError_t submit_cooperative_launch(const launch_request &r);

template <class... P>
struct args_body {
    void (*f)(P...);
    void operator()(typename std::decay<P>::type... a) const
    {
        f(a...);
    }
};

template <class... P, std::size_t... I>
cudaError_t launch_from_args(void (*func)(P...), dim3 grid, dim3 block, void **args, size_t shmem,
                             cudaStream_t stream, bool cooperative, const char *name,
                             const char *file, int line, index_list<I...>)
{
    typedef args_body<P...> body_t;
    typedef std::tuple<typename std::decay<P>::type...> args_t;
    static const kernel_ops ops = { run_block<body_t, args_t>, run_thread<body_t, args_t>,
                                    destroy_task<body_t, args_t>, sizeof(task<body_t, args_t>),
                                    GPULAB_SIM_TSAN != 0 };
    constexpr int n = sizeof...(P);
    if (n > 0 && !args)
        return cudaErrorInvalidValue;
    auto *t = new task<body_t, args_t>{
        body_t{ func }, args_t(*static_cast<typename std::decay<P>::type *>(args[I])...)
    };
    const void *ptrs[n + 1] = { pointer_or_null(std::get<I>(t->args))..., nullptr };
    const bool is_ptr[n + 1] = { std::is_pointer<typename std::decay<P>::type>::value..., false };
    launch_request r = { (const void *)func,
                         name,
                         file,
                         line,
                         "",
                         grid,
                         block,
                         shmem,
                         stream,
                         n,
                         ptrs,
                         is_ptr,
                         t,
                         &ops };
    if (cooperative)
        return submit_cooperative_launch(r);
    submit_launch(r);
    return cudaPeekAtLastError();
}

// The kernel's launcher with its type erased: `func` is the kernel.
typedef cudaError_t (*erased_launcher)(void (*func)(), dim3 grid, dim3 block, void **args,
                                       size_t shmem, cudaStream_t stream, bool cooperative,
                                       const char *name);

template <class... P>
cudaError_t launch_erased(void (*func)(), dim3 grid, dim3 block, void **args, size_t shmem,
                          cudaStream_t stream, bool cooperative, const char *name)
{
    return launch_from_args(reinterpret_cast<void (*)(P...)>(func), grid, block, args, shmem,
                            stream, cooperative, name, "", 0,
                            typename make_index_list<sizeof...(P)>::type());
}

// param_sizes: the size of each of the kernel's n_params parameters (a graph's
// kernel node copies the arguments when it is made).
void register_kernel_entry(const void *addr, const char *name, void (*func)(),
                           erased_launcher launch, const size_t *param_sizes, int n_params);

template <class... P>
inline const size_t *param_sizes()
{
    static const size_t v[] = { sizeof(P)..., 0 };
    return v;
}

struct kernel_entry_registrar {
    template <class... P>
    kernel_entry_registrar(void (*kernel)(P...), const char *name)
    {
        register_kernel_entry((const void *)kernel, name, reinterpret_cast<void (*)()>(kernel),
                              &launch_erased<P...>, param_sizes<P...>(), (int)sizeof...(P));
    }
};
} // namespace gpulab_sim

// Static shared memory. `__shared__ T a[N];` in a function body becomes
//     typedef T gpulab_sim_shared_a[N]; GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_a, a, line);
// a reference to the variable's place in the running worker's window, where
// it ends against a guard page (runtime/shared.cpp): an index past its end
// stops the kernel with a report, never the simulator.
namespace gpulab_sim
{
struct shared_site {
    const char *name, *file; // the declaration, for reports
    int line;
    size_t size, align;
    size_t place; // 1 + the variable's offset in every worker's window; 0 until placed
};
// The variable's bytes in the calling worker's window (placed on first use).
void *static_shared(shared_site *site);
} // namespace gpulab_sim
#define GPULAB_SIM_STATIC_SHARED(T, NAME, LINE)                                                    \
    static ::gpulab_sim::shared_site gpulab_sim_site_##NAME = { #NAME,     __FILE__,   LINE,       \
                                                                sizeof(T), alignof(T), 0 };        \
    T &NAME = *static_cast<T *>(::gpulab_sim::static_shared(&gpulab_sim_site_##NAME))

// A `__constant__` variable at file or namespace scope is followed by
// `GPULAB_SIM_CONSTANT(name);` (the launch rewriter adds it): the check mode
// then reports a kernel that writes it.
extern "C" int gpulab_sim_register_constant(const void *p, size_t size, const char *name);
#define GPULAB_SIM_CONSTANT(NAME)                                                                  \
    static const int gpulab_sim_constant_##NAME __attribute__((unused)) =                          \
        gpulab_sim_register_constant((const void *)&(NAME), sizeof(NAME), #NAME)

// `extern __shared__ T s[];` becomes `extern __thread T s[] GPULAB_SIM_DYNAMIC_SHARED;`:
// every such array is the same per-worker buffer, as every one is the same
// dynamic shared memory on a GPU.
#define GPULAB_SIM_DYNAMIC_SHARED __asm__("gpulab_sim_dynamic_shared")
// In a function body it becomes `GPULAB_SIM_DYNAMIC_SHARED_REF(s, T);`, a
// reference to the same buffer (GCC loses the assembler name of a
// block-scope declaration in a template).
extern "C" __thread unsigned char gpulab_sim_dynamic_shared[];
#define GPULAB_SIM_DYNAMIC_SHARED_REF(NAME, ...)                                                   \
    __VA_ARGS__(&NAME)                                                                             \
    [] = *static_cast<__VA_ARGS__(*)[]>(static_cast<void *>(gpulab_sim_dynamic_shared))

// ---------------------------------------------------------------------------
// Barriers, warp functions, fences.
#define __syncthreads() ::gpulab_sim::syncthreads(__FILE__, __LINE__)
#define __syncthreads_count(p) ::gpulab_sim::syncthreads_count((p) != 0, __FILE__, __LINE__)
#define __syncthreads_and(p)                                                                       \
    (::gpulab_sim::syncthreads_count((p) != 0, __FILE__, __LINE__) ==                              \
     (int)(blockDim.x * blockDim.y * blockDim.z))
#define __syncthreads_or(p) (::gpulab_sim::syncthreads_count((p) != 0, __FILE__, __LINE__) != 0)
#define __syncwarp(...)                                                                            \
    ::gpulab_sim::syncwarp(gpulab_sim_mask_or_all(__VA_ARGS__), __FILE__, __LINE__)
static inline unsigned gpulab_sim_mask_or_all(unsigned mask = 0xffffffffu)
{
    return mask;
}

#define __shfl_sync(mask, var, lane, ...)                                                          \
    ::gpulab_sim::shfl(::gpulab_sim::SHFL_IDX, mask, var, lane,                                    \
                       gpulab_sim_width_or_32(__VA_ARGS__), __FILE__, __LINE__)
#define __shfl_up_sync(mask, var, delta, ...)                                                      \
    ::gpulab_sim::shfl(::gpulab_sim::SHFL_UP, mask, var, delta,                                    \
                       gpulab_sim_width_or_32(__VA_ARGS__), __FILE__, __LINE__)
#define __shfl_down_sync(mask, var, delta, ...)                                                    \
    ::gpulab_sim::shfl(::gpulab_sim::SHFL_DOWN, mask, var, delta,                                  \
                       gpulab_sim_width_or_32(__VA_ARGS__), __FILE__, __LINE__)
#define __shfl_xor_sync(mask, var, lanemask, ...)                                                  \
    ::gpulab_sim::shfl(::gpulab_sim::SHFL_XOR, mask, var, lanemask,                                \
                       gpulab_sim_width_or_32(__VA_ARGS__), __FILE__, __LINE__)
static inline int gpulab_sim_width_or_32(int width = 32)
{
    return width;
}
#define __ballot_sync(mask, pred)                                                                  \
    ((unsigned)::gpulab_sim::warp_exchange(::gpulab_sim::BALLOT, mask, (pred) != 0, 0, 32,         \
                                           __FILE__, __LINE__))
#define __any_sync(mask, pred)                                                                     \
    ((int)::gpulab_sim::warp_exchange(::gpulab_sim::ANY, mask, (pred) != 0, 0, 32, __FILE__,       \
                                      __LINE__))
#define __all_sync(mask, pred)                                                                     \
    ((int)::gpulab_sim::warp_exchange(::gpulab_sim::ALL, mask, (pred) != 0, 0, 32, __FILE__,       \
                                      __LINE__))
#define __match_any_sync(mask, value)                                                              \
    ::gpulab_sim::match_sync(::gpulab_sim::MATCH_ANY, mask, value, nullptr, __FILE__, __LINE__)
#define __match_all_sync(mask, value, pred)                                                        \
    ::gpulab_sim::match_sync(::gpulab_sim::MATCH_ALL, mask, value, pred, __FILE__, __LINE__)
#define __reduce_add_sync(mask, value)                                                             \
    ::gpulab_sim::reduce_sync(::gpulab_sim::REDUCE_ADD, mask, value, __FILE__, __LINE__)
#define __reduce_min_sync(mask, value)                                                             \
    ::gpulab_sim::reduce_sync(::gpulab_sim::REDUCE_MIN_S, mask, value, __FILE__, __LINE__)
#define __reduce_max_sync(mask, value)                                                             \
    ::gpulab_sim::reduce_sync(::gpulab_sim::REDUCE_MAX_S, mask, value, __FILE__, __LINE__)
#define __reduce_and_sync(mask, value)                                                             \
    ::gpulab_sim::reduce_sync(::gpulab_sim::REDUCE_AND, mask, (unsigned)(value), __FILE__, __LINE__)
#define __reduce_or_sync(mask, value)                                                              \
    ::gpulab_sim::reduce_sync(::gpulab_sim::REDUCE_OR, mask, (unsigned)(value), __FILE__, __LINE__)
#define __reduce_xor_sync(mask, value)                                                             \
    ::gpulab_sim::reduce_sync(::gpulab_sim::REDUCE_XOR, mask, (unsigned)(value), __FILE__, __LINE__)
#define __activemask()                                                                             \
    ((unsigned)::gpulab_sim::warp_exchange(::gpulab_sim::ACTIVEMASK, 0, 0, 0, 32, __FILE__,        \
                                           __LINE__))

#define __threadfence() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __threadfence_block() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __threadfence_system() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __trap() ::gpulab_sim::kernel_trap(cudaErrorLaunchFailure, "__trap() called")

#include "gpulab_sim/device_libc.hpp"
#include "gpulab_sim/device_functions.hpp"

#endif // GPULAB_SIM_KERNEL_HPP
