// 48_cg_cooperative_too_large — a cooperative grid must fit on the device at
// once: one block more than cudaOccupancyMaxActiveBlocksPerMultiprocessor x
// multiprocessors is refused with cudaErrorCooperativeLaunchTooLarge, nothing
// runs, and the error is not sticky (the largest grid then runs).
#include "conformance.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define THREADS 256

__global__ void mark(int *ran)
{
    cg::grid_group grid = cg::this_grid();
    grid.sync();
    if (grid.thread_rank() == 0)
        atomicAdd(ran, 1);
}

int main(void)
{
    conf_require_device();
    int dev = 0, sms = 0, per_sm = 0, ran = 0;
    CHECK_CUDA(cudaGetDevice(&dev));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mark, THREADS, 0));
    int *d_ran;
    CHECK_CUDA(cudaMalloc((void **)&d_ran, sizeof(int)));
    CHECK_CUDA(cudaMemset(d_ran, 0, sizeof(int)));
    void *args[] = { &d_ran };
    conf_check_err(cudaLaunchCooperativeKernel(mark, per_sm * sms + 1, THREADS, args, 0, 0),
                   cudaErrorCooperativeLaunchTooLarge);
    conf_check_err(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaLaunchCooperativeKernel(mark, per_sm * sms, THREADS, args, 0, 0));
    CHECK_CUDA(cudaMemcpy(&ran, d_ran, sizeof(int), cudaMemcpyDeviceToHost));
    conf_check(ran == 1, "the grid that fits ran %d times, want 1", ran);
    CHECK_CUDA(cudaFree(d_ran));
    return conf_finish();
}
