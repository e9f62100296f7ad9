// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Program hit cudaErrorInvalidValue \(error 1\) due to .invalid argument. on CUDA API call to cudaMemset\.
// clang-format on
// mem_memset_too_large — a histogram cleared with the size of the largest
// supported histogram (MAX_BINS counters) while only `bins` were allocated:
// cudaMemset runs past the end of the allocation and fails.
#include <cuda_runtime.h>

#include <stdio.h>

#define MAX_BINS 256
#define N 4096
#define THREADS 256

// hist[in[i] % bins] += 1 for every i < n.
__global__ void histogram_kernel(const int *in, int *hist, int n, int bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&hist[in[i] % bins], 1);
}

int main(void)
{
    static int h_in[N];
    for (int i = 0; i < N; i++)
        h_in[i] = i * 7;
    int bins = 64;
    int *d_in, *d_hist;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_hist, bins * sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    // BUG: must clear bins * sizeof(int) bytes.
    cudaError_t e = cudaMemset(d_hist, 0, MAX_BINS * sizeof(int));
    printf("cudaMemset: %s\n", cudaGetErrorName(e));
    cudaMemset(d_hist, 0, bins * sizeof(int));
    histogram_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_in, d_hist, N, bins);
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_hist);
    return 0;
}
