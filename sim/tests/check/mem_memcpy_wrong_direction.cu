// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Program hit cudaErrorInvalidValue \(error 1\) due to .invalid argument. on CUDA API call to cudaMemcpy\.
// clang-format on
// mem_memcpy_wrong_direction — an upload written with the download's kind
// (cudaMemcpyDeviceToHost while the destination is device memory and the
// source host memory): cudaMemcpy fails with cudaErrorInvalidValue.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256

// x[i] *= 2.
__global__ void double_kernel(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

int main(void)
{
    static float h_x[N];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)i;
    float *d_x;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    // BUG: the kind must be cudaMemcpyHostToDevice.
    cudaError_t e = cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyDeviceToHost);
    printf("cudaMemcpy: %s\n", cudaGetErrorName(e));
    cudaMemset(d_x, 0, sizeof(h_x));
    double_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, N);
    cudaMemcpy(h_x, d_x, sizeof(h_x), cudaMemcpyDeviceToHost);
    cudaFree(d_x);
    return 0;
}
