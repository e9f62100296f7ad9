// clang-format off
// EXPECT-OUTPUT: kernel scale launched at .*host_pointer_arg\.cu:30: argument 2 'h_y' is a host pointer \(0x[0-9a-f]+\), not device memory.*sticky
// clang-format on
// host_pointer_arg — simulator only: a host pointer passed to a kernel is
// reported with the argument's position, its name as written and the launch
// line, and gives the sticky cudaErrorIllegalAddress (every later call fails
// until cudaDeviceReset). A GPU reports the same error without the names.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

__global__ void scale(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i];
}

int main(void)
{
    const int n = 1000;
    float *d_x, *d_y, *h_y = (float *)malloc(n * sizeof(float));
    int ok = 1;
    cudaMalloc((void **)&d_x, n * sizeof(float));
    cudaMalloc((void **)&d_y, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(d_x, d_y, n);
    ok &= cudaDeviceSynchronize() == cudaSuccess;
    fflush(stdout);
    scale<<<(n + 255) / 256, 256>>>(d_x, h_y, n);
    ok &= cudaDeviceSynchronize() == cudaErrorIllegalAddress;
    ok &= cudaMalloc((void **)&d_x, 4) == cudaErrorIllegalAddress; // sticky
    ok &= cudaDeviceReset() == cudaSuccess;
    ok &= cudaMalloc((void **)&d_x, 4) == cudaSuccess;
    printf("%s host_pointer_arg\n", ok ? "PASS" : "FAIL");
    free(h_y);
    return ok ? 0 : 1;
}
