// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_reduce_tree — a shared-memory tree reduction with a barrier after the
// loads and after every halving step, in two passes (blocks to partial sums,
// then one block over the partials); threads past n contribute 0.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 5000
#define THREADS 256
#define BLOCKS ((N + THREADS - 1) / THREADS)

// partial[b] = the sum of in[i] over block b's elements (i < n).
__global__ void reduce_kernel(const int *in, int *partial, int n)
{
    __shared__ int s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (tid < half)
            s[tid] += s[tid + half];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}

int main(void)
{
    static int h_in[N];
    int want = 0, total = 0;
    for (int i = 0; i < N; i++) {
        h_in[i] = i % 201 - 100;
        want += h_in[i];
    }
    int *d_in, *d_partial, *d_total;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_partial, BLOCKS * sizeof(int));
    cudaMalloc((void **)&d_total, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    reduce_kernel<<<BLOCKS, THREADS>>>(d_in, d_partial, N);
    reduce_kernel<<<1, THREADS>>>(d_partial, d_total, BLOCKS);
    cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    cudaFree(d_in);
    cudaFree(d_partial);
    cudaFree(d_total);
    int bad = total != want;
    printf("%s ok_reduce_tree: sum %d, expected %d (%s)\n", bad || e ? "FAIL" : "PASS", total, want,
           cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
