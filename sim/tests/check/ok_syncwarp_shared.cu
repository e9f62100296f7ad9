// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_syncwarp_shared — a per-warp tree reduction through shared memory, each
// step ordered by __syncwarp() (as in the CUDA programming guide): __syncwarp
// is a barrier and a memory fence for the warp's lanes, so the shared accesses
// of different steps are not races (racecheck must not report them).
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 128
#define BLOCKS 3

// warp_sums[w] = the sum of in over global warp w (32 consecutive values).
__global__ void warp_reduce_kernel(const int *in, int *warp_sums)
{
    __shared__ int s[THREADS];
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
        warp_sums[i / 32] = s[tid];
}

int main(void)
{
    static int h_in[THREADS * BLOCKS], h_sums[THREADS * BLOCKS / 32];
    for (int i = 0; i < THREADS * BLOCKS; i++)
        h_in[i] = i % 13 - 6;
    int *d_in, *d_sums;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_sums, sizeof(h_sums));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    warp_reduce_kernel<<<BLOCKS, THREADS>>>(d_in, d_sums);
    cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int w = 0; w < THREADS * BLOCKS / 32; w++) {
        int want = 0;
        for (int l = 0; l < 32; l++)
            want += h_in[32 * w + l];
        if (h_sums[w] != want && bad++ < 5)
            printf("warp %d: %d, expected %d\n", w, h_sums[w], want);
    }
    cudaFree(d_in);
    cudaFree(d_sums);
    printf("%s ok_syncwarp_shared (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
