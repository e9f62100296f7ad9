// gpulab_sim/cooperative_launch.hpp — cudaLaunchCooperativeKernel(kernel,
// grid, block, args, shmem, stream) with the kernel itself: the arguments are
// read from args (one pointer per parameter, as CUDA takes them) with the
// kernel's parameter types, and the launch is queued as a cooperative one
// (launch.cpp and grid.cpp: its grid must fit on the device; grid.sync() may be used).
#ifndef GPULAB_SIM_COOPERATIVE_LAUNCH_HPP
#define GPULAB_SIM_COOPERATIVE_LAUNCH_HPP

#include "gpulab_sim/kernel.hpp"

namespace gpulab_sim
{

// Validates and queues a cooperative launch; returns (and records) its launch
// error. A null r.kernel_name is filled from the kernel's registration.
cudaError_t submit_cooperative_launch(const launch_request &r);

// 0, 1, ..., N - 1 as a type (std::index_sequence is C++14).
template <size_t... I>
struct indices {
};
template <size_t N, size_t... I>
struct make_indices : make_indices<N - 1, N - 1, I...> {
};
template <size_t... I>
struct make_indices<0, I...> {
    typedef indices<I...> type;
};

template <class... P>
struct cooperative_body {
    void (*f)(P...);
    void operator()(typename std::decay<P>::type... a) const
    {
        f(a...);
    }
};

template <class... P, size_t... I>
cudaError_t cooperative_launch(void (*func)(P...), dim3 grid, dim3 block, void **args, size_t shmem,
                               cudaStream_t stream, const char *file, int line, indices<I...>)
{
    typedef cooperative_body<P...> body_t;
    typedef std::tuple<typename std::decay<P>::type...> args_t;
    static const kernel_ops ops = { run_block<body_t, args_t>, run_thread<body_t, args_t>,
                                    destroy_task<body_t, args_t>, sizeof(task<body_t, args_t>) };
    constexpr int n = sizeof...(P);
    if (n > 0 && !args)
        return cudaErrorInvalidValue;
    auto *t = new task<body_t, args_t>{
        body_t{ func }, args_t(*static_cast<typename std::decay<P>::type *>(args[I])...)
    };
    const void *ptrs[n + 1] = { pointer_or_null(std::get<I>(t->args))..., nullptr };
    const bool is_ptr[n + 1] = { std::is_pointer<typename std::decay<P>::type>::value..., false };
    launch_request r = { (const void *)func,
                         nullptr,
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
    return submit_cooperative_launch(r);
}

} // namespace gpulab_sim

// The kernel itself (not cast to void *), and a pointer to each argument.
template <class... P>
static inline cudaError_t
cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block, void **args,
                            size_t shmem = 0, cudaStream_t stream = 0,
                            const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return ::gpulab_sim::cooperative_launch(
        func, grid, block, args, shmem, stream, file, line,
        typename ::gpulab_sim::make_indices<sizeof...(P)>::type());
}

#endif
