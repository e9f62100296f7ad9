// plain_main.cu — the nvcc driver test of the check twin's plain copies (run
// with GPULAB_SIM_MODEL=t4): how many blocks of each launch ran the plain
// copy of the kernel, and whether the results are right.
#include <stdio.h>

#include "gpulab_sim/model.h"

extern __device__ unsigned long long d_hits;
__global__ void add_one(float *x, int n);
unsigned long long run_static(int blocks, int threads);

int main(void)
{
    const int blocks = 1000, threads = 64, n = blocks * threads;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));
    unsigned long long zero = 0, hits = 0;
    cudaMemcpyToSymbol(d_hits, &zero, sizeof(zero));
    add_one<<<blocks, threads>>>(x, n);
    add_one<<<blocks, threads>>>(x, n);
    cudaDeviceSynchronize();
    unsigned long long plain_add = gpulab_sim_model_plain_blocks();
    cudaMemcpyFromSymbol(&hits, d_hits, sizeof(hits));
    float last = 0.0f;
    cudaMemcpy(&last, x + n - 1, sizeof(float), cudaMemcpyDeviceToHost);
    unsigned long long static_hits = run_static(blocks, threads);
    unsigned long long plain_static = gpulab_sim_model_plain_blocks();
    printf("plain-copies add_one %llu hits %llu x %.0f static %llu hits %llu\n", plain_add, hits,
           last, plain_static, static_hits);
    cudaFree(x);
    return 0;
}
