// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Program hit cudaErrorInvalidValue \(error 1\) due to .invalid argument. on CUDA API call to cudaFree\.
// clang-format on
// mem_free_host_pointer — host memory from malloc given to cudaFree (the
// host and device buffers swapped in the cleanup): cudaErrorInvalidValue.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define THREADS 256

// x[i] = i.
__global__ void iota_kernel(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (float)i;
}

int main(void)
{
    float *h_x = (float *)malloc(N * sizeof(float));
    float *d_x;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    iota_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, N);
    cudaMemcpy(h_x, d_x, N * sizeof(float), cudaMemcpyDeviceToHost);
    printf("x[999] = %g\n", h_x[999]);
    // BUG: h_x is host memory (free it with free); d_x is the one for cudaFree.
    cudaError_t e = cudaFree(h_x);
    printf("cudaFree(h_x): %s\n", cudaGetErrorName(e));
    cudaFree(d_x);
    free(h_x);
    return 0;
}
