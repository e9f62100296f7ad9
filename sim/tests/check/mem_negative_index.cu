// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ read of size 4 bytes
// CHECK-EXPECT: at diff_kernel in [^=]*mem_negative_index\.cu:24
// CHECK-EXPECT: by thread \(0,0,0\) in block \(0,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is 4 bytes before the nearest allocation at 0x[0-9a-f]+ of size 4000 bytes
// clang-format on
// mem_negative_index — a backward difference without a lower bound: thread 0
// of block 0 reads x[-1], 4 bytes before the start of x.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256

// d[i] = x[i] - x[i - 1] for 0 < i < n.
__global__ void diff_kernel(const float *x, float *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // BUG: must be 0 < i && i < n.
    if (i < n)
        d[i] = x[i] - x[i - 1];
}

int main(void)
{
    static float h_x[N];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)(i * i);
    float *d_x, *d_d;
    cudaMalloc((void **)&d_d, N * sizeof(float)); // first, so that x[-1] is device memory
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    diff_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, d_d, N);
    printf("diff_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_x);
    cudaFree(d_d);
    return 0;
}
