// clang-format off
// CHECK-TOOL: initcheck
// CHECK-EXPECT: Uninitialized __global__ memory read of size 4 bytes
// CHECK-EXPECT: at scale_kernel in [^=]*init_global\.cu:20
// clang-format on
// init_global — the upload was forgotten: d_x comes from cudaMalloc and is
// never written (by a copy, a memset or a kernel) before the kernel reads it.
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

int main(void)
{
    static float h_x[N], h_y[N];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)i;
    float *d_x, *d_y;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMalloc((void **)&d_y, sizeof(h_y));
    // BUG: missing cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice).
    scale_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, d_y, N);
    cudaMemcpy(h_y, d_y, sizeof(h_y), cudaMemcpyDeviceToHost);
    printf("y[1] = %g (expected %g)\n", h_y[1], 2.0f * h_x[1]);
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
