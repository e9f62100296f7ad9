// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_dynamic_shared — dynamic shared memory sized for what the kernel uses:
// blockDim.x + 1 floats (the block's elements and the one left of it); n is
// not a multiple of the block, and the threads past n store 0 so that every
// element read was written.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 128

// d[i] = x[i] - x[i - 1] (with x[-1] = 0); s[0] holds the element left of the
// block, s[1 + tid] the block's own.
__global__ void diff_kernel(const float *x, float *d, int n)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid == 0)
        s[0] = i > 0 ? x[i - 1] : 0.0f; // i - 1 < n: the block has elements
    s[1 + tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n)
        d[i] = s[1 + tid] - s[tid];
}

int main(void)
{
    static float h_x[N], h_d[N];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)(i * i % 1013);
    float *d_x, *d_d;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMalloc((void **)&d_d, sizeof(h_d));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    diff_kernel<<<(N + THREADS - 1) / THREADS, THREADS, (THREADS + 1) * sizeof(float)>>>(d_x, d_d,
                                                                                         N);
    cudaMemcpy(h_d, d_d, sizeof(h_d), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = h_x[i] - (i > 0 ? h_x[i - 1] : 0.0f);
        if (h_d[i] != want && bad++ < 5)
            printf("d[%d] = %g, expected %g\n", i, h_d[i], want);
    }
    cudaFree(d_x);
    cudaFree(d_d);
    printf("%s ok_dynamic_shared (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
