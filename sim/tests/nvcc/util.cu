// util.cu — the nvcc driver test: a kernel and its launcher in their own file.
#include "util.h"

#include <stdio.h>

#ifndef SCALE
#error "the test passes -DSCALE=3"
#endif

__global__ void scale_kernel(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = SCALE * x[i];
}

void scale_on_device(float *h_y, const float *h_x, int n)
{
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
    scale_kernel<<<(n + 127) / 128, 128>>>(d_y, d_x, n);
    cudaMemcpy(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_x);
    cudaFree(d_y);
}
