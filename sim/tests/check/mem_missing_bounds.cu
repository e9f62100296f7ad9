// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ read of size 4 bytes
// CHECK-EXPECT: at add_one_kernel in [^=]*mem_missing_bounds\.cu:24
// CHECK-EXPECT: by thread \((23[2-9]|24[0-9]|25[0-5]),0,0\) in block \(3,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is [0-9]+ bytes after the nearest allocation at 0x[0-9a-f]+ of size 4000 bytes
// clang-format on
// mem_missing_bounds — no bounds check at all: n = 1000 is not a multiple of
// the 256-thread block, so threads 232..255 of the last block (3) read x past
// its end (and would write y past its end).
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256

// y[i] = x[i] + 1.
__global__ void add_one_kernel(const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // BUG: missing `if (i < n)`: the grid has more threads than elements.
    y[i] = x[i] + 1.0f;
}

int main(void)
{
    static float h_x[N];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)i;
    float *d_x, *d_y;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMalloc((void **)&d_y, N * sizeof(float));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    add_one_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, d_y);
    printf("add_one_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
