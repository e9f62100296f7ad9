// clang-format off
// CHECK-TOOL: synccheck
// CHECK-EXPECT: Undefined warp shuffle result: a lane read outside its group
// CHECK-EXPECT: at block_sum_kernel in [^=]*sync_shfl_absent_lane\.cu:27
// CHECK-EXPECT: by thread \(0,0,0\) in block \(0,0,0\)
// CHECK-EXPECT: lane 0 reads lane 16, which the block does not have \(its warp has 12 threads\)
// PLAIN-EXIT: 0
// PLAIN-EXPECT: sum 78
// clang-format on
// sync_shfl_absent_lane — a block of 12 threads sums its values with
// __shfl_down_sync from 16, 8, 4, 2, 1: lanes 0..11 read lanes 16..27, which
// the block does not have. A GPU gives 0 for them (so the sum comes out
// right), but CUDA leaves the value undefined.
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 12

// *sum = the sum of in[0..THREADS).
__global__ void block_sum_kernel(const int *in, int *sum)
{
    int v = in[threadIdx.x];
    // BUG: the first offset must be 8 (the largest power of two below 12),
    // with a test that lane + offset < 12.
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0x00000fffu, v, offset);
    if (threadIdx.x == 0)
        *sum = v;
}

int main(void)
{
    int h_in[THREADS], h_sum = 0;
    for (int i = 0; i < THREADS; i++)
        h_in[i] = i + 1;
    int *d_in, *d_sum;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_sum, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    block_sum_kernel<<<1, THREADS>>>(d_in, d_sum);
    cudaMemcpy(&h_sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost);
    printf("block_sum_kernel: %s, sum %d\n", cudaGetErrorName(cudaGetLastError()), h_sum);
    cudaFree(d_in);
    cudaFree(d_sum);
    return 0;
}
