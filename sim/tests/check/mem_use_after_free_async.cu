// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ read of size 4 bytes
// CHECK-EXPECT: at offset_kernel in [^=]*mem_use_after_free_async\.cu:30
// CHECK-EXPECT: Address 0x[0-9a-f]+ is in memory freed by cudaFreeAsync \(the allocation at 0x[0-9a-f]+ of size 4000 bytes\)
// clang-format on
// mem_use_after_free_async — stream-ordered memory freed too early: the
// cudaFreeAsync of x is queued before the second kernel that reads x, so
// by the time that kernel runs, the stream has given x back to its pool.
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
    cudaStream_t s;
    cudaStreamCreate(&s);
    float *d_x, *d_y;
    cudaMallocAsync((void **)&d_x, N * sizeof(float), s);
    cudaMallocAsync((void **)&d_y, N * sizeof(float), s);
    cudaMemcpyAsync(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice, s);
    scale_kernel<<<(N + THREADS - 1) / THREADS, THREADS, 0, s>>>(d_x, d_y, N);
    // BUG: x goes back to the pool here, in stream order, before offset_kernel reads it.
    cudaFreeAsync(d_x, s);
    offset_kernel<<<(N + THREADS - 1) / THREADS, THREADS, 0, s>>>(d_x, d_y, N);
    printf("offset_kernel: %s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
    cudaFreeAsync(d_y, s);
    cudaStreamDestroy(s);
    return 0;
}
