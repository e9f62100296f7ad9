// clang-format off
// EXPECT-OUTPUT: gpulab-sim stats: kernel by_rows .*global load requests 2048: 33792 sectors of 32 bytes \(16\.5 per request\).*gpulab-sim stats: kernel by_columns .*global load requests 2048: 5120 sectors of 32 bytes \(2\.5 per request\).*PASS stats_coalescing
// clang-format on
// stats_coalescing — simulator only, run with GPULAB_SIM_STATS=1: the access
// counts tell a strided load (one thread per row of a row-major matrix: 32
// sectors per warp request for A, 1 for v) from a coalesced one (the same
// product on the transposed matrix: 4 sectors for A, 1 for v), both in the
// table on stderr and through gpulab_sim_last_kernel_stats. A float4 built
// from scalars and stored whole is one 16-byte store per thread, one request
// per warp, as nvcc makes it (built with GCC; clang's twin may split it in
// two 8-byte stores: docs/model.md, "What is not modeled").
#include <cuda_runtime.h>

#include <stdio.h>

#include "gpulab_sim/stats.h"

#define N 1024 /* rows */
#define M 32   /* columns */

__global__ void by_rows(const float *A, const float *v, float *u)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int j = 0; j < M; j++)
        s += A[r * M + j] * v[j];
    u[r] = s;
}

__global__ void by_columns(const float *At, const float *v, float *u)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int j = 0; j < M; j++)
        s += At[j * N + r] * v[j];
    u[r] = s;
}

__global__ void store4(float4 *o, const float *v)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    o[r] = make_float4(v[0], 1.0f, 2.0f, 3.0f);
}

int main(void)
{
    float *A, *v, *u;
    struct gpulab_sim_kernel_stats rows, cols;
    cudaMalloc((void **)&A, N * M * sizeof(float));
    cudaMalloc((void **)&v, M * sizeof(float));
    cudaMalloc((void **)&u, N * sizeof(float));
    cudaMemset(A, 0, N * M * sizeof(float));
    cudaMemset(v, 0, M * sizeof(float));
    by_rows<<<N / 128, 128>>>(A, v, u);
    cudaDeviceSynchronize();
    int ok = gpulab_sim_last_kernel_stats(&rows) == 0;
    by_columns<<<N / 128, 128>>>(A, v, u);
    cudaDeviceSynchronize();
    ok &= gpulab_sim_last_kernel_stats(&cols) == 0;
    ok &= rows.global_loads == 2ull * N * M && rows.load_requests == 2ull * (N / 32) * M;
    ok &= rows.load_sectors == (32ull + 1) * (N / 32) * M;
    ok &= cols.load_sectors == (4ull + 1) * (N / 32) * M;
    ok &= cols.threads == N && cols.global_stores == N;
    struct gpulab_sim_kernel_stats wide;
    store4<<<N / 128, 128>>>((float4 *)A, v);
    cudaDeviceSynchronize();
    ok &= gpulab_sim_last_kernel_stats(&wide) == 0;
#if defined(__clang__)
    ok &= wide.store_requests <= 2ull * (N / 32) && wide.store_sectors <= 2ull * 16 * (N / 32);
#else
    ok &= wide.store_requests == (N / 32) && wide.store_sectors == 16ull * (N / 32);
#endif
    if (!ok)
        printf("store4: %llu store requests, %llu sectors\n", wide.store_requests,
               wide.store_sectors);
    cudaFree(A);
    cudaFree(v);
    cudaFree(u);
    printf("%s stats_coalescing\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
