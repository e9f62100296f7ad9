// 28_syncwarp — __syncwarp orders shared-memory accesses within a warp: a
// per-warp tree reduction through shared memory with a __syncwarp per step, and
// a half-warp exchange under __syncwarp(0x0000ffff) in code only lanes 0..15 run.
#include "conformance.h"

#define THREADS 128
#define BLOCKS 3
#define TOTAL (THREADS * BLOCKS)

__global__ void warp_reduce_shared(const int *in, int *warp_sum, int *swapped)
{
    __shared__ int s[THREADS];
    __shared__ int h[THREADS];
    int tid = threadIdx.x, lane = tid % 32;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncwarp();
    for (int offset = 16; offset > 0; offset /= 2) {
        if (lane < offset)
            s[tid] += s[tid + offset];
        __syncwarp();
    }
    if (lane == 0)
        warp_sum[i / 32] = s[tid];

    swapped[i] = -1;
    if (lane < 16) {
        h[tid] = in[i] * 10;
        __syncwarp(0x0000ffffu);
        swapped[i] = h[tid - lane + (15 - lane)]; // reversed within the half warp
    }
}

int main(void)
{
    conf_require_device();

    static int h_in[TOTAL], h_sum[TOTAL / 32], h_swapped[TOTAL];
    unsigned seed = 28;
    for (int i = 0; i < TOTAL; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 1000);
    int *d_in, *d_sum, *d_swapped;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_sum, sizeof(h_sum)));
    CHECK_CUDA(cudaMalloc(&d_swapped, sizeof(h_swapped)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    warp_reduce_shared<<<BLOCKS, THREADS>>>(d_in, d_sum, d_swapped);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_sum, d_sum, sizeof(h_sum), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_swapped, d_swapped, sizeof(h_swapped), cudaMemcpyDeviceToHost));

    for (int w = 0; w < TOTAL / 32; w++) {
        int want = 0;
        for (int l = 0; l < 32; l++)
            want += h_in[w * 32 + l];
        conf_check(h_sum[w] == want, "warp %d: sum %d, expected %d", w, h_sum[w], want);
    }
    for (int i = 0; i < TOTAL; i++) {
        int lane = i % 32;
        int want = lane < 16 ? h_in[i - lane + (15 - lane)] * 10 : -1;
        conf_check(h_swapped[i] == want, "thread %d: half-warp swap %d, expected %d", i,
                   h_swapped[i], want);
    }

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_sum));
    CHECK_CUDA(cudaFree(d_swapped));
    return conf_finish();
}
