// clang-format off
// CHECK-TOOL: synccheck
// CHECK-EXPECT: Barrier error detected\. Divergent thread\(s\) in block
// CHECK-EXPECT: at passes_kernel in [^=]*sync_barrier_in_loop\.cu:(27|29)
// clang-format on
// sync_barrier_in_loop — a loop with a barrier whose trip count depends on the
// thread (tid % 4 passes): threads leave the loop after different numbers of
// barriers, and then wait at different __syncthreads.
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 64
#define BLOCKS 2

// Halves each value tid % 4 times, then rotates the block left by one place.
__global__ void passes_kernel(float *x)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = x[i];
    // BUG: a thread-dependent trip count around a barrier; loop the same
    // number of times in every thread and make the halving conditional.
    for (int k = 0; k < tid % 4; k++) {
        s[tid] *= 0.5f;
        __syncthreads();
    }
    __syncthreads();
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
    passes_kernel<<<BLOCKS, THREADS>>>(d_x);
    printf("passes_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_x);
    return 0;
}
