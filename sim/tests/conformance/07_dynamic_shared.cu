// 07_dynamic_shared — dynamic shared memory: `extern __shared__ float s[]`
// sized by the third launch parameter (one float per thread plus a block-wide
// header), and a second kernel in the same file with `extern __shared__ int t[]`.
#include "conformance.h"

#define N 3000
#define THREADS 128

// Reverses each block's slice of in through dynamic shared memory; s[0] is a
// block-wide value written by thread 0 (so the size must cover blockDim.x + 1).
__global__ void reverse_blocks(const float *in, float *out, int n)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid == 0)
        s[0] = (float)blockIdx.x;
    s[1 + tid] = i < n ? in[i] : -1.0f;
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - tid);
    if (j < n)
        out[j] = s[1 + tid] + s[0] * 1000.0f;
}

// Counts, per block, how many of its values are odd, with an int array in
// dynamic shared memory of 2 * blockDim.x ints.
__global__ void odd_counts(const int *in, int *counts, int n)
{
    extern __shared__ int t[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    t[tid] = i < n ? in[i] & 1 : 0;
    t[blockDim.x + tid] = tid;
    __syncthreads();
    if (tid == 0) {
        int c = 0, idsum = 0;
        for (unsigned k = 0; k < blockDim.x; k++) {
            c += t[k];
            idsum += t[blockDim.x + k];
        }
        counts[2 * blockIdx.x] = c;
        counts[2 * blockIdx.x + 1] = idsum;
    }
}

int main(void)
{
    conf_require_device();

    int blocks = (N + THREADS - 1) / THREADS;
    static float h_in[N], h_out[N];
    static int h_ints[N], h_counts[2 * ((N + THREADS - 1) / THREADS)];
    for (int i = 0; i < N; i++) {
        h_in[i] = (float)(i % 1000) * 0.5f;
        h_ints[i] = i * 7 + 3;
    }
    float *d_in, *d_out;
    int *d_ints, *d_counts;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMalloc(&d_ints, sizeof(h_ints)));
    CHECK_CUDA(cudaMalloc(&d_counts, sizeof(h_counts)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_ints, h_ints, sizeof(h_ints), cudaMemcpyHostToDevice));

    reverse_blocks<<<blocks, THREADS, (THREADS + 1) * sizeof(float)>>>(d_in, d_out, N);
    CHECK_CUDA(cudaGetLastError());
    odd_counts<<<blocks, THREADS, 2 * THREADS * sizeof(int)>>>(d_ints, d_counts, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_counts, d_counts, sizeof(h_counts), cudaMemcpyDeviceToHost));

    for (int b = 0; b < blocks; b++) {
        int odd = 0;
        for (int tid = 0; tid < THREADS; tid++) {
            int i = b * THREADS + tid;
            int j = b * THREADS + (THREADS - 1 - tid);
            if (i < N)
                odd += h_ints[i] & 1;
            if (j < N) {
                float want = (i < N ? h_in[i] : -1.0f) + (float)b * 1000.0f;
                conf_check(h_out[j] == want, "out[%d] = %g, expected %g", j, h_out[j], want);
            }
        }
        conf_check(h_counts[2 * b] == odd, "block %d: %d odd values, expected %d", b,
                   h_counts[2 * b], odd);
        conf_check(h_counts[2 * b + 1] == THREADS * (THREADS - 1) / 2,
                   "block %d: thread-id sum %d, expected %d", b, h_counts[2 * b + 1],
                   THREADS * (THREADS - 1) / 2);
    }

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_ints));
    CHECK_CUDA(cudaFree(d_counts));
    return conf_finish();
}
