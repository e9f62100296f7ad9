// clang-format off
// CHECK-TOOL: racecheck
// CHECK-EXPECT: Race reported between Read access at [^=]*race_war\.cu:27 in rotate_kernel
// CHECK-EXPECT: and Write access at [^=]*race_war\.cu:29 in rotate_kernel \[WAR hazard on __shared__ memory, threads \([0-9,]+\) and \([0-9,]+\) of block \([0-9,]+\)\]
// clang-format on
// race_war — rotating a block's values one place per step: each thread reads
// its right neighbour's element, then overwrites its own, with no barrier
// between the read and the write. Around the ring some thread must overwrite
// its element before its left neighbour has read it: a WAR hazard.
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 64
#define BLOCKS 2
#define STEPS 3

// out = each block's slice of in rotated left by `steps` places.
__global__ void rotate_kernel(const int *in, int *out, int steps)
{
    __shared__ int s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    for (int k = 0; k < steps; k++) {
        int right = s[(tid + 1) % blockDim.x];
        // BUG: missing __syncthreads() between the read above and the write below.
        s[tid] = right;
        __syncthreads();
    }
    out[i] = s[tid];
}

int main(void)
{
    static int h_in[THREADS * BLOCKS], h_out[THREADS * BLOCKS];
    for (int i = 0; i < THREADS * BLOCKS; i++)
        h_in[i] = i;
    int *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    rotate_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, STEPS);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    printf("out[0] = %d (expected %d)\n", h_out[0], STEPS);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
