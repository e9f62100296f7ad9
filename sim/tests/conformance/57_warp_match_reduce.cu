// 57_warp_match_reduce — __match_any_sync and __match_all_sync (bits of 4-
// and 8-byte values), and compute capability 8.0's __reduce_add/min/max_sync
// (int and unsigned) and __reduce_and/or/xor_sync, on a full warp, under a
// mask of the even lanes, and in a block's last warp of 8 threads. Built
// for an older GPU, the reductions are not compiled and not checked.
#include "conformance.h"

#define THREADS 40 // a full warp and a warp of 8 threads
#define OUTS 11

// out[i * OUTS + k]: thread i's results.
__global__ void match_reduce(const int *in, unsigned *out, int *have_reduce)
{
    unsigned i = threadIdx.x;
    unsigned warp_first = i / 32 * 32;
    unsigned n = blockDim.x - warp_first < 32 ? blockDim.x - warp_first : 32;
    unsigned lanes = n == 32 ? 0xffffffffu : (1u << n) - 1u;
    unsigned *o = out + i * OUTS;
    int v = in[i];
    int key = v % 4;
    long long wide = (long long)key << 40;
    int pred = -1;
    o[0] = __match_any_sync(lanes, key);
    o[1] = __match_any_sync(lanes, wide);
    o[2] = __match_all_sync(lanes, key, &pred);
    o[3] = (unsigned)pred;
    unsigned same = __match_all_sync(lanes, 7, &pred);
    o[4] = same == lanes && pred;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    if (i == 0)
        *have_reduce = 0;
#else
    if (i == 0)
        *have_reduce = 1;
    o[5] = (unsigned)__reduce_add_sync(lanes, v);
    o[6] = (unsigned)__reduce_min_sync(lanes, v);
    o[7] = __reduce_max_sync(lanes, (unsigned)v);
    o[8] = (unsigned)__reduce_max_sync(lanes, v);
    o[9] = __reduce_and_sync(lanes, (unsigned)v) ^ __reduce_or_sync(lanes, (unsigned)v);
    // The even lanes only.
    if (i % 2 == 0)
        o[10] = __reduce_xor_sync(lanes & 0x55555555u, (unsigned)v);
#endif
}

int main(void)
{
    conf_require_device();
    int h_in[THREADS];
    unsigned seed = 57;
    for (int i = 0; i < THREADS; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 2001) - 1000; // negative and positive
    static unsigned h_out[THREADS * OUTS];
    int *d_in, *d_have;
    unsigned *d_out;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMalloc(&d_have, sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_out, 0, sizeof(h_out)));
    match_reduce<<<1, THREADS>>>(d_in, d_out, d_have);
    CHECK_CUDA(cudaGetLastError());
    int have_reduce = 0;
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&have_reduce, d_have, sizeof(int), cudaMemcpyDeviceToHost));

    for (int i = 0; i < THREADS; i++) {
        int first = i / 32 * 32, n = THREADS - first < 32 ? THREADS - first : 32;
        unsigned lanes = n == 32 ? 0xffffffffu : (1u << n) - 1u;
        unsigned any = 0, all = 1, sum = 0, umax = 0, orv = 0, andv = ~0u, xr = 0;
        int smin = 0x7fffffff, smax = -0x7fffffff - 1;
        for (int l = 0; l < n; l++) {
            int w = h_in[first + l];
            if (w % 4 == h_in[i] % 4)
                any |= 1u << l;
            if (w % 4 != h_in[first] % 4)
                all = 0;
            sum += (unsigned)w;
            smin = w < smin ? w : smin;
            smax = w > smax ? w : smax;
            umax = (unsigned)w > umax ? (unsigned)w : umax;
            andv &= (unsigned)w;
            orv |= (unsigned)w;
            if (l % 2 == 0)
                xr ^= (unsigned)w;
        }
        const unsigned *o = h_out + i * OUTS;
        conf_check(o[0] == any, "thread %d: __match_any_sync 0x%08x, expected 0x%08x", i, o[0],
                   any);
        conf_check(o[1] == any, "thread %d: __match_any_sync (64-bit) 0x%08x, expected 0x%08x", i,
                   o[1], any);
        conf_check(o[2] == (all ? lanes : 0u) && o[3] == all,
                   "thread %d: __match_all_sync 0x%08x pred %u, expected 0x%08x pred %u", i, o[2],
                   o[3], all ? lanes : 0u, all);
        conf_check(o[4] == 1, "thread %d: __match_all_sync of a constant did not give every lane",
                   i);
        if (!have_reduce)
            continue;
        conf_check(o[5] == sum, "thread %d: __reduce_add_sync %d, expected %d", i, (int)o[5],
                   (int)sum);
        conf_check((int)o[6] == smin, "thread %d: __reduce_min_sync (int) %d, expected %d", i,
                   (int)o[6], smin);
        conf_check(o[7] == umax, "thread %d: __reduce_max_sync (unsigned) %u, expected %u", i, o[7],
                   umax);
        conf_check((int)o[8] == smax, "thread %d: __reduce_max_sync (int) %d, expected %d", i,
                   (int)o[8], smax);
        conf_check(o[9] == (andv ^ orv), "thread %d: __reduce_and/or_sync 0x%08x, expected 0x%08x",
                   i, o[9], andv ^ orv);
        if (i % 2 == 0)
            conf_check(o[10] == xr, "thread %d: __reduce_xor_sync 0x%08x, expected 0x%08x", i,
                       o[10], xr);
    }
    if (!have_reduce)
        printf("__reduce_*_sync not checked: built for compute capability below 8.0\n");
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_have));
    return conf_finish();
}
