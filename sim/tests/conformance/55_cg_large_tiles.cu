// 55_cg_large_tiles — tiles of more than 32 threads (whole warps), as the
// Programming Guide documents them with cg::block_tile_memory: tiles of 64,
// 128 and 256 threads of a 256-thread block, their ranks, sizes and
// meta_group_rank/size, cg::reduce (plus, greater) over each tile in every
// member, and tile.sync() ordering shared-memory writes and reads.
#include "conformance.h"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define THREADS 256
#define BLOCKS 3
#define N (THREADS * BLOCKS)

// out per block and tile size s (64, 128, 256 at k = 0, 1, 2): [3 * b + k]
// counts the members whose facts or reductions disagree.
__global__ void large_tiles(const int *in, int *sums, int *bad)
{
    __shared__ cg::block_tile_memory<THREADS> scratch;
    __shared__ int stage[THREADS];
    cg::thread_block block = cg::this_thread_block(scratch);
    unsigned rank = block.thread_rank();
    int v = in[blockIdx.x * THREADS + rank];
    int *b = bad + 3 * blockIdx.x;

    cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
    int wrong = 0;
    wrong += t64.thread_rank() != rank % 64 || t64.num_threads() != 64 || t64.size() != 64;
    wrong += t64.meta_group_rank() != rank / 64 || t64.meta_group_size() != THREADS / 64;
    int first = blockIdx.x * THREADS + (int)(rank / 64 * 64), sum = 0, hi = in[first];
    for (int k = 0; k < 64; k++) {
        sum += in[first + k];
        hi = in[first + k] > hi ? in[first + k] : hi;
    }
    wrong += cg::reduce(t64, v, cg::plus<int>()) != sum;
    wrong += cg::reduce(t64, v, cg::greater<int>()) != hi;
    if (wrong)
        atomicAdd(&b[0], wrong);

    // A tile's sync orders its members' shared-memory writes and reads:
    // each member reads the value its mirror in the tile wrote.
    cg::thread_block_tile<128> t128 = cg::tiled_partition<128>(block);
    stage[rank] = v;
    t128.sync();
    unsigned mirror = rank - t128.thread_rank() + (127 - t128.thread_rank());
    wrong = stage[mirror] != in[blockIdx.x * THREADS + mirror];
    wrong += t128.meta_group_rank() != rank / 128 || t128.meta_group_size() != THREADS / 128;
    first = blockIdx.x * THREADS + (int)(rank / 128 * 128);
    sum = 0;
    for (int k = 0; k < 128; k++)
        sum += in[first + k];
    wrong += cg::reduce(t128, v, cg::plus<int>()) != sum;
    if (wrong)
        atomicAdd(&b[1], wrong);

    // The whole block as one tile.
    cg::thread_block_tile<THREADS> all = cg::tiled_partition<THREADS>(block);
    int total = cg::reduce(all, v, cg::plus<int>());
    wrong = all.thread_rank() != rank || all.meta_group_size() != 1;
    if (wrong)
        atomicAdd(&b[2], wrong);
    if (rank == 0)
        sums[blockIdx.x] = total;
}

int main(void)
{
    conf_require_device();
    int h_in[N], want[BLOCKS] = { 0, 0, 0 };
    unsigned seed = 55;
    for (int i = 0; i < N; i++) {
        h_in[i] = (int)(conf_lcg(&seed) % 2001) - 1000;
        want[i / THREADS] += h_in[i];
    }
    int *d_in, *d_sums, *d_bad, h_sums[BLOCKS], h_bad[3 * BLOCKS];
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_sums, sizeof(h_sums)));
    CHECK_CUDA(cudaMalloc(&d_bad, sizeof(h_bad)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_bad, 0, sizeof(h_bad)));
    large_tiles<<<BLOCKS, THREADS>>>(d_in, d_sums, d_bad);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_bad, d_bad, sizeof(h_bad), cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++) {
        conf_check(h_bad[3 * b] == 0, "block %d: tiles of 64: %d facts or reductions wrong", b,
                   h_bad[3 * b]);
        conf_check(h_bad[3 * b + 1] == 0, "block %d: tiles of 128: %d wrong", b, h_bad[3 * b + 1]);
        conf_check(h_bad[3 * b + 2] == 0, "block %d: tile of 256: %d wrong", b, h_bad[3 * b + 2]);
        conf_check(h_sums[b] == want[b], "block %d: sum %d, want %d", b, h_sums[b], want[b]);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_sums));
    CHECK_CUDA(cudaFree(d_bad));
    return conf_finish();
}
