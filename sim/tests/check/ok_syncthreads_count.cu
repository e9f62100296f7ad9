// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_syncthreads_count — the barriers that also reduce a predicate over the
// block (__syncthreads_count, __syncthreads_and, __syncthreads_or), reached by
// every thread, including those past n (with a false predicate).
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256
#define BLOCKS ((N + THREADS - 1) / THREADS)

// stats[3 b .. 3 b + 2] = for block b: how many of its values are positive,
// whether all of its threads have a value below 100, whether any value is 0.
__global__ void stats_kernel(const int *in, int *stats, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : -1;
    int positives = __syncthreads_count(v > 0);
    int all_small = __syncthreads_and(v < 100);
    int any_zero = __syncthreads_or(v == 0);
    if (threadIdx.x == 0) {
        stats[3 * blockIdx.x] = positives;
        stats[3 * blockIdx.x + 1] = all_small != 0;
        stats[3 * blockIdx.x + 2] = any_zero != 0;
    }
}

int main(void)
{
    static int h_in[N], h_stats[3 * BLOCKS];
    for (int i = 0; i < N; i++)
        h_in[i] = i < 256 ? i % 7 - 2 : (i < 512 ? i % 150 + 1 : i % 90 + 1);
    int *d_in, *d_stats;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_stats, sizeof(h_stats));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    stats_kernel<<<BLOCKS, THREADS>>>(d_in, d_stats, N);
    cudaMemcpy(h_stats, d_stats, sizeof(h_stats), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int b = 0; b < BLOCKS; b++) {
        int pos = 0, small = 1, zero = 0;
        for (int t = 0; t < THREADS; t++) {
            int i = b * THREADS + t, v = i < N ? h_in[i] : -1;
            pos += v > 0;
            small &= v < 100;
            zero |= v == 0;
        }
        if ((h_stats[3 * b] != pos || h_stats[3 * b + 1] != small || h_stats[3 * b + 2] != zero) &&
            bad++ < 5)
            printf("block %d: %d %d %d, expected %d %d %d\n", b, h_stats[3 * b], h_stats[3 * b + 1],
                   h_stats[3 * b + 2], pos, small, zero);
    }
    cudaFree(d_in);
    cudaFree(d_stats);
    printf("%s ok_syncthreads_count (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
