// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __shared__ write of size 4 bytes
// CHECK-EXPECT: at diff_kernel in [^=]*mem_shared_dynamic_oob\.cu:27
// CHECK-EXPECT: by thread \(127,0,0\) in block \(0,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is 4 bytes past the end of the block's 512 bytes of dynamic shared memory
// clang-format on
// mem_shared_dynamic_oob — the kernel uses blockDim.x + 1 floats of dynamic
// shared memory (one for the element left of the block), but the launch gives
// it blockDim.x floats: thread 127 writes s[128], just past the end.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 128
#define THREADS 128

// d[i] = x[i] - x[i - 1] (with x[-1] = 0); s[0] holds the element left of the
// block, s[1 + tid] the block's own.
__global__ void diff_kernel(const float *x, float *d)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid == 0)
        s[0] = i > 0 ? x[i - 1] : 0.0f;
    s[1 + tid] = x[i];
    __syncthreads();
    d[i] = s[1 + tid] - s[tid];
}

int main(void)
{
    static float h_x[N];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)(i * i);
    float *d_x, *d_d;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMalloc((void **)&d_d, N * sizeof(float));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    // BUG: the size must be (THREADS + 1) * sizeof(float).
    diff_kernel<<<N / THREADS, THREADS, THREADS * sizeof(float)>>>(d_x, d_d);
    printf("diff_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_x);
    cudaFree(d_d);
    return 0;
}
