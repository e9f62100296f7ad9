// fake_sim.h: just enough of the simulator's interface for `c++ -fsyntax-only`
// to accept what gpulab-sim-rewrite writes (the unit-rewrite-cli test). The
// real one is sim/include/gpulab_sim/kernel.hpp.
#include <cstddef>

#define __global__
#define __device__
#define __host__
#define __launch_bounds__(...)
#define __shared__ static __thread
#define __align__(n) __attribute__((aligned(n)))

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct uint3 {
    unsigned x, y, z;
};
typedef struct CUstream_st *cudaStream_t;
static uint3 threadIdx, blockIdx;
static dim3 blockDim;

inline float __shfl_down_sync(unsigned, float v, int)
{
    return v;
}
inline void __syncthreads() {}

// The launch, GPULAB_SIM_LAUNCH((k), "k", line, "args")(grid, block[, shmem[, stream]])(args):
// a callable taking 2 to 4 configuration arguments, returning one that takes
// exactly the kernel's parameters.
template <typename... P>
struct fake_configured {
    void (*kernel)(P...);
    void operator()(P... args) const
    {
        kernel(args...);
    }
};

template <typename... P>
struct fake_launcher {
    void (*kernel)(P...);
    fake_configured<P...> operator()(dim3 grid, dim3 block, std::size_t shmem = 0,
                                     cudaStream_t stream = 0) const
    {
        (void)grid, (void)block, (void)shmem, (void)stream;
        return fake_configured<P...>{ kernel };
    }
};

template <typename... P>
fake_launcher<P...> fake_launch_site(void (*kernel)(P...), const char *name, int line,
                                     const char *args_text)
{
    (void)name, (void)line, (void)args_text;
    return fake_launcher<P...>{ kernel };
}

// "" NAME and "" ARGS compile only when the rewriter wrote string literals there.
#define GPULAB_SIM_LAUNCH(K, NAME, LINE, ARGS) fake_launch_site(K, "" NAME, LINE, "" ARGS)

#define GPULAB_SIM_KERNEL_TRAITS(kernel, sync)                                                     \
    static_assert(sizeof(&kernel) != 0 && ((sync) == 0 || (sync) == 1), #kernel)

// As in the real header: every `extern __shared__` array is the one per-worker buffer.
#define GPULAB_SIM_DYNAMIC_SHARED __asm__("gpulab_sim_dynamic_shared")
extern "C" __thread unsigned char gpulab_sim_dynamic_shared[];
#define GPULAB_SIM_DYNAMIC_SHARED_REF(NAME, ...)                                                   \
    __VA_ARGS__(&NAME)                                                                             \
    [] = *static_cast<__VA_ARGS__(*)[]>(static_cast<void *>(gpulab_sim_dynamic_shared))

// A static __shared__ variable in a function body: a reference of its type
// (the real one points into the worker's shared window).
#define GPULAB_SIM_STATIC_SHARED(T, NAME, LINE)                                                    \
    static_assert((LINE) > 0, #NAME);                                                              \
    static T gpulab_sim_fake_##NAME;                                                               \
    T &NAME = gpulab_sim_fake_##NAME
