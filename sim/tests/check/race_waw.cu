// clang-format off
// CHECK-TOOL: racecheck
// CHECK-EXPECT: Race reported between Write access at [^=]*race_waw\.cu:27 in find_kernel
// CHECK-EXPECT: and Write access at [^=]*race_waw\.cu:27 in find_kernel \[WAW hazard on __shared__ memory, threads \([0-9,]+\) and \([0-9,]+\) of block \([0-9,]+\)\]
// clang-format on
// race_waw — "the index of a negative value in the block" kept in one shared
// variable that every thread with a negative value writes (a different value
// each) in the same barrier interval: which write lands is undefined.
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 128
#define BLOCKS 2

// found[b] = the index in block b of one of its negative values, or -1.
__global__ void find_kernel(const int *in, int *found)
{
    __shared__ int where;
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid == 0)
        where = -1;
    __syncthreads();
    // BUG: several threads write `where`; use atomicMin (or atomicMax) on it.
    if (in[i] < 0)
        where = tid;
    __syncthreads();
    if (tid == 0)
        found[blockIdx.x] = where;
}

int main(void)
{
    static int h_in[THREADS * BLOCKS], h_found[BLOCKS];
    for (int i = 0; i < THREADS * BLOCKS; i++)
        h_in[i] = i % 5 == 3 ? -i : i;
    int *d_in, *d_found;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_found, sizeof(h_found));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    find_kernel<<<BLOCKS, THREADS>>>(d_in, d_found);
    cudaMemcpy(h_found, d_found, sizeof(h_found), cudaMemcpyDeviceToHost);
    printf("found[0] = %d\n", h_found[0]);
    cudaFree(d_in);
    cudaFree(d_found);
    return 0;
}
