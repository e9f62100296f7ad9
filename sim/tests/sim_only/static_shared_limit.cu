// clang-format off
// EXPECT-OUTPUT: kernel big_tile \(launched at .*static_shared_limit\.cu:43\): block \(0,0,0\), thread \(0,0,0\): __shared__ variable .tile. \(declared at .*static_shared_limit\.cu:18, 65536 bytes\) is larger than the 48 KiB.*PASS static_shared_limit
// clang-format on
// static_shared_limit — simulator only (nvcc refuses the first kernel: "uses
// too much shared data"): a static __shared__ array larger than the 48 KiB a
// block can have stops the kernel with a report naming it and
// cudaErrorLaunchOutOfResources; one of exactly 48 KiB works, in every block
// of a grid spread over the worker threads, and so does a 2-D array written
// at its last element.
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 256

__global__ void big_tile(float *out)
{
    __shared__ float tile[16384]; // 64 KiB
    tile[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[THREADS - 1 - threadIdx.x];
}

__global__ void full_tile(float *out)
{
    __shared__ float tile[12288]; // 48 KiB
    __shared__ int last[4][8];
    for (int k = threadIdx.x; k < 12288; k += blockDim.x)
        tile[k] = (float)(k + blockIdx.x);
    if (threadIdx.x == 0)
        last[3][7] = 1;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[12287 - threadIdx.x] + (float)last[3][7];
}

int main(void)
{
    const int blocks = 8;
    static float h[blocks * THREADS];
    float *d;
    int ok = 1;
    cudaMalloc((void **)&d, sizeof(h));
    big_tile<<<1, THREADS>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("big_tile: %s\n", cudaGetErrorName(e));
    ok &= e == cudaErrorLaunchOutOfResources;
    cudaDeviceReset();
    cudaGetLastError();
    cudaMalloc((void **)&d, sizeof(h));
    full_tile<<<blocks, THREADS>>>(d);
    e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("full_tile: %s\n", cudaGetErrorName(e));
    ok &= e == cudaSuccess;
    for (int b = 0; b < blocks && e == cudaSuccess; b++)
        for (int t = 0; t < THREADS; t++)
            if (h[b * THREADS + t] != (float)(12287 - t + b) + 1.0f) {
                printf("full_tile: out[%d] = %g, expected %g\n", b * THREADS + t,
                       h[b * THREADS + t], (float)(12287 - t + b) + 1.0f);
                ok = 0;
                b = blocks;
                break;
            }
    cudaFree(d);
    printf("%s static_shared_limit\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
