// occupancy.hpp — how many blocks of a kernel one multiprocessor holds at
// once, and which resource stops it holding more: the arithmetic of NVIDIA's
// occupancy calculator (cudaOccupancyMaxActiveBlocksPerMultiprocessor, the
// toolkit's cuda_occupancy.h), for the simulated device or a modeled GPU.
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, the performance model and
// `gpulab ncu` use it. See occupancy.cpp.
#ifndef GPULAB_SIM_OCCUPANCY_HPP
#define GPULAB_SIM_OCCUPANCY_HPP

#include <cuda_runtime.h>

#include <cstddef>

namespace gpulab_sim
{

struct gpu_profile;

// The limits of one multiprocessor, as cudaDeviceProp gives them.
struct occupancy_device {
    int cc_major = 8, cc_minor = 6;
    int max_threads_per_sm = 1536, max_blocks_per_sm = 16, max_threads_per_block = 1024;
    int regs_per_sm = 65536, regs_per_block = 65536;
    size_t smem_per_sm = 100 * 1024, smem_per_block = 48 * 1024;
    size_t smem_per_block_optin = 99 * 1024, smem_reserved = 1024;
};

// One launch as the calculator sees it.
struct occupancy_kernel {
    int block_threads = 0;
    int regs_per_thread = 32;
    size_t static_smem = 0, dynamic_smem = 0;
    size_t max_dynamic_smem = 48 * 1024; // cudaFuncAttributeMaxDynamicSharedMemorySize
};

struct occupancy {
    // Blocks per multiprocessor each resource allows, and the least of them
    // (0: a block of this shape cannot run at all).
    int by_blocks = 0, by_warps = 0, by_regs = 0, by_smem = 0, blocks = 0;
    // What limits it: "warps", "registers", "shared memory" or "blocks" (the
    // block limit of the SM); ties joined by ", ".
    char limiter[64] = {};
    int warps_per_block = 0;
    int regs_per_block = 0;    // allocated, by the register allocation unit
    size_t smem_config = 0;    // the shared memory per SM the calculator counts on, bytes
    size_t smem_per_block = 0; // allocated per block: static + dynamic + reserved, rounded
    int warps_per_sm = 0;      // theoretical active warps per SM
    double theoretical = 0;    // theoretical occupancy: warps_per_sm / max warps
};

occupancy occupancy_of(const occupancy_device &d, const occupancy_kernel &k);
occupancy_device occupancy_device_of(const gpu_profile &g);
occupancy_device occupancy_device_of(const cudaDeviceProp &p);

} // namespace gpulab_sim

#endif
