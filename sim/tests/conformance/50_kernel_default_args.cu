// 50_kernel_default_args — what real programs write that the launch rewriter
// must read: a kernel with default arguments launched with fewer arguments
// (the defaults fill the rest, per thread), and dynamic shared memory declared
// with __shared__ after the type (`extern float __shared__ s[];`).
#include "conformance.h"

#define THREADS 64
#define BLOCKS 3
#define N (THREADS * BLOCKS)

// Each block sums its part of in through dynamic shared memory; the partial
// sums go to sums only when one is given, and scale defaults to 2.
__global__ void block_sums(const int *in, int *out, int *sums = NULL, int scale = 2)
{
    extern int __shared__ part[];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = in[i];
    out[i] = in[i] * scale;
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 0; d /= 2) {
        if (threadIdx.x < d)
            part[threadIdx.x] += part[threadIdx.x + d];
        __syncthreads();
    }
    if (threadIdx.x == 0 && sums != NULL)
        sums[blockIdx.x] = part[0];
}

// Every parameter has a default: a launch may pass none.
__global__ void fill(int value = 7, int *where = NULL)
{
    if (where != NULL)
        where[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

int main(void)
{
    conf_require_device();

    int h_in[N], h_out[N], h_sums[BLOCKS], want_sums[BLOCKS] = { 0, 0, 0 };
    for (int i = 0; i < N; i++) {
        h_in[i] = (i * 37) % 101 - 50;
        want_sums[i / THREADS] += h_in[i];
    }
    int *d_in, *d_out, *d_sums;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMalloc(&d_sums, sizeof(h_sums)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_sums, 0, sizeof(h_sums)));
    size_t shmem = THREADS * sizeof(int);

    // Two arguments of four: no sums, scale 2.
    block_sums<<<BLOCKS, THREADS, shmem>>>(d_in, d_out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += h_out[i] != 2 * h_in[i];
    conf_check(bad == 0, "two of four arguments: %d outputs not in * 2 (scale's default)", bad);
    for (int b = 0; b < BLOCKS; b++)
        conf_check(h_sums[b] == 0, "two of four arguments: sums[%d] = %d written without sums", b,
                   h_sums[b]);

    // Three arguments of four: the sums, scale still 2.
    block_sums<<<BLOCKS, THREADS, shmem>>>(d_in, d_out, d_sums);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++)
        conf_check(h_sums[b] == want_sums[b], "three of four arguments: sums[%d] = %d, want %d", b,
                   h_sums[b], want_sums[b]);

    // All four.
    block_sums<<<BLOCKS, THREADS, shmem>>>(d_in, d_out, d_sums, -3);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += h_out[i] != -3 * h_in[i];
    conf_check(bad == 0, "four arguments: %d outputs not in * -3", bad);

    // No arguments at all, then one of two (nothing written), then both.
    fill<<<1, 1>>>();
    fill<<<1, 1>>>(5);
    fill<<<BLOCKS, THREADS>>>(9, d_out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += h_out[i] != 9;
    conf_check(bad == 0, "fill(9, out): %d outputs not 9", bad);

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_sums));
    return conf_finish();
}
