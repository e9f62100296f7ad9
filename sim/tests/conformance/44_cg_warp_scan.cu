// 44_cg_warp_scan — warp-level scans with cooperative groups: inclusive_scan
// and exclusive_scan (plus, and cg::greater as a running maximum) on tiles of
// 32 and 16, a hand-written shfl_up scan of doubles, shfl_xor and shfl
// (broadcast) on a tile of 16, and ballot/any/all/match_any by tile rank.
#include "conformance.h"

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

#define THREADS 96
#define BLOCKS 2
#define N (THREADS * BLOCKS)

__global__ void scans(const int *in, int *inc32, int *exc32, int *max16, double *dscan, int *xor16,
                      int *votes)
{
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * THREADS + block.thread_rank();
    int v = in[i];
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    inc32[i] = cg::inclusive_scan(t32, v);
    exc32[i] = cg::exclusive_scan(t32, v, cg::plus<int>());

    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    max16[i] = cg::inclusive_scan(t16, v, cg::greater<int>());
    double d = v * 0.5;
    for (unsigned k = 1; k < t16.size(); k *= 2) {
        double other = t16.shfl_up(d, k);
        if (t16.thread_rank() >= k)
            d += other;
    }
    dscan[i] = d;
    int x = v;
    for (unsigned m = 8; m > 0; m /= 2)
        x += t16.shfl_xor(x, m);
    xor16[i] = x - t16.shfl(v, 15); // the tile's sum less its last value

    // Votes by tile rank: bit r is rank r's predicate.
    unsigned b = t16.ballot(v > 0);
    int any = t16.any(v > 900), all = t16.all(v > -1001);
    unsigned same = t16.match_any(v & 1);
    if (t16.thread_rank() == 0) {
        int tile = i / 16;
        votes[4 * tile] = (int)b;
        votes[4 * tile + 1] = any;
        votes[4 * tile + 2] = all;
        votes[4 * tile + 3] = (int)same;
    }
}

int main(void)
{
    conf_require_device();
    static int h_in[N], inc32[N], exc32[N], max16[N], xor16[N], votes[4 * N / 16];
    static double dscan[N];
    unsigned seed = 41;
    for (int i = 0; i < N; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 2001) - 1000;
    int *d_in, *d_inc, *d_exc, *d_max, *d_xor, *d_votes;
    double *d_d;
    CHECK_CUDA(cudaMalloc((void **)&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc((void **)&d_inc, sizeof(inc32)));
    CHECK_CUDA(cudaMalloc((void **)&d_exc, sizeof(exc32)));
    CHECK_CUDA(cudaMalloc((void **)&d_max, sizeof(max16)));
    CHECK_CUDA(cudaMalloc((void **)&d_xor, sizeof(xor16)));
    CHECK_CUDA(cudaMalloc((void **)&d_votes, sizeof(votes)));
    CHECK_CUDA(cudaMalloc((void **)&d_d, sizeof(dscan)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    scans<<<BLOCKS, THREADS>>>(d_in, d_inc, d_exc, d_max, d_d, d_xor, d_votes);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(inc32, d_inc, sizeof(inc32), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(exc32, d_exc, sizeof(exc32), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(max16, d_max, sizeof(max16), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(xor16, d_xor, sizeof(xor16), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(votes, d_votes, sizeof(votes), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(dscan, d_d, sizeof(dscan), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int s = 0, m = h_in[i / 16 * 16], tsum = 0;
        double ds = 0;
        for (int k = i / 32 * 32; k <= i; k++)
            s += h_in[k];
        for (int k = i / 16 * 16; k <= i; k++) {
            m = h_in[k] > m ? h_in[k] : m;
            ds += h_in[k] * 0.5;
        }
        for (int k = i / 16 * 16; k < i / 16 * 16 + 16; k++)
            tsum += h_in[k];
        conf_check(inc32[i] == s, "inclusive_scan[%d] = %d, want %d", i, inc32[i], s);
        conf_check(exc32[i] == s - h_in[i], "exclusive_scan[%d] = %d, want %d", i, exc32[i],
                   s - h_in[i]);
        conf_check(max16[i] == m, "running max[%d] = %d, want %d", i, max16[i], m);
        conf_check(dscan[i] == ds, "shfl_up scan[%d] = %g, want %g", i, dscan[i], ds);
        conf_check(xor16[i] == tsum - h_in[i / 16 * 16 + 15], "shfl_xor sum[%d] = %d, want %d", i,
                   xor16[i], tsum - h_in[i / 16 * 16 + 15]);
    }
    for (int t = 0; t < N / 16; t++) {
        unsigned b = 0, same = 0;
        int any = 0, all = 1, parity = h_in[t * 16] & 1;
        for (int r = 0; r < 16; r++) {
            int x = h_in[t * 16 + r];
            b |= (unsigned)(x > 0) << r;
            any |= x > 900;
            all &= x > -1001;
            same |= (unsigned)((x & 1) == parity) << r;
        }
        conf_check((unsigned)votes[4 * t] == b, "tile %d ballot %#x, want %#x", t, votes[4 * t], b);
        conf_check(votes[4 * t + 1] == any, "tile %d any %d, want %d", t, votes[4 * t + 1], any);
        conf_check(votes[4 * t + 2] == all, "tile %d all %d, want %d", t, votes[4 * t + 2], all);
        conf_check((unsigned)votes[4 * t + 3] == same, "tile %d match_any %#x, want %#x", t,
                   votes[4 * t + 3], same);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_inc));
    CHECK_CUDA(cudaFree(d_exc));
    CHECK_CUDA(cudaFree(d_max));
    CHECK_CUDA(cudaFree(d_xor));
    CHECK_CUDA(cudaFree(d_votes));
    CHECK_CUDA(cudaFree(d_d));
    return conf_finish();
}
