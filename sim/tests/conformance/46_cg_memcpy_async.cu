// 46_cg_memcpy_async — cg::memcpy_async of a block's slice of global memory
// into shared memory, complete for every thread after cg::wait(block); and a
// tile of 32 that copies its own part and waits on itself.
#include "conformance.h"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

#define THREADS 128
#define BLOCKS 4
#define N (THREADS * BLOCKS)

// out[i] = in of the block, reversed; twice[i] = 2 * in[i] through a tile's copy.
__global__ void staged(const float *in, float *out, float *twice)
{
    __shared__ float s[THREADS];
    __shared__ float t[THREADS];
    cg::thread_block block = cg::this_thread_block();
    const float *slice = in + blockIdx.x * THREADS;
    cg::memcpy_async(block, s, slice, sizeof(float) * THREADS);
    cg::wait(block);
    unsigned r = block.thread_rank();
    out[blockIdx.x * THREADS + r] = s[THREADS - 1 - r];

    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    unsigned base = tile.meta_group_rank() * 32;
    cg::memcpy_async(tile, t + base, slice + base, sizeof(float) * 32);
    cg::wait(tile);
    twice[blockIdx.x * THREADS + r] = 2.0f * t[base + (tile.thread_rank() + 1) % 32];
}

int main(void)
{
    conf_require_device();
    static float h_in[N], h_out[N], h_twice[N];
    for (int i = 0; i < N; i++)
        h_in[i] = 0.25f * (float)i - 7.0f;
    float *d_in, *d_out, *d_twice;
    CHECK_CUDA(cudaMalloc((void **)&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc((void **)&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMalloc((void **)&d_twice, sizeof(h_twice)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    staged<<<BLOCKS, THREADS>>>(d_in, d_out, d_twice);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_twice, d_twice, sizeof(h_twice), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int b = i / THREADS, r = i % THREADS;
        float want = h_in[b * THREADS + THREADS - 1 - r];
        float want2 = 2.0f * h_in[b * THREADS + r / 32 * 32 + (r % 32 + 1) % 32];
        conf_check(h_out[i] == want, "out[%d] = %g, want %g", i, h_out[i], want);
        conf_check(h_twice[i] == want2, "twice[%d] = %g, want %g", i, h_twice[i], want2);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_twice));
    return conf_finish();
}
