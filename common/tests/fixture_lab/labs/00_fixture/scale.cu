/* The fixture lab's device code, as a starter: the kernel body is missing. */
#include "scale.h"

#include "lab/check.h"

__global__ void scale_kernel(float *y, const float *x, float a, int n)
{
    /* TODO: y[i] = a * x[i] for the thread's element i, when i < n. */
    (void)y;
    (void)x;
    (void)a;
    (void)n;
}

void scale_on_device(float *h_y, const float *h_x, float a, int n)
{
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    size_t bytes = sizeof(float) * (size_t)n;
    float *d_x, *d_y;
    LAB_CHECK(cudaMalloc(&d_x, bytes));
    LAB_CHECK(cudaMalloc(&d_y, bytes));
    LAB_CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
    LAB_CHECK(cudaMemset(d_y, 0, bytes));
    scale_kernel<<<blocks, threads>>>(d_y, d_x, a, n);
    LAB_CHECK_LAUNCH();
    LAB_CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    LAB_CHECK(cudaFree(d_x));
    LAB_CHECK(cudaFree(d_y));
}
