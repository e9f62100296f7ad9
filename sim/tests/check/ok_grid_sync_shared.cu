// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_grid_sync_shared — a cooperative kernel whose blocks keep values in
// static and dynamic shared memory across grid.sync(): each block stages its
// slice there (and in a part of an array that only it writes), publishes
// its sum, waits for the whole grid, and then reads its own shared memory
// again to scale the slice by the grand total.
// Shared memory written before grid.sync() is still the block's after it
// (no uninitialized read), and the tile syncs order the shared accesses
// (no race).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <stdio.h>

namespace cg = cooperative_groups;

#define THREADS 64

__global__ void normalize_kernel(const int *in, int *sums, int *out)
{
    __shared__ int s[THREADS];
    __shared__ int mine[4 * THREADS]; // each block writes a part of its own
    extern __shared__ int copy[];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    unsigned r = block.thread_rank();
    s[r] = in[grid.thread_rank()];
    copy[r] = 2 * s[r];
    mine[blockIdx.x * THREADS + r] = s[r] + 1;
    tile.sync();
    if (tile.thread_rank() == 0) {
        int t = 0;
        for (int k = 0; k < 32; k++)
            t += s[r + k];
        atomicAdd(&sums[blockIdx.x], t);
    }
    grid.sync();
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; b++)
        total += sums[b];
    out[grid.thread_rank()] = s[r] * total + copy[r] + mine[blockIdx.x * THREADS + r] - 1;
}

int main(void)
{
    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize_kernel, THREADS,
                                                  THREADS * sizeof(int));
    int blocks = per_sm * sms < 4 ? per_sm * sms : 4;
    int n = blocks * THREADS;
    static int h_in[4 * THREADS], h_out[4 * THREADS];
    int total = 0;
    for (int i = 0; i < n; i++) {
        h_in[i] = i % 7 - 3;
        total += h_in[i];
    }
    int *d_in, *d_sums, *d_out;
    cudaMalloc((void **)&d_in, sizeof(int) * n);
    cudaMalloc((void **)&d_sums, sizeof(int) * blocks);
    cudaMalloc((void **)&d_out, sizeof(int) * n);
    cudaMemcpy(d_in, h_in, sizeof(int) * n, cudaMemcpyHostToDevice);
    cudaMemset(d_sums, 0, sizeof(int) * blocks);
    void *args[] = { &d_in, &d_sums, &d_out };
    cudaLaunchCooperativeKernel(normalize_kernel, blocks, THREADS, args, THREADS * sizeof(int), 0);
    cudaMemcpy(h_out, d_out, sizeof(int) * n, cudaMemcpyDeviceToHost);
    int ok = blocks >= 1;
    for (int i = 0; i < n; i++)
        ok &= h_out[i] == h_in[i] * total + 3 * h_in[i];
    cudaFree(d_in);
    cudaFree(d_sums);
    cudaFree(d_out);
    printf("%s ok_grid_sync_shared\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
