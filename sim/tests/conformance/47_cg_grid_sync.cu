// 47_cg_grid_sync — a cooperative launch: cudaDevAttrCooperativeLaunch and
// cudaDeviceProp::cooperativeLaunch are 1, the grid is sized by
// cudaOccupancyMaxActiveBlocksPerMultiprocessor x multiprocessors, and a
// two-phase reduction (block sums, grid.sync(), block 0 adds them) run twice
// in one kernel with this_grid()'s ranks and sizes checked.
#include "conformance.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define THREADS 128
#define N 20000

__global__ void two_phase(const int *in, int n, int *partial, long long *total, int *bad)
{
    __shared__ int s[THREADS];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    int wrong = !grid.is_valid();
    wrong += grid.num_blocks() != gridDim.x || grid.block_rank() != blockIdx.x;
    wrong += grid.size() != (unsigned long long)gridDim.x * THREADS;
    wrong += grid.thread_rank() != blockIdx.x * THREADS + threadIdx.x;
    if (wrong)
        atomicAdd(bad, wrong);
    for (int round = 0; round < 2; round++) {
        int sum = 0;
        for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
            sum += in[i] * (round + 1);
        s[threadIdx.x] = sum;
        block.sync();
        for (int w = THREADS / 2; w > 0; w /= 2) {
            if ((int)threadIdx.x < w)
                s[threadIdx.x] += s[threadIdx.x + w];
            block.sync();
        }
        if (threadIdx.x == 0)
            partial[blockIdx.x] = s[0];
        grid.sync();
        if (grid.thread_rank() == 0) {
            long long t = 0;
            for (unsigned b = 0; b < gridDim.x; b++)
                t += partial[b];
            total[round] = t;
        }
        grid.sync(); // partial is written again in the next round
    }
}

int main(void)
{
    conf_require_device();
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    CHECK_CUDA(cudaGetDevice(&dev));
    CHECK_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
    conf_check(coop == 1 && prop.cooperativeLaunch == 1, "cooperative launch attribute %d, prop %d",
               coop, prop.cooperativeLaunch);
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, two_phase, THREADS, 0));
    int blocks = per_sm * sms < 8 ? per_sm * sms : 8;
    conf_check(blocks >= 1, "no block fits: %d per SM, %d SMs", per_sm, sms);

    static int h_in[N];
    long long want = 0;
    unsigned seed = 44;
    for (int i = 0; i < N; i++) {
        h_in[i] = (int)(conf_lcg(&seed) % 1001) - 500;
        want += h_in[i];
    }
    int *d_in, *d_partial, *d_bad, n = N, bad = 0;
    long long *d_total, total[2] = { 0, 0 };
    CHECK_CUDA(cudaMalloc((void **)&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc((void **)&d_partial, sizeof(int) * blocks));
    CHECK_CUDA(cudaMalloc((void **)&d_total, sizeof(total)));
    CHECK_CUDA(cudaMalloc((void **)&d_bad, sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_bad, 0, sizeof(int)));
    void *args[] = { &d_in, &n, &d_partial, &d_total, &d_bad };
    CHECK_CUDA(cudaLaunchCooperativeKernel(two_phase, blocks, THREADS, args, 0, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(total, d_total, sizeof(total), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&bad, d_bad, sizeof(int), cudaMemcpyDeviceToHost));
    conf_check(total[0] == want, "round 1: total %lld, want %lld", total[0], want);
    conf_check(total[1] == 2 * want, "round 2: total %lld, want %lld", total[1], 2 * want);
    conf_check(bad == 0, "%d grid facts wrong", bad);
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_partial));
    CHECK_CUDA(cudaFree(d_total));
    CHECK_CUDA(cudaFree(d_bad));
    return conf_finish();
}
