// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ write of size 4 bytes
// CHECK-EXPECT: at fill_kernel in [^=]*mem_oob_write\.cu:24
// CHECK-EXPECT: by thread \(232,0,0\) in block \(3,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is 0 bytes after the nearest allocation at 0x[0-9a-f]+ of size 4000 bytes
// clang-format on
// mem_oob_write — an off-by-one bounds check (i <= n): the one thread with
// i == n (thread 232 of block 3) writes the float just past the end of out.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256

// Fills out[i] = i / 2 for the n elements of out.
__global__ void fill_kernel(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // BUG: must be i < n.
    if (i <= n)
        out[i] = 0.5f * (float)i;
}

int main(void)
{
    float *d_out;
    cudaMalloc((void **)&d_out, N * sizeof(float));
    fill_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_out, N);
    printf("fill_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_out);
    return 0;
}
