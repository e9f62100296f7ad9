// clang-format off
// CHECK-TOOL: initcheck
// CHECK-EXPECT: Uninitialized __shared__ memory read of size 4 bytes
// CHECK-EXPECT: at diff_kernel in [^=]*init_shared\.cu:26
// CHECK-EXPECT: by thread \(63,0,0\) in block \([0-3],0,0\)
// clang-format on
// init_shared — a forward difference through shared memory whose halo is
// never loaded: s has room for the block's 64 values and the next block's
// first, but nobody writes s[64], which thread 63 reads.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 256
#define THREADS 64

// d[i] = x[i + 1] - x[i] (x has n + 1 values).
__global__ void diff_kernel(const float *x, float *d)
{
    __shared__ float s[THREADS + 1];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = x[i];
    // BUG: missing `if (tid == 0) s[THREADS] = x[i + THREADS];` (the halo).
    __syncthreads();
    d[i] = s[tid + 1] - s[tid];
}

int main(void)
{
    static float h_x[N + 1];
    for (int i = 0; i <= N; i++)
        h_x[i] = (float)(i * i);
    float *d_x, *d_d;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMalloc((void **)&d_d, N * sizeof(float));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    diff_kernel<<<N / THREADS, THREADS>>>(d_x, d_d);
    printf("diff_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_x);
    cudaFree(d_d);
    return 0;
}
