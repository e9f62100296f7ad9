// clang-format off
// CHECK-TOOL: synccheck
// CHECK-EXPECT: Barrier error detected\. Divergent thread\(s\) in block
// CHECK-EXPECT: at halves_kernel in [^=]*sync_divergent_block\.cu:(26|29)
// clang-format on
// sync_divergent_block — a __syncthreads in each branch of an if on the
// thread index: they are two different barriers, each reached by only part of
// the block, so neither can be released (a GPU may hang or go on wrongly).
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 64
#define BLOCKS 2

// Scales the first 16 values of each block by 2 and the others by 3, then
// rotates the block's values left by one place.
__global__ void halves_kernel(float *x)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    // BUG: the barriers must be outside the if, one for the whole block.
    if (tid < 16) {
        s[tid] = 2.0f * x[i];
        __syncthreads();
    } else {
        s[tid] = 3.0f * x[i];
        __syncthreads();
    }
    x[i] = s[(tid + 1) % blockDim.x];
}

int main(void)
{
    static float h_x[THREADS * BLOCKS];
    for (int i = 0; i < THREADS * BLOCKS; i++)
        h_x[i] = (float)i;
    float *d_x;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    halves_kernel<<<BLOCKS, THREADS>>>(d_x);
    printf("halves_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_x);
    return 0;
}
