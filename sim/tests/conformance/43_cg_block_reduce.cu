// 43_cg_block_reduce — cooperative groups in a block: this_thread_block()'s
// rank, size and indices on a 16x8 block, a sum by tiles of 32 (shfl_down),
// cg::reduce with plus/less/greater/bit_and/bit_or/bit_xor on tiles of 8,
// meta_group_rank/size, block.sync() and cg::sync(), and the dynamic
// tiled_partition(block, 16).
#include "conformance.h"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define BX 16
#define BY 8
#define THREADS (BX * BY)
#define BLOCKS 5
#define N (THREADS * BLOCKS)

// out per block: [0] sum by tile shuffles, [1] indices that disagree,
// [2] tile-of-8 results that disagree, [3] dynamic tile facts that disagree.
__global__ void block_reduce(const int *in, int *out)
{
    __shared__ int partial[THREADS / 32];
    cg::thread_block block = cg::this_thread_block();
    int *o = out + 4 * blockIdx.x;
    unsigned rank = block.thread_rank();
    int v = in[blockIdx.x * THREADS + rank];

    int bad = 0;
    bad += rank != threadIdx.x + threadIdx.y * blockDim.x;
    bad += block.size() != THREADS || block.num_threads() != THREADS;
    bad += block.group_index().x != blockIdx.x || block.thread_index().y != threadIdx.y;
    bad += block.dim_threads().x != BX || block.dim_threads().y != BY;
    if (bad)
        atomicAdd(&o[1], bad);

    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int s = v;
    for (int d = 16; d > 0; d /= 2)
        s += warp.shfl_down(s, d);
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = s;
    block.sync();
    if (rank == 0) {
        int t = 0;
        for (unsigned w = 0; w < warp.meta_group_size(); w++)
            t += partial[w];
        o[0] = t;
    }
    cg::sync(block);

    // Tiles of 8: every member gets each reduction of its tile's values.
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    int first = blockIdx.x * THREADS + (int)(rank / 8 * 8), sum = 0, lo = in[first], hi = lo;
    int band = in[first], bor = 0, bxor = 0;
    for (int k = 0; k < 8; k++) {
        int x = in[first + k];
        sum += x;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
        band &= x;
        bor |= x;
        bxor ^= x;
    }
    int wrong = 0;
    wrong += cg::reduce(t8, v, cg::plus<int>()) != sum;
    wrong += cg::reduce(t8, v, cg::less<int>()) != lo;
    wrong += cg::reduce(t8, v, cg::greater<int>()) != hi;
    wrong += cg::reduce(t8, v, cg::bit_and<int>()) != band;
    wrong += cg::reduce(t8, v, cg::bit_or<int>()) != bor;
    wrong += cg::reduce(t8, v, cg::bit_xor<int>()) != bxor;
    wrong += t8.meta_group_rank() != rank / 8 || t8.meta_group_size() != THREADS / 8;
    wrong += t8.thread_rank() != rank % 8 || t8.num_threads() != 8;
    t8.sync();
    if (wrong)
        atomicAdd(&o[2], wrong);

    // The dynamic form: a thread_group of 16.
    cg::thread_group t16 = cg::tiled_partition(block, 16);
    int dyn_bad = (t16.thread_rank() != rank % 16) + (t16.size() != 16);
    t16.sync();
    if (dyn_bad)
        atomicAdd(&o[3], dyn_bad);
}

int main(void)
{
    conf_require_device();
    static int h_in[N], h_out[4 * BLOCKS];
    unsigned seed = 40;
    for (int i = 0; i < N; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 2001) - 1000;
    int *d_in, *d_out;
    CHECK_CUDA(cudaMalloc((void **)&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc((void **)&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_out, 0, sizeof(h_out)));
    block_reduce<<<BLOCKS, dim3(BX, BY)>>>(d_in, d_out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++) {
        int want = 0;
        for (int k = 0; k < THREADS; k++)
            want += h_in[b * THREADS + k];
        conf_check(h_out[4 * b] == want, "block %d: tile sum %d, want %d", b, h_out[4 * b], want);
        conf_check(h_out[4 * b + 1] == 0, "block %d: %d block facts wrong", b, h_out[4 * b + 1]);
        conf_check(h_out[4 * b + 2] == 0, "block %d: %d tile-of-8 results wrong", b,
                   h_out[4 * b + 2]);
        conf_check(h_out[4 * b + 3] == 0, "block %d: %d dynamic tile facts wrong", b,
                   h_out[4 * b + 3]);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
