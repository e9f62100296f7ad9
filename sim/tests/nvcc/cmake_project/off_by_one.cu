// off_by_one.cu — a planted bug for the check mode: `i <= n` lets the thread
// with i == n write one float past the end of y (gpulab sanitizer reports it).
#include <cstdio>

__global__ void fill(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        y[i] = 1.0f;
}

int main()
{
    const int n = 1000;
    float *dy;
    cudaMalloc(&dy, n * sizeof(float));
    fill<<<(n + 255) / 256, 256>>>(dy, n);
    printf("off_by_one: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(dy);
    return 0;
}
