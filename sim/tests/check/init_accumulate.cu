// clang-format off
// CHECK-TOOL: initcheck
// CHECK-EXPECT: Uninitialized __global__ memory read of size 4 bytes
// CHECK-EXPECT: at accumulate_kernel in [^=]*init_accumulate\.cu:21
// clang-format on
// init_accumulate — a sum accumulated over several launches into a buffer
// that was never cleared: the first launch adds to whatever cudaMalloc left.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define BATCHES 4
#define THREADS 256

// sum[i] += x[i].
__global__ void accumulate_kernel(const float *x, float *sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        sum[i] += x[i];
}

int main(void)
{
    static float h_x[BATCHES * N], h_sum[N];
    for (int i = 0; i < BATCHES * N; i++)
        h_x[i] = 1.0f;
    float *d_x, *d_sum;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMalloc((void **)&d_sum, sizeof(h_sum));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    // BUG: missing cudaMemset(d_sum, 0, sizeof(h_sum)).
    for (int b = 0; b < BATCHES; b++)
        accumulate_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x + b * N, d_sum, N);
    cudaMemcpy(h_sum, d_sum, sizeof(h_sum), cudaMemcpyDeviceToHost);
    printf("sum[0] = %g (expected %d)\n", h_sum[0], BATCHES);
    cudaFree(d_x);
    cudaFree(d_sum);
    return 0;
}
