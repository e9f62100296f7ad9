// 10_shfl_reduce — warp shuffles over a full warp: a __shfl_down_sync sum
// reduction (lane 0 holds the warp's total), __shfl_down_sync returning the
// caller's own value past the warp's end, and __shfl_sync broadcast/rotation.
#include "conformance.h"

#define N 1000
#define THREADS 128
#define FULL 0xffffffffu

// Every lane takes part (values past n count as 0), so the full mask is right.
__global__ void warp_sums(const int *in, int n, int *warp_sum, int *down4, int *bcast, int *rot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    int warp = i / warpSize;
    int v = i < n ? in[i] : 0;
    int sum = v;
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        sum += __shfl_down_sync(FULL, sum, offset);
    if (lane == 0)
        warp_sum[warp] = sum;
    down4[i] = __shfl_down_sync(FULL, lane * 10, 4);
    bcast[i] = __shfl_sync(FULL, v, warp % warpSize); // lane (warp mod 32) of this warp
    rot[i] = __shfl_sync(FULL, (float)v * 0.5f, (lane + 3) % warpSize) * 2.0f;
}

int main(void)
{
    conf_require_device();

    int blocks = (N + THREADS - 1) / THREADS, total = blocks * THREADS, warps = total / 32;
    static int h_in[N];
    unsigned seed = 10;
    for (int i = 0; i < N; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 200) - 100;
    int *h_sum = (int *)malloc(warps * sizeof(int));
    int *h_down = (int *)malloc(total * sizeof(int));
    int *h_bcast = (int *)malloc(total * sizeof(int));
    int *h_rot = (int *)malloc(total * sizeof(int));

    int *d_in, *d_sum, *d_down, *d_bcast, *d_rot;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_sum, warps * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_down, total * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_bcast, total * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_rot, total * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    warp_sums<<<blocks, THREADS>>>(d_in, N, d_sum, d_down, d_bcast, d_rot);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_sum, d_sum, warps * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_down, d_down, total * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_bcast, d_bcast, total * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_rot, d_rot, total * sizeof(int), cudaMemcpyDeviceToHost));

    for (int w = 0; w < warps; w++) {
        int want = 0;
        for (int l = 0; l < 32; l++)
            want += w * 32 + l < N ? h_in[w * 32 + l] : 0;
        conf_check(h_sum[w] == want, "warp %d: sum %d, expected %d", w, h_sum[w], want);
    }
    for (int i = 0; i < total; i++) {
        int lane = i % 32, w = i / 32;
        int want_down = (lane + 4 < 32 ? lane + 4 : lane) * 10;
        conf_check(h_down[i] == want_down, "thread %d: shfl_down by 4 gave %d, expected %d", i,
                   h_down[i], want_down);
        int src = w * 32 + w % 32;
        int want_b = src < N ? h_in[src] : 0;
        conf_check(h_bcast[i] == want_b, "thread %d: broadcast %d, expected %d", i, h_bcast[i],
                   want_b);
        int src_r = w * 32 + (lane + 3) % 32;
        int want_r = src_r < N ? h_in[src_r] : 0;
        conf_check(h_rot[i] == want_r, "thread %d: rotation %d, expected %d", i, h_rot[i], want_r);
    }

    free(h_sum);
    free(h_down);
    free(h_bcast);
    free(h_rot);
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_sum));
    CHECK_CUDA(cudaFree(d_down));
    CHECK_CUDA(cudaFree(d_bcast));
    CHECK_CUDA(cudaFree(d_rot));
    return conf_finish();
}
