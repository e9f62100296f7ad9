// gpulab_sim/cooperative_launch.hpp — cudaLaunchCooperativeKernel(kernel,
// grid, block, args, shmem, stream) and cudaLaunchKernel with the kernel
// itself (the forms with `(void *)kernel` are in runtime/launch_args.cpp):
// the arguments are
// read from args (one pointer per parameter, as CUDA takes them) with the
// kernel's parameter types, and the launch is queued as a cooperative one
// (launch.cpp and grid.cpp: its grid must fit on the device; grid.sync() may be used).
#ifndef GPULAB_SIM_COOPERATIVE_LAUNCH_HPP
#define GPULAB_SIM_COOPERATIVE_LAUNCH_HPP

#include "gpulab_sim/kernel.hpp"

namespace gpulab_sim
{

// cudaLaunchCooperativeKernel's typed form is launch_from_args (kernel.hpp)
// with cooperative set: submit_cooperative_launch fills a null kernel name
// from the kernel's registration. The kernel's registered name, or
// "(kernel)" (launch_args.cpp).
const char *kernel_entry_name(const void *addr);

} // namespace gpulab_sim

// The kernel itself (not cast to void *), and a pointer to each argument.
template <class... P>
static inline cudaError_t
cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block, void **args,
                            size_t shmem = 0, cudaStream_t stream = 0,
                            const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return ::gpulab_sim::launch_from_args(
        func, grid, block, args, shmem, stream, true, nullptr, file, line,
        typename ::gpulab_sim::make_index_list<sizeof...(P)>::type());
}

// cudaLaunchKernel with the kernel itself (CUDA's template form).
template <class... P>
static inline cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void **args,
                                           size_t shmem = 0, cudaStream_t stream = 0,
                                           const char *file = __builtin_FILE(),
                                           int line = __builtin_LINE())
{
    return ::gpulab_sim::launch_from_args(
        func, grid, block, args, shmem, stream, false,
        ::gpulab_sim::kernel_entry_name((const void *)func), file, line,
        typename ::gpulab_sim::make_index_list<sizeof...(P)>::type());
}

#endif
