// 06_shared_reduction — a shared-memory tree reduction: each block of 256
// threads halves its partial sums with a __syncthreads between steps; blocks
// write one partial each. Integers, so the result is exact.
#include "conformance.h"

#define N 100003
#define THREADS 256

__global__ void reduce_sum(const int *in, long long *partial, int n)
{
    __shared__ long long s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (tid < half)
            s[tid] += s[tid + half];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}

int main(void)
{
    conf_require_device();

    static int h_in[N];
    unsigned seed = 6;
    for (int i = 0; i < N; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 2001) - 1000;
    int blocks = (N + THREADS - 1) / THREADS;
    long long *h_partial = (long long *)malloc(blocks * sizeof(long long));

    int *d_in;
    long long *d_partial;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_partial, blocks * sizeof(long long)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    reduce_sum<<<blocks, THREADS>>>(d_in, d_partial, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(
        cudaMemcpy(h_partial, d_partial, blocks * sizeof(long long), cudaMemcpyDeviceToHost));

    long long total = 0, want_total = 0;
    for (int b = 0; b < blocks; b++) {
        long long want = 0;
        for (int i = b * THREADS; i < (b + 1) * THREADS && i < N; i++)
            want += h_in[i];
        conf_check(h_partial[b] == want, "block %d: partial %lld, expected %lld", b, h_partial[b],
                   want);
        total += h_partial[b];
        want_total += want;
    }
    conf_check(total == want_total, "sum %lld, expected %lld", total, want_total);

    free(h_partial);
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_partial));
    return conf_finish();
}
