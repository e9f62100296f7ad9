// 56_shfl_partial_warp — a warp shuffle in a block of fewer than 32 threads
// that reads a lane the block does not have: CUDA leaves the value undefined,
// GPUs give 0, and reductions rely on it (a tile of 32 summing 1 to 16
// values with shfl_down from 16, 8, ..., 1). Raw __shfl_down_sync, a
// thread_block_tile<32> and __shfl_xor_sync over 1..31-thread blocks.
#include "conformance.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define MAXT 31

// out[0]: lane 0's sum by __shfl_down_sync over the block's lanes (mask of
// the lanes it has); out[1]: the same by a tile of 32; out[2]: lane 0's sum
// by __shfl_xor_sync butterflies.
__global__ void partial_sums(const int *in, int *out)
{
    unsigned n = blockDim.x;
    unsigned mask = n >= 32 ? 0xffffffffu : (1u << n) - 1u;
    int v = in[threadIdx.x];
    int down = v, xr = v, tiled = v;
    for (int offset = 16; offset > 0; offset /= 2)
        down += __shfl_down_sync(mask, down, offset);
    for (int offset = 16; offset > 0; offset /= 2)
        xr += __shfl_xor_sync(mask, xr, offset);
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cg::this_thread_block());
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2)
        tiled += tile32.shfl_down(tiled, offset);
    if (threadIdx.x == 0) {
        out[0] = down;
        out[1] = tiled;
        out[2] = xr;
    }
}

int main(void)
{
    conf_require_device();
    int h_in[MAXT];
    unsigned seed = 56;
    for (int i = 0; i < MAXT; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 1000) + 1;
    int *d_in, *d_out;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, 3 * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    for (int n = 1; n <= MAXT; n++) {
        int h_out[3] = { 0, 0, 0 };
        partial_sums<<<1, n>>>(d_in, d_out);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
        int want = 0;
        for (int i = 0; i < n; i++)
            want += h_in[i];
        conf_check(h_out[0] == want, "%d threads: __shfl_down_sync sum %d, expected %d", n,
                   h_out[0], want);
        conf_check(h_out[1] == want, "%d threads: tile32.shfl_down sum %d, expected %d", n,
                   h_out[1], want);
        // Butterflies: lane 0 adds lane 16, 8, ... of the lanes that exist.
        int pow2 = (n & (n - 1)) == 0;
        if (pow2)
            conf_check(h_out[2] == want, "%d threads: __shfl_xor_sync sum %d, expected %d", n,
                       h_out[2], want);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
