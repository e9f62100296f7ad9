// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: kernel scale_kernel launched at [^=]*mem_host_pointer_arg\.cu:34: argument 2 .h_y. is a host pointer
// clang-format on
// mem_host_pointer_arg — a malloc'd host buffer passed to a kernel: the
// simulator's launch check names the argument; a GPU would fail with an
// illegal address when the kernel writes it.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define THREADS 256

// y[i] = 2 x[i].
__global__ void scale_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i];
}

int main(void)
{
    static float h_x[N];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)i;
    float *h_y = (float *)malloc(N * sizeof(float));
    float *d_x;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    // BUG: h_y is host memory; the kernel needs a cudaMalloc'd d_y (then a copy back).
    scale_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, h_y, N);
    printf("scale_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_x);
    free(h_y);
    return 0;
}
