// model_plain_copy — simulator only, run by model_plain_copy.cmake with the
// model on (and again with the plain copies off, a check tool, or
// GPULAB_SIM_STATS=1): kernels over grids the model samples, whose blocks
// that it does not count run the check twin's plain copy of the kernel. The
// copies must compute what the instrumented code computes, and share its
// variables:
// - scale_count (1000 blocks, no barrier): out[i] = twice(in[i]) * c_scale,
//   with a __constant__ set by cudaMemcpyToSymbol, a template device function
//   and an atomicAdd to a __device__ counter that every block increments;
// - block_sums (600 blocks, shared memory, __syncthreads and
//   __shfl_down_sync, run as fibers): the sum of each block's 256 inputs;
// - scale_small (100 blocks): a grid the model counts whole.
// It prints, for each, how many blocks ran the plain copy
// (gpulab_sim_model_plain_blocks), and PASS or FAIL for the results.
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpulab_sim/model.h"

#define BIG_BLOCKS 1000
#define SUM_BLOCKS 600
#define SMALL_BLOCKS 100
#define THREADS 128
#define SUM_THREADS 256

__constant__ float c_scale;
__device__ unsigned long long d_visits;

template <class T>
__device__ T twice(T x)
{
    return x + x;
}

__device__ void scale_one(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = twice(in[i]) * c_scale;
    atomicAdd(&d_visits, 1ull);
}

__global__ void scale_count(float *out, const float *in, int n)
{
    scale_one(out, in, n);
}

__global__ void scale_small(float *out, const float *in, int n)
{
    scale_one(out, in, n);
}

__global__ void block_sums(float *sums, const float *in)
{
    __shared__ float tile[SUM_THREADS];
    unsigned t = threadIdx.x;
    tile[t] = in[blockIdx.x * SUM_THREADS + t];
    __syncthreads();
    for (unsigned half = SUM_THREADS / 2; half >= 32; half /= 2) {
        if (t < half)
            tile[t] += tile[t + half];
        __syncthreads();
    }
    if (t < 32) {
        float v = tile[t];
        for (int d = 16; d > 0; d /= 2)
            v += __shfl_down_sync(0xffffffffu, v, d);
        if (t == 0)
            sums[blockIdx.x] = v;
    }
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));                                \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

int main(void)
{
    const int n = BIG_BLOCKS * THREADS, n_sum = SUM_BLOCKS * SUM_THREADS;
    float *h_in = (float *)malloc((size_t)n_sum * sizeof(float));
    float *h_out = (float *)malloc((size_t)n * sizeof(float));
    float h_sums[SUM_BLOCKS];
    if (!h_in || !h_out) {
        printf("FAIL out of host memory\n");
        return 1;
    }
    for (int i = 0; i < n_sum; i++)
        h_in[i] = (float)(i % 97) - 40.0f; /* sums of integers: exact in any order */
    float *in, *out, *sums;
    CHECK(cudaMalloc((void **)&in, (size_t)n_sum * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, (size_t)n * sizeof(float)));
    CHECK(cudaMalloc((void **)&sums, SUM_BLOCKS * sizeof(float)));
    CHECK(cudaMemcpy(in, h_in, (size_t)n_sum * sizeof(float), cudaMemcpyHostToDevice));
    const float scale = 3.0f;
    const unsigned long long zero = 0;
    CHECK(cudaMemcpyToSymbol(c_scale, &scale, sizeof(scale)));
    CHECK(cudaMemcpyToSymbol(d_visits, &zero, sizeof(zero)));
    int ok = 1;

    scale_count<<<BIG_BLOCKS, THREADS>>>(out, in, n);
    CHECK(cudaDeviceSynchronize());
    unsigned long long plain_big = gpulab_sim_model_plain_blocks();
    CHECK(cudaMemcpy(h_out, out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        ok &= h_out[i] == 2.0f * h_in[i] * scale;

    block_sums<<<SUM_BLOCKS, SUM_THREADS>>>(sums, in);
    CHECK(cudaDeviceSynchronize());
    unsigned long long plain_sums = gpulab_sim_model_plain_blocks();
    CHECK(cudaMemcpy(h_sums, sums, sizeof(h_sums), cudaMemcpyDeviceToHost));
    for (int b = 0; b < SUM_BLOCKS; b++) {
        float want = 0.0f;
        for (int t = 0; t < SUM_THREADS; t++)
            want += h_in[b * SUM_THREADS + t];
        ok &= h_sums[b] == want;
    }

    scale_small<<<SMALL_BLOCKS, THREADS>>>(out, in, SMALL_BLOCKS * THREADS);
    CHECK(cudaDeviceSynchronize());
    unsigned long long plain_small = gpulab_sim_model_plain_blocks();

    unsigned long long visits = 0;
    CHECK(cudaMemcpyFromSymbol(&visits, d_visits, sizeof(visits)));
    ok &= visits == (unsigned long long)(BIG_BLOCKS + SMALL_BLOCKS) * THREADS;

    printf("plain copy: scale_count %llu of %d blocks, block_sums %llu of %d, scale_small %llu "
           "of %d\n",
           plain_big, BIG_BLOCKS, plain_sums, SUM_BLOCKS, plain_small, SMALL_BLOCKS);
    printf("visits %llu\n", visits);
    printf("%s model_plain_copy\n", ok ? "PASS" : "FAIL");
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(sums));
    free(h_in);
    free(h_out);
    return ok ? 0 : 1;
}
