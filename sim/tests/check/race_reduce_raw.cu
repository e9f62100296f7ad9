// clang-format off
// CHECK-TOOL: racecheck
// CHECK-EXPECT: Race reported between Write access at [^=]*race_reduce_raw\.cu:29 in allreduce_kernel
// CHECK-EXPECT: and Read access at [^=]*race_reduce_raw\.cu:27 in allreduce_kernel \[RAW hazard on __shared__ memory, threads \([0-9,]+\) and \([0-9,]+\) of block \([0-9,]+\)\]
// clang-format on
// race_reduce_raw — a butterfly all-reduce in shared memory (each step, thread
// t adds its partner t ^ m's partial) without the barrier after the write:
// the next step reads partners' partials while they are being rewritten.
// Partners are pairwise (each writes, then reads the other's), so whatever
// the order of threads, some read follows its partner's write: a RAW hazard.
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 256
#define BLOCKS 4

// out[i] = the sum of in over i's block, for every i.
__global__ void allreduce_kernel(const float *in, float *out)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    for (int m = blockDim.x / 2; m > 0; m /= 2) {
        float v = s[tid] + s[tid ^ m];
        __syncthreads();
        s[tid] = v;
        // BUG: missing __syncthreads() here, before the next step's reads.
    }
    out[i] = s[tid];
}

int main(void)
{
    static float h_in[THREADS * BLOCKS], h_out[THREADS * BLOCKS];
    for (int i = 0; i < THREADS * BLOCKS; i++)
        h_in[i] = (float)(i % 7);
    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    allreduce_kernel<<<BLOCKS, THREADS>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    printf("block 0 sum: %g\n", h_out[0]);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
