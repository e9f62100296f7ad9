// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Program hit cudaErrorInvalidValue \(error 1\) due to .invalid argument. on CUDA API call to cudaFree\.
// clang-format on
// mem_double_free — a cleanup path that frees d_x a second time; the second
// cudaFree fails with cudaErrorInvalidValue.
#include <cuda_runtime.h>

#include <stdio.h>

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
    float *d_x;
    static float h_x[N];
    cudaMalloc((void **)&d_x, N * sizeof(float));
    iota_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, N);
    cudaMemcpy(h_x, d_x, sizeof(h_x), cudaMemcpyDeviceToHost);
    printf("x[999] = %g\n", h_x[999]);
    cudaFree(d_x);
    // BUG: d_x was freed above already.
    cudaError_t e = cudaFree(d_x);
    printf("second cudaFree: %s\n", cudaGetErrorName(e));
    return 0;
}
