// clang-format off
// CHECK-TOOL: synccheck
// CHECK-EXPECT: Barrier error detected\. Divergent thread\(s\) in warp
// CHECK-EXPECT: at pair_sum_kernel in [^=]*sync_shfl_divergent\.cu:22
// clang-format on
// sync_shfl_divergent — a shuffle inside `if (lane < 16)` with the full mask:
// the mask names lanes 16..31, which never call it.
#include <cuda_runtime.h>

#include <stdio.h>

#define WARPS 4

// For lanes 0..7 of each warp: out[i] = in[i] + in[i + 8]; the others copy.
__global__ void pair_sum_kernel(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[i];
    if (lane < 16) {
        // BUG: only lanes 0..15 get here: the mask must be 0x0000ffff.
        int other = __shfl_down_sync(0xffffffff, v, 8);
        if (lane < 8)
            v += other;
    }
    out[i] = v;
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
    pair_sum_kernel<<<WARPS, 32>>>(d_in, d_out);
    printf("pair_sum_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
