// clang-format off
// CHECK-TOOL: synccheck
// CHECK-EXPECT: Barrier error detected\. Divergent thread\(s\) in warp
// CHECK-EXPECT: at tile_sum_kernel in [^=]*sync_tile_divergent\.cu:28
// clang-format on
// sync_tile_divergent — a tile of 32's sync() inside `if (rank < 16)`: the
// tile's other 16 threads never reach it, as with __syncwarp.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <stdio.h>

namespace cg = cooperative_groups;

#define WARPS 2

// Each half tile sums its lanes' values through shared memory.
__global__ void tile_sum_kernel(const int *in, int *out)
{
    __shared__ int s[32 * WARPS];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    unsigned r = block.thread_rank();
    s[r] = in[r];
    tile.sync();
    if (tile.thread_rank() < 16) {
        // BUG: only half the tile gets here: the sync belongs before the if.
        tile.sync();
        if (tile.thread_rank() == 0) {
            int t = 0;
            for (int k = 0; k < 16; k++)
                t += s[r + k];
            out[r / 32] = t;
        }
    }
}

int main(void)
{
    static int h_in[32 * WARPS];
    for (int i = 0; i < 32 * WARPS; i++)
        h_in[i] = i;
    int *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(int) * WARPS);
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    tile_sum_kernel<<<1, 32 * WARPS>>>(d_in, d_out);
    printf("tile_sum_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
