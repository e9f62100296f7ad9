// clang-format off
// EXPECT-OUTPUT: gpulab-sim stats: kernel transpose_tile .*shared requests 64: 1056 bank wavefronts \(16\.5 per request; 1\.0: no bank conflicts\).*gpulab-sim stats: kernel transpose_padded .*shared requests 64: 64 bank wavefronts \(1\.0 per request.*PASS stats_bank_conflicts
// clang-format on
// stats_bank_conflicts — simulator only, run with GPULAB_SIM_STATS=1: the
// shared-memory bank wavefronts of a 32x32 tile transpose. Writing a row of
// the tile is one wavefront per warp; reading a column of a float[32][32]
// tile puts all 32 words in one bank (32 wavefronts: a 32-way conflict); a
// float[32][33] tile spreads them over the 32 banks (1); 32 lanes reading
// one word share it (a broadcast, 1).
#include <cuda_runtime.h>

#include <stdio.h>

#include "gpulab_sim/stats.h"

#define T 32

__global__ void transpose_tile(const float *in, float *out)
{
    __shared__ float tile[T][T];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * T + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * T + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_padded(const float *in, float *out)
{
    __shared__ float tile[T][T + 1];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * T + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * T + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void broadcast(const float *in, float *out)
{
    __shared__ float one;
    if (threadIdx.x == 0)
        one = in[0];
    __syncthreads();
    out[threadIdx.x] = one * (float)threadIdx.x;
}

int main(void)
{
    float *in, *out;
    struct gpulab_sim_kernel_stats plain, padded, bcast;
    cudaMalloc((void **)&in, T * T * sizeof(float));
    cudaMalloc((void **)&out, T * T * sizeof(float));
    cudaMemset(in, 0, T * T * sizeof(float));
    transpose_tile<<<1, dim3(T, T)>>>(in, out);
    cudaDeviceSynchronize();
    int ok = gpulab_sim_last_kernel_stats(&plain) == 0;
    transpose_padded<<<1, dim3(T, T)>>>(in, out);
    cudaDeviceSynchronize();
    ok &= gpulab_sim_last_kernel_stats(&padded) == 0;
    broadcast<<<1, T>>>(in, out);
    cudaDeviceSynchronize();
    ok &= gpulab_sim_last_kernel_stats(&bcast) == 0;
    // 32 warps: a store and a load each.
    ok &= plain.shared_requests == 64 && plain.shared_wavefronts == 32 + 32 * 32;
    ok &= padded.shared_requests == 64 && padded.shared_wavefronts == 64;
    // One warp: the store of `one` (one lane) and its load by all 32.
    ok &= bcast.shared_requests == 2 && bcast.shared_wavefronts == 2;
    printf("tile: %llu requests, %llu wavefronts; padded: %llu, %llu; broadcast: "
           "%llu, %llu\n",
           plain.shared_requests, plain.shared_wavefronts, padded.shared_requests,
           padded.shared_wavefronts, bcast.shared_requests, bcast.shared_wavefronts);
    printf("%s stats_bank_conflicts\n", ok ? "PASS" : "FAIL");
    cudaFree(in);
    cudaFree(out);
    return ok ? 0 : 1;
}
