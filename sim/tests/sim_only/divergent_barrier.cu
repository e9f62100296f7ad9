// clang-format off
// EXPECT-OUTPUT: Barrier error detected\. Divergent thread\(s\) in block \(1,0,0\) of kernel diverge \(launched at .*divergent_barrier\.cu:38\).* 16 thread\(s\) wait in __syncthreads at .*divergent_barrier\.cu:24.* 16 thread\(s\) wait in __syncthreads at .*divergent_barrier\.cu:26.*cudaErrorSynchronizationError
// clang-format on
// divergent_barrier — simulator only: a __syncthreads that only some threads of
// a block reach (here half the block waits at one barrier and half at
// another) gives a report naming the block and both lines, and the kernel
// fails with cudaErrorSynchronizationError instead of hanging. On a GPU this
// kernel may hang, so it is not part of the conformance suite.
#include <cuda_runtime.h>

#include <stdio.h>

__global__ void fine(int *out)
{
    out[threadIdx.x] = 1;
    __syncthreads();
}

__global__ void diverge(int *out)
{
    if (blockIdx.x != 1)
        return;
    if (threadIdx.x < 16)
        __syncthreads();
    else
        __syncthreads();
    out[threadIdx.x] = 1;
}

int main(void)
{
    int *d;
    int ok = 1;
    cudaMalloc((void **)&d, 64 * sizeof(int));
    fine<<<1, 32>>>(d);
    ok &= cudaDeviceSynchronize() == cudaSuccess;
    fflush(stdout);
    diverge<<<2, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("after the divergent barrier: %s\n", cudaGetErrorName(e));
    ok &= e == cudaErrorSynchronizationError;
    printf("%s divergent_barrier\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
