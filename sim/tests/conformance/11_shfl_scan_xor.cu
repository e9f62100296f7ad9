// 11_shfl_scan_xor — shuffles with width 16 (two independent 16-lane
// segments per warp): a __shfl_up_sync inclusive scan, a __shfl_xor_sync
// butterfly sum every lane receives (int and double), __shfl_sync within a segment.
#include "conformance.h"

#define THREADS 64
#define BLOCKS 3
#define TOTAL (THREADS * BLOCKS)
#define W 16
#define FULL 0xffffffffu

__global__ void segment_ops(const int *in, int *scan, int *bsum, double *dsum, int *pick)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int seg_lane = threadIdx.x % W;
    int v = in[i];
    int s = v;
    for (int d = 1; d < W; d *= 2) {
        int up = __shfl_up_sync(FULL, s, d, W); // own value when seg_lane < d
        if (seg_lane >= d)
            s += up;
    }
    scan[i] = s;
    int b = v;
    double db = v * 0.25;
    for (int m = W / 2; m > 0; m /= 2) {
        b += __shfl_xor_sync(FULL, b, m, W);
        db += __shfl_xor_sync(FULL, db, m, W);
    }
    bsum[i] = b;
    dsum[i] = db;
    pick[i] = __shfl_sync(FULL, v, 3, W); // lane 3 of this thread's segment
}

int main(void)
{
    conf_require_device();

    static int h_in[TOTAL], h_scan[TOTAL], h_bsum[TOTAL], h_pick[TOTAL];
    static double h_dsum[TOTAL];
    unsigned seed = 11;
    for (int i = 0; i < TOTAL; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 100) - 30;
    int *d_in, *d_scan, *d_bsum, *d_pick;
    double *d_dsum;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_scan, sizeof(h_scan)));
    CHECK_CUDA(cudaMalloc(&d_bsum, sizeof(h_bsum)));
    CHECK_CUDA(cudaMalloc(&d_pick, sizeof(h_pick)));
    CHECK_CUDA(cudaMalloc(&d_dsum, sizeof(h_dsum)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    segment_ops<<<BLOCKS, THREADS>>>(d_in, d_scan, d_bsum, d_dsum, d_pick);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_scan, d_scan, sizeof(h_scan), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_bsum, d_bsum, sizeof(h_bsum), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_pick, d_pick, sizeof(h_pick), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_dsum, d_dsum, sizeof(h_dsum), cudaMemcpyDeviceToHost));

    for (int seg = 0; seg < TOTAL / W; seg++) {
        int base = seg * W, run = 0, total = 0;
        for (int l = 0; l < W; l++)
            total += h_in[base + l];
        for (int l = 0; l < W; l++) {
            int i = base + l;
            run += h_in[i];
            conf_check(h_scan[i] == run, "thread %d: inclusive scan %d, expected %d", i, h_scan[i],
                       run);
            conf_check(h_bsum[i] == total, "thread %d: butterfly sum %d, expected %d", i, h_bsum[i],
                       total);
            conf_check(h_dsum[i] == total * 0.25, "thread %d: double butterfly %g, expected %g", i,
                       h_dsum[i], total * 0.25);
            conf_check(h_pick[i] == h_in[base + 3], "thread %d: width-16 shfl %d, expected %d", i,
                       h_pick[i], h_in[base + 3]);
        }
    }

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_scan));
    CHECK_CUDA(cudaFree(d_bsum));
    CHECK_CUDA(cudaFree(d_pick));
    CHECK_CUDA(cudaFree(d_dsum));
    return conf_finish();
}
