// clang-format off
// CHECK-TOOL: initcheck
// CHECK-EXPECT: Uninitialized __global__ memory read of size 4 bytes
// CHECK-EXPECT: at scale_kernel in [^=]*init_memcpy_partial\.cu:22
// CHECK-EXPECT: by thread \(1[0-2][0-9],0,0\) in block \(0,0,0\)
// clang-format on
// init_memcpy_partial — the device buffer is padded to a whole block (128
// floats) but only the 100 real values are copied in, and the kernel reads all
// 128: threads 100..127 read floats nobody wrote.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 100
#define PADDED 128

// y[i] = 2 x[i] for every thread of the grid.
__global__ void scale_kernel(const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // BUG: missing `if (i < n)`: the padding was never written.
    y[i] = 2.0f * x[i];
}

int main(void)
{
    static float h_x[N], h_y[PADDED];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)i;
    float *d_x, *d_y;
    cudaMalloc((void **)&d_x, PADDED * sizeof(float));
    cudaMalloc((void **)&d_y, PADDED * sizeof(float));
    cudaMemcpy(d_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice);
    scale_kernel<<<1, PADDED>>>(d_x, d_y);
    cudaMemcpy(h_y, d_y, sizeof(h_y), cudaMemcpyDeviceToHost);
    printf("y[99] = %g\n", h_y[99]);
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
