// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ read of size 4 bytes
// CHECK-EXPECT: at offset_kernel in [^=]*mem_use_after_free\.cu:29
// CHECK-EXPECT: Address 0x[0-9a-f]+ is in memory freed by cudaFree \(the allocation at 0x[0-9a-f]+ of size 4000 bytes\)
// clang-format on
// mem_use_after_free — a two-kernel pipeline whose input is freed between the
// kernels: the second kernel reads memory that cudaFree has given back.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256

// y[i] = 2 x[i].
__global__ void scale_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i];
}

// y[i] += x[i].
__global__ void offset_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
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
    scale_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, d_y, N);
    // BUG: d_x is freed here, but offset_kernel below still reads it.
    cudaFree(d_x);
    offset_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, d_y, N);
    printf("offset_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_y);
    return 0;
}
