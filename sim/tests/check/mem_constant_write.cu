// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ write of size 4 bytes
// CHECK-EXPECT: at scale_all in [^=]*mem_constant_write\.cu:30
// CHECK-EXPECT: is in the __constant__ variable factors: kernels only read constant memory
// PLAIN-EXIT: 0
// PLAIN-EXPECT: scale_all: cudaSuccess
// clang-format on
// mem_constant_write — a kernel writes a __constant__ array through a pointer
// it cast the const away from. Constant memory is read-only to kernels (the
// host sets it with cudaMemcpyToSymbol); a write through a pointer is
// undefined on a GPU, and memcheck names it.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 4

__constant__ float factors[N];

__device__ float *factor_slot(int i)
{
    return (float *)&factors[i];
}

__global__ void scale_all(float *x)
{
    int i = threadIdx.x;
    // BUG: constant memory is not writable from a kernel; keep a copy in global memory.
    *factor_slot(i) = factors[i] * 2.0f;
    x[i] *= factors[i];
}

int main(void)
{
    float h[N] = { 1, 2, 3, 4 }, *x;
    cudaMemcpyToSymbol(factors, h, sizeof(h));
    cudaMalloc((void **)&x, sizeof(h));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    scale_all<<<1, N>>>(x);
    printf("scale_all: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(x);
    return 0;
}
