// host_only.cpp — plain C++ (no kernels) against gpulab::cublas.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cstdio>

int main()
{
    float x[3] = { 1, 2, 3 }, *dx, dot = 0.0f;
    cudaMalloc(&dx, sizeof(x));
    cudaMemcpy(dx, x, sizeof(x), cudaMemcpyHostToDevice);
    cublasHandle_t h;
    cublasCreate(&h);
    cublasSdot(h, 3, dx, 1, dx, 1, &dot);
    cublasDestroy(h);
    cudaFree(dx);
    printf("host-only dot=%.0f\n", dot);
    return dot == 14.0f ? 0 : 1;
}
