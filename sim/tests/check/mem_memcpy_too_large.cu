// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Program hit cudaErrorInvalidValue \(error 1\) due to .invalid argument. on CUDA API call to cudaMemcpy\.
// clang-format on
// mem_memcpy_too_large — the copy back is sized by the host array (MAX_N
// floats) rather than by the n floats allocated on the device: it runs past
// the end of d_y, and cudaMemcpy fails with cudaErrorInvalidValue.
#include <cuda_runtime.h>

#include <stdio.h>

#define MAX_N 1024
#define THREADS 256

// y[i] = i.
__global__ void iota_kernel(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = (float)i;
}

int main(void)
{
    static float h_y[MAX_N];
    int n = 1000;
    float *d_y;
    cudaMalloc((void **)&d_y, n * sizeof(float));
    iota_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_y, n);
    // BUG: must copy n * sizeof(float) bytes.
    cudaError_t e = cudaMemcpy(h_y, d_y, sizeof(h_y), cudaMemcpyDeviceToHost);
    printf("cudaMemcpy: %s\n", cudaGetErrorName(e));
    cudaFree(d_y);
    return 0;
}
