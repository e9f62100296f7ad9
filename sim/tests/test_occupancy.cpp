// test_occupancy.cpp — blocks per SM (occupancy.cpp) against the CUDA
// toolkit's own occupancy calculator (cuda_occupancy.h, the arithmetic of
// cudaOccupancyMaxActiveBlocksPerMultiprocessor), on every modeled GPU and
// the simulated device, over block sizes, registers per thread and shared
// memory; and the same figures through the CUDA call the programs use. The
// header comes from the toolkit at build time (GPULAB_CUDA_OCCUPANCY_H);
// without a toolkit the comparison is skipped (exit 77), the CUDA call's
// checks still run.
#include "model.hpp"
#include "occupancy.hpp"

#include "lab_test.h"

#ifdef GPULAB_CUDA_OCCUPANCY_H
#include GPULAB_CUDA_OCCUPANCY_H
#endif

#include <cstdio>
#include <cstring>

namespace
{

using namespace gpulab_sim;

const int block_sizes[] = { 1, 32, 64, 96, 100, 128, 192, 256, 320, 384, 512, 640, 768, 1024 };
const int regs[] = { 16, 24, 32, 40, 48, 64, 72, 96, 128, 168, 255 };
const size_t smems[] = { 0, 1, 100, 1000, 4096, 8192, 12000, 16384, 24576, 32768, 40000, 49152 };

#ifdef GPULAB_CUDA_OCCUPANCY_H
int compared = 0;

// The toolkit's answer for one configuration on device d; static_smem comes
// from the kernel, dynamic from the launch.
void compare(const char *what, const occupancy_device &d, int block, int nregs, size_t static_smem,
             size_t dynamic_smem, size_t max_dynamic)
{
    cudaOccDeviceProp p;
    p.computeMajor = d.cc_major;
    p.computeMinor = d.cc_minor;
    p.maxThreadsPerBlock = d.max_threads_per_block;
    p.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
    p.regsPerBlock = d.regs_per_block;
    p.regsPerMultiprocessor = d.regs_per_sm;
    p.warpSize = 32;
    p.sharedMemPerBlock = d.smem_per_block;
    p.sharedMemPerMultiprocessor = d.smem_per_sm;
    p.numSms = 1;
    p.sharedMemPerBlockOptin = d.smem_per_block_optin;
    p.reservedSharedMemPerBlock = d.smem_reserved;
    cudaOccFuncAttributes a;
    a.maxThreadsPerBlock = 1024;
    a.numRegs = nregs;
    a.sharedSizeBytes = static_smem;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN; // as from cudaFuncGetAttributes
    a.maxDynamicSharedSizeBytes = max_dynamic;
    a.numBlockBarriers = 1;
    cudaOccDeviceState state;
    cudaOccResult want;
    memset(&want, 0, sizeof(want));
    cudaOccError e =
        cudaOccMaxActiveBlocksPerMultiprocessor(&want, &p, &a, &state, block, dynamic_smem);
    occupancy_kernel k;
    k.block_threads = block;
    k.regs_per_thread = nregs;
    k.static_smem = static_smem;
    k.dynamic_smem = dynamic_smem;
    k.max_dynamic_smem = max_dynamic;
    occupancy got = occupancy_of(d, k);
    int expect = e == CUDA_OCC_SUCCESS ? want.activeBlocksPerMultiprocessor : 0;
    compared++;
    if (got.blocks != expect ||
        (e == CUDA_OCC_SUCCESS &&
         (got.by_warps != want.blockLimitWarps || got.by_regs != want.blockLimitRegs ||
          got.by_smem != want.blockLimitSharedMem || got.by_blocks != want.blockLimitBlocks))) {
        fprintf(stderr,
                "%s cc %d.%d, block %d, %d regs, smem %zu static + %zu dynamic (max %zu): "
                "blocks %d (warps %d regs %d smem %d sm %d), the calculator %d (status %d; "
                "warps %d regs %d smem %d sm %d)\n",
                what, d.cc_major, d.cc_minor, block, nregs, static_smem, dynamic_smem, max_dynamic,
                got.blocks, got.by_warps, got.by_regs, got.by_smem, got.by_blocks, expect, (int)e,
                want.blockLimitWarps, want.blockLimitRegs, want.blockLimitSharedMem,
                want.blockLimitBlocks);
        CHECK(got.blocks == expect);
    }
}

void test_against_calculator()
{
    int n;
    const gpu_profile *all = model_profiles(&n);
    for (int i = 0; i <= n; i++) {
        // The profiles, then the simulated device without a model.
        occupancy_device d = i < n ? occupancy_device_of(all[i]) : occupancy_device();
        const char *what = i < n ? all[i].key : "simulated device";
        for (int b : block_sizes)
            for (int r : regs)
                for (size_t s : smems) {
                    compare(what, d, b, r, 0, s, 48 * 1024);
                    compare(what, d, b, r, s, 0, 48 * 1024 - s);
                    // A kernel that opted in to more dynamic shared memory.
                    compare(what, d, b, r, 0, s * 2, d.smem_per_block_optin);
                }
    }
    printf("compared %d configurations with cuda_occupancy.h\n", compared);
}
#endif

// Known values, worked by hand from the rules (occupancy.cpp's comment).
void test_known_values()
{
    const gpu_profile *t4 = model_lookup("t4"), *a100 = model_lookup("a100-40gb");
    CHECK(t4 && a100);
    if (!t4 || !a100)
        return;
    occupancy_kernel k;
    k.block_threads = 256;
    // T4: 32 warps per SM, 8 per block: 4 blocks (32 registers would allow 8).
    occupancy o = occupancy_of(occupancy_device_of(*t4), k);
    CHECK(o.blocks == 4 && o.warps_per_sm == 32 && o.theoretical == 1.0);
    CHECK(o.by_regs == 8);
    CHECK(std::strcmp(o.limiter, "warps") == 0);
    // 64 registers: 2048 per warp, 8 warps per sub-partition, 32 per SM: still
    // 4 blocks, limited by both.
    k.regs_per_thread = 64;
    o = occupancy_of(occupancy_device_of(*t4), k);
    CHECK(o.blocks == 4 && std::strcmp(o.limiter, "warps, registers") == 0);
    // 72 registers: 2304 per warp, 7 warps per sub-partition, 28 per SM: 3 blocks.
    k.regs_per_thread = 72;
    o = occupancy_of(occupancy_device_of(*t4), k);
    CHECK(o.blocks == 3 && std::strcmp(o.limiter, "registers") == 0);
    // A100: 20 KiB of dynamic shared memory + 1 KiB reserved: 164 / 21 = 7 blocks.
    k.regs_per_thread = 32;
    k.dynamic_smem = 20 * 1024;
    o = occupancy_of(occupancy_device_of(*a100), k);
    CHECK(o.blocks == 7 && std::strcmp(o.limiter, "shared memory") == 0);
    CHECK(o.smem_per_block == 21 * 1024);
    // More than the 48 KiB a kernel may ask for without opting in: none.
    k.dynamic_smem = 50 * 1024;
    CHECK(occupancy_of(occupancy_device_of(*a100), k).blocks == 0);
    // 1025 threads: none.
    k.dynamic_smem = 0;
    k.block_threads = 1025;
    CHECK(occupancy_of(occupancy_device_of(*a100), k).blocks == 0);
}

// Any function address: the call looks only at the device and the attributes.
void empty_kernel() {}

// The CUDA call agrees with the calculator on the simulated device.
void test_cuda_call()
{
    int blocks = -1;
    const void *f = (const void *)empty_kernel;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 256, 0) == cudaSuccess);
    CHECK(blocks == 6); // 48 warps per SM on the simulated 8.6 device, 8 per block
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 128, 40 * 1024) == cudaSuccess);
    CHECK(blocks == 2); // (40 + 1 reserved) KiB of the SM's 100
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 0, 0) == cudaErrorInvalidValue);
}

} // namespace

int main()
{
    LAB_TEST_RUN(test_known_values);
    LAB_TEST_RUN(test_cuda_call);
#ifdef GPULAB_CUDA_OCCUPANCY_H
    LAB_TEST_RUN(test_against_calculator);
#else
    if (!lab_test_tests_failed) {
        printf("SKIP: no cuda_occupancy.h (the CUDA toolkit's) to compare with\n");
        return LAB_TEST_SKIP;
    }
#endif
    LAB_TEST_MAIN_END();
}
