// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_early_return — threads past n return early, which is correct when no
// barrier follows: here after the block's only __syncthreads (the shared
// loads before it cover the whole block), and in a kernel without barriers.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 128

// y[i] = x[i - 1] + x[i] (with x[-1] = 0), the left neighbour from shared
// memory when it is in the block.
__global__ void pair_sum_kernel(const float *x, float *y, int n)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i >= n)
        return; // no barrier below
    float left = tid > 0 ? s[tid - 1] : (i > 0 ? x[i - 1] : 0.0f);
    y[i] = left + s[tid];
}

// y[i] *= 2.
__global__ void double_kernel(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    y[i] *= 2.0f;
}

int main(void)
{
    static float h_x[N], h_y[N];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)(i % 50);
    float *d_x, *d_y;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMalloc((void **)&d_y, sizeof(h_y));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    pair_sum_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, d_y, N);
    double_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_y, N);
    cudaMemcpy(h_y, d_y, sizeof(h_y), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = 2.0f * ((i > 0 ? h_x[i - 1] : 0.0f) + h_x[i]);
        if (h_y[i] != want && bad++ < 5)
            printf("y[%d] = %g, expected %g\n", i, h_y[i], want);
    }
    cudaFree(d_x);
    cudaFree(d_y);
    printf("%s ok_early_return (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
