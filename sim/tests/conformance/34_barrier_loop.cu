// 34_barrier_loop — many barriers per thread: 50 Jacobi smoothing sweeps over
// a block's values in shared memory, two __syncthreads per sweep (read all,
// then write all). Integer arithmetic, so the result must match the CPU exactly.
#include "conformance.h"

#define T 256
#define BLOCKS 4
#define N (T * BLOCKS)
#define ITERS 50

// Each block smooths its own slice; the two end values of a slice stay fixed.
__global__ void jacobi(const int *in, int *out, int iters)
{
    __shared__ int a[T];
    __shared__ int b[T];
    int t = threadIdx.x, i = blockIdx.x * T + t;
    a[t] = in[i];
    __syncthreads();
    for (int it = 0; it < iters; it++) {
        b[t] = (t > 0 && t < T - 1) ? (a[t - 1] + 2 * a[t] + a[t + 1]) / 4 : a[t];
        __syncthreads(); // everyone has read a
        a[t] = b[t];
        __syncthreads(); // everyone has written a
    }
    out[i] = a[t];
}

int main(void)
{
    conf_require_device();

    static int h_in[N], h_out[N], ref_a[T], ref_b[T];
    unsigned seed = 34;
    for (int i = 0; i < N; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 100000);
    int *d_in, *d_out;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    jacobi<<<BLOCKS, T>>>(d_in, d_out, ITERS);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    for (int blk = 0; blk < BLOCKS; blk++) {
        memcpy(ref_a, h_in + blk * T, sizeof(ref_a));
        for (int it = 0; it < ITERS; it++) {
            for (int t = 0; t < T; t++)
                ref_b[t] = (t > 0 && t < T - 1) ? (ref_a[t - 1] + 2 * ref_a[t] + ref_a[t + 1]) / 4
                                                : ref_a[t];
            memcpy(ref_a, ref_b, sizeof(ref_a));
        }
        for (int t = 0; t < T; t++)
            conf_check(h_out[blk * T + t] == ref_a[t], "block %d thread %d: %d, expected %d", blk,
                       t, h_out[blk * T + t], ref_a[t]);
    }

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
