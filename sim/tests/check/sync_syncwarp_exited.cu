// clang-format off
// CHECK-TOOL: synccheck
// CHECK-EXPECT: Barrier error detected\. Divergent thread\(s\) in warp
// CHECK-EXPECT: at swap_pairs_kernel in [^=]*sync_syncwarp_exited\.cu:25
// clang-format on
// sync_syncwarp_exited — lanes 16..31 return early, and the remaining lanes
// synchronize with __syncwarp(0xffffffff): the mask names lanes that have
// exited and will never arrive.
#include <cuda_runtime.h>

#include <stdio.h>

#define WARPS 2

// For lanes 0..15 of each warp: out[i] = in[i ^ 1] (neighbours swapped).
__global__ void swap_pairs_kernel(const int *in, int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    int i = blockIdx.x * blockDim.x + lane;
    if (lane >= 16)
        return;
    s[lane] = in[i];
    // BUG: lanes 16..31 have returned: the mask must be 0x0000ffff.
    __syncwarp(0xffffffff);
    out[i] = s[lane ^ 1];
}

int main(void)
{
    static int h_in[32 * WARPS];
    for (int i = 0; i < 32 * WARPS; i++)
        h_in[i] = i;
    int *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(h_in));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(h_in));
    swap_pairs_kernel<<<WARPS, 32>>>(d_in, d_out);
    printf("swap_pairs_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
