// 12_warp_vote — warp votes: __ballot_sync gives one bit per lane with the
// predicate, __popc counts them, __any_sync/__all_sync agree with the bits;
// each of 8 warps uses a different predicate pattern (all, none, odd, one, ...).
#include "conformance.h"

#define THREADS 128
#define BLOCKS 2
#define TOTAL (THREADS * BLOCKS)
#define FULL 0xffffffffu

// out[4*i .. 4*i+3] = ballot, popc(ballot), any, all as seen by thread i.
__global__ void votes(const int *pred, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = pred[i];
    unsigned b = __ballot_sync(FULL, p);
    int any = __any_sync(FULL, p);
    int all = __all_sync(FULL, p);
    out[4 * i] = b;
    out[4 * i + 1] = (unsigned)__popc(b);
    out[4 * i + 2] = (unsigned)any;
    out[4 * i + 3] = (unsigned)all;
}

static int predicate(int warp, int lane)
{
    switch (warp) {
    case 0:
        return 1; // all
    case 1:
        return 0; // none
    case 2:
        return lane % 2; // odd lanes
    case 3:
        return lane == 7; // one lane
    case 4:
        return lane < 16; // lower half
    case 5:
        return lane != 31; // all but the last
    case 6:
        return (lane * 7) % 5 == 0; // scattered
    default:
        return lane == 0 ? 5 : 0; // non-0/1 truth value
    }
}

int main(void)
{
    conf_require_device();

    static int h_pred[TOTAL];
    static unsigned h_out[4 * TOTAL];
    for (int i = 0; i < TOTAL; i++)
        h_pred[i] = predicate(i / 32, i % 32);
    int *d_pred;
    unsigned *d_out;
    CHECK_CUDA(cudaMalloc(&d_pred, sizeof(h_pred)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMemcpy(d_pred, h_pred, sizeof(h_pred), cudaMemcpyHostToDevice));
    votes<<<BLOCKS, THREADS>>>(d_pred, d_out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    for (int w = 0; w < TOTAL / 32; w++) {
        unsigned want = 0;
        for (int l = 0; l < 32; l++)
            if (h_pred[w * 32 + l])
                want |= 1u << l;
        int count = 0;
        for (int l = 0; l < 32; l++)
            count += (want >> l) & 1u;
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            conf_check(h_out[4 * i] == want, "warp %d lane %d: ballot 0x%08x, expected 0x%08x", w,
                       l, h_out[4 * i], want);
            conf_check(h_out[4 * i + 1] == (unsigned)count, "warp %d lane %d: popc %u, expected %d",
                       w, l, h_out[4 * i + 1], count);
            conf_check((h_out[4 * i + 2] != 0) == (want != 0), "warp %d lane %d: any %u", w, l,
                       h_out[4 * i + 2]);
            conf_check((h_out[4 * i + 3] != 0) == (want == FULL), "warp %d lane %d: all %u", w, l,
                       h_out[4 * i + 3]);
        }
    }

    CHECK_CUDA(cudaFree(d_pred));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
