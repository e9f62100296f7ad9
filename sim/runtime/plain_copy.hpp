// plain_copy.hpp — the check twin's plain copies of its kernels, which run the
// blocks that the performance model does not count. See plain_copy.cpp.
#ifndef GPULAB_SIM_PLAIN_COPY_HPP
#define GPULAB_SIM_PLAIN_COPY_HPP

#include <cuda_runtime.h>

#include <cstdint>

namespace gpulab_sim
{

// The plain copy of a launch's kernel code (the same task, run without the
// access hooks), or null when every block must run the launch's own code: a
// check tool is on, every block is counted (GPULAB_SIM_STATS=1, or a grid of
// at most 128 blocks), GPULAB_SIM_PLAIN_COPY=0, or the program carries no
// copy of this kernel. Called on the executor when the kernel starts.
const kernel_ops *plain_copy(const kernel_ops *ops, uint64_t blocks);
// On the executor when the kernel has run: how many of its blocks ran the
// plain copy (gpulab_sim_model_plain_blocks).
void plain_copy_done(uint64_t plain_blocks);

} // namespace gpulab_sim

#endif
