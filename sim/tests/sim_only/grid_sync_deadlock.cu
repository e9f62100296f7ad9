// clang-format off
// EXPECT-OUTPUT: kernel leave_early \(launched at .*grid_sync_deadlock\.cu:40\): 3 block\(s\) wait at grid\.sync\(\) \(.*grid_sync_deadlock\.cu:20, .*while block \(1,0,0\) has ended without reaching it.*first: cudaErrorSynchronizationError.*Divergent thread\(s\) in block \(0,0,0\) of kernel split.* 32 thread\(s\) wait in __syncthreads at .*grid_sync_deadlock\.cu:31.* 32 thread\(s\) wait in grid\.sync\(\) at .*grid_sync_deadlock\.cu:29.*second: cudaErrorSynchronizationError.*PASS grid_sync_deadlock
// clang-format on
// grid_sync_deadlock — simulator only: a grid.sync() that cannot be released
// (a block ends without reaching it; or in one block, half the threads wait
// at grid.sync() and half at __syncthreads) gives a report naming where they
// wait, and the kernel fails with cudaErrorSynchronizationError instead of
// hanging. On a GPU these kernels hang, so they are not conformance programs.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <stdio.h>

namespace cg = cooperative_groups;

__global__ void leave_early(int *out)
{
    if (blockIdx.x == 1)
        return;
    cg::this_grid().sync();
    out[blockIdx.x] = 1;
}

__global__ void split(int *out)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    if (threadIdx.x < 32)
        grid.sync();
    else
        block.sync();
    out[threadIdx.x] = 1;
}

int main(void)
{
    int *d, ok = 1;
    cudaMalloc((void **)&d, 64 * sizeof(int));
    void *args[] = { &d };
    ok &= cudaLaunchCooperativeKernel(leave_early, 4, 32, args, 0, 0) == cudaSuccess;
    cudaError_t e = cudaDeviceSynchronize();
    printf("first: %s\n", cudaGetErrorName(e));
    fflush(stdout);
    ok &= e == cudaErrorSynchronizationError;
    cudaDeviceReset();
    cudaMalloc((void **)&d, 64 * sizeof(int));
    ok &= cudaLaunchCooperativeKernel(split, 1, 64, args, 0, 0) == cudaSuccess;
    e = cudaDeviceSynchronize();
    printf("second: %s\n", cudaGetErrorName(e));
    ok &= e == cudaErrorSynchronizationError;
    printf("%s grid_sync_deadlock\n", ok ? "PASS" : "FAIL");
    cudaFree(d);
    return ok ? 0 : 1;
}
