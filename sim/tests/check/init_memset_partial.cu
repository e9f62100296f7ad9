// clang-format off
// CHECK-TOOL: initcheck
// CHECK-EXPECT: Uninitialized __global__ memory read of size 4 bytes
// CHECK-EXPECT: at add_counts_kernel in [^=]*init_memset_partial\.cu:20
// CHECK-EXPECT: by thread \((1[6-9]|[2-5][0-9]|6[0-3]),0,0\) in block \(0,0,0\)
// clang-format on
// init_memset_partial — cudaMemset's size is in bytes: clearing BINS bytes
// clears only the first 16 of the 64 int counters, and the kernel then reads
// all 64 (threads 16..63 read counters nobody wrote).
#include <cuda_runtime.h>

#include <stdio.h>

#define BINS 64

// counts[b] += delta[b]; a thread per counter.
__global__ void add_counts_kernel(int *counts, const int *delta)
{
    int b = threadIdx.x;
    counts[b] += delta[b];
}

int main(void)
{
    static int h_delta[BINS], h_counts[BINS];
    for (int b = 0; b < BINS; b++)
        h_delta[b] = b;
    int *d_counts, *d_delta;
    cudaMalloc((void **)&d_counts, sizeof(h_counts));
    cudaMalloc((void **)&d_delta, sizeof(h_delta));
    cudaMemcpy(d_delta, h_delta, sizeof(h_delta), cudaMemcpyHostToDevice);
    // BUG: must be BINS * sizeof(int) bytes.
    cudaMemset(d_counts, 0, BINS);
    add_counts_kernel<<<1, BINS>>>(d_counts, d_delta);
    cudaMemcpy(h_counts, d_counts, sizeof(h_counts), cudaMemcpyDeviceToHost);
    printf("counts[63] = %d (expected 63)\n", h_counts[63]);
    cudaFree(d_counts);
    cudaFree(d_delta);
    return 0;
}
