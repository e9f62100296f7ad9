// 13_syncthreads_count — block-wide votes at a barrier: __syncthreads_count
// returns how many threads had a true predicate, __syncthreads_and/_or whether
// all/any did; every thread gets the same answer. Blocks of 100 (a partial warp).
#include "conformance.h"

#define THREADS 100
#define BLOCKS 4
#define TOTAL (THREADS * BLOCKS)

__device__ int block_predicate(int block, int tid)
{
    switch (block) {
    case 0:
        return tid % 3 == 0; // 34 of 100
    case 1:
        return 1; // all
    case 2:
        return 0; // none
    default:
        return tid == 99; // only the last thread, in the partial warp
    }
}

// Two rounds of votes, so a barrier that only works once is caught.
__global__ void block_votes(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = block_predicate(blockIdx.x, threadIdx.x);
    out[6 * i] = __syncthreads_count(p);
    out[6 * i + 1] = __syncthreads_and(p) != 0;
    out[6 * i + 2] = __syncthreads_or(p) != 0;
    out[6 * i + 3] = __syncthreads_count(!p);
    out[6 * i + 4] = __syncthreads_and(!p) != 0;
    out[6 * i + 5] = __syncthreads_or(!p) != 0;
}

int main(void)
{
    conf_require_device();

    static int h_out[6 * TOTAL];
    int *d_out;
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    block_votes<<<BLOCKS, THREADS>>>(d_out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    static const int want_count[BLOCKS] = { 34, 100, 0, 1 };
    for (int b = 0; b < BLOCKS; b++) {
        int c = want_count[b];
        int want[6] = { c, c == THREADS, c > 0, THREADS - c, c == 0, c < THREADS };
        for (int t = 0; t < THREADS; t++)
            for (int k = 0; k < 6; k++) {
                int got = h_out[6 * (b * THREADS + t) + k];
                conf_check(got == want[k], "block %d thread %d: vote %d gave %d, expected %d", b, t,
                           k, got, want[k]);
            }
    }

    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
