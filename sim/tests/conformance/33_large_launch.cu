// 33_large_launch — bigger launches: 2^20 threads (1024 blocks of 1024) adding
// their global index into one 64-bit atomic total, and a grid with 65535
// blocks in y (the limit) where every block and thread runs exactly once.
#include "conformance.h"

#define GRID_Y 65535

__global__ void sum_ids(unsigned long long *total, int *per_block)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(total, i);
    atomicAdd(&per_block[blockIdx.x], 1);
}

__global__ void mark_rows(int *marks, unsigned *count)
{
    if (threadIdx.x == 0)
        marks[blockIdx.y] += (int)blockIdx.y + 1; // one writer per block: += shows a rerun
    atomicAdd(count, 1u);
}

int main(void)
{
    conf_require_device();

    const int blocks = 1024, threads = 1024;
    const unsigned long long n = (unsigned long long)blocks * threads; // 2^20
    unsigned long long *d_total, total = 0;
    int *d_per_block, *d_marks;
    unsigned *d_count, count = 0;
    static int h_per_block[1024], h_marks[GRID_Y];
    CHECK_CUDA(cudaMalloc(&d_total, sizeof(total)));
    CHECK_CUDA(cudaMalloc(&d_per_block, sizeof(h_per_block)));
    CHECK_CUDA(cudaMalloc(&d_marks, sizeof(h_marks)));
    CHECK_CUDA(cudaMalloc(&d_count, sizeof(count)));
    CHECK_CUDA(cudaMemset(d_total, 0, sizeof(total)));
    CHECK_CUDA(cudaMemset(d_per_block, 0, sizeof(h_per_block)));
    CHECK_CUDA(cudaMemset(d_marks, 0, sizeof(h_marks)));
    CHECK_CUDA(cudaMemset(d_count, 0, sizeof(count)));

    sum_ids<<<blocks, threads>>>(d_total, d_per_block);
    CHECK_CUDA(cudaGetLastError());
    mark_rows<<<dim3(1, GRID_Y, 1), 32>>>(d_marks, d_count);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_per_block, d_per_block, sizeof(h_per_block), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_marks, d_marks, sizeof(h_marks), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));

    conf_check(total == n * (n - 1) / 2, "sum of 2^20 ids = %llu, expected %llu", total,
               n * (n - 1) / 2);
    for (int b = 0; b < blocks; b++)
        conf_check(h_per_block[b] == threads, "block %d ran %d threads", b, h_per_block[b]);
    for (int y = 0; y < GRID_Y; y++)
        conf_check(h_marks[y] == y + 1, "block y = %d: mark %d, expected %d", y, h_marks[y], y + 1);
    conf_check(count == (unsigned)GRID_Y * 32u, "%u threads ran, expected %u", count,
               (unsigned)GRID_Y * 32u);

    CHECK_CUDA(cudaFree(d_total));
    CHECK_CUDA(cudaFree(d_per_block));
    CHECK_CUDA(cudaFree(d_marks));
    CHECK_CUDA(cudaFree(d_count));
    return conf_finish();
}
