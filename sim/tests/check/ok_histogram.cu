// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_histogram — a histogram in two levels: each block counts into shared
// bins with atomicAdd (cleared, then a barrier, before; a barrier after), then
// adds its bins to the global histogram with atomicAdd; the global bins are
// cleared by cudaMemset first.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 10000
#define BINS 64
#define THREADS 256
#define BLOCKS 8

// hist[b] += the number of i < n with in[i] % BINS == b (in[i] >= 0).
__global__ void histogram_kernel(const int *in, int *hist, int n)
{
    __shared__ int s[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        s[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s[in[i] % BINS], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (s[b] > 0)
            atomicAdd(&hist[b], s[b]);
}

int main(void)
{
    static int h_in[N], h_hist[BINS], want[BINS];
    for (int i = 0; i < N; i++) {
        h_in[i] = (i * 37) % 1000;
        want[h_in[i] % BINS]++;
    }
    int *d_in, *d_hist;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_hist, sizeof(h_hist));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMemset(d_hist, 0, sizeof(h_hist));
    histogram_kernel<<<BLOCKS, THREADS>>>(d_in, d_hist, N);
    cudaMemcpy(h_hist, d_hist, sizeof(h_hist), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int b = 0; b < BINS; b++)
        if (h_hist[b] != want[b] && bad++ < 5)
            printf("hist[%d] = %d, expected %d\n", b, h_hist[b], want[b]);
    cudaFree(d_in);
    cudaFree(d_hist);
    printf("%s ok_histogram (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
