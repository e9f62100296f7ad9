// clang-format off
// CHECK-TOOL: synccheck
// CHECK-EXPECT: Barrier error detected\. Divergent thread\(s\) in warp
// CHECK-EXPECT: at warp_sum_kernel in [^=]*sync_shfl_mask\.cu:23
// CHECK-EXPECT: by thread \((1[6-9]|2[0-9]|3[01]),0,0\) in block \([0-3],0,0\)
// clang-format on
// sync_shfl_mask — a warp sum whose __shfl_down_sync mask names lanes 0..15
// only, while all 32 lanes call it: for lanes 16..31 the mask does not even
// include the calling lane.
#include <cuda_runtime.h>

#include <stdio.h>

#define WARPS 4

// sums[w] = the sum of in over warp w; a block per warp.
__global__ void warp_sum_kernel(const int *in, int *sums)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    // BUG: every lane calls the shuffle: the mask must be 0xffffffff.
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0x0000ffff, v, offset);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = v;
}

int main(void)
{
    static int h_in[32 * WARPS];
    for (int i = 0; i < 32 * WARPS; i++)
        h_in[i] = i;
    int *d_in, *d_sums;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_sums, WARPS * sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    warp_sum_kernel<<<WARPS, 32>>>(d_in, d_sums);
    printf("warp_sum_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_in);
    cudaFree(d_sums);
    return 0;
}
