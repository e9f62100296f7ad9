// main.cu — a kernel that calls a __device__ function of scale.cu, then cuBLAS.
#include <cublas_v2.h>
#include <cstdio>

extern __device__ float scale(float x);

__global__ void scale_all(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = scale(x[i]);
}

int main()
{
    const int n = 1000;
    float x[n], y[n], *dx, *dy, dot = 0.0f;
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    cudaMalloc(&dx, sizeof(x));
    cudaMalloc(&dy, sizeof(y));
    cudaMemcpy(dx, x, sizeof(x), cudaMemcpyHostToDevice);
    scale_all<<<(n + 255) / 256, 256>>>(dy, dx, n);
    cudaMemcpy(y, dy, sizeof(y), cudaMemcpyDeviceToHost);
    cublasHandle_t h;
    cublasCreate(&h);
    cublasSdot(h, 3, dx + 1, 1, dx + 1, 1, &dot); /* 1 + 4 + 9 */
    cublasDestroy(h);
    cudaFree(dx);
    cudaFree(dy);
    printf("cmake-app y[999]=%.0f dot=%.0f nvcc=%d.%d\n", y[999], dot, __CUDACC_VER_MAJOR__,
           __CUDACC_VER_MINOR__);
    return y[999] == 2997.0f && dot == 14.0f ? 0 : 1;
}
