// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __shared__ read of size 4 bytes
// CHECK-EXPECT: at diff_kernel in [^=]*mem_shared_static_oob_read\.cu:32
// CHECK-EXPECT: by thread \(63,0,0\) in block \(0,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is 0 bytes after the end of __shared__ array .s. \(256 bytes, declared at [^=]*mem_shared_static_oob_read\.cu:27\)
// PLAIN-EXIT: 1
// PLAIN-EXPECT: kernel diff_kernel \(launched at [^=]*mem_shared_static_oob_read\.cu:46\): thread \(63,0,0\) of block \(0,0,0\) read 0x[0-9a-f]+ at [^=]*mem_shared_static_oob_read\.cu:32, which is 0 bytes after the end of __shared__ array .s. \(256 bytes, declared at [^=]*mem_shared_static_oob_read\.cu:27\)
// PLAIN-EXPECT: diff_kernel: cudaErrorIllegalAddress
// clang-format on
// mem_shared_static_oob_read — a forward difference through a static
// __shared__ array with no room for the halo: thread 63 reads s[64], one past
// the end of the 64-float array (the next block's first value was never
// staged). memcheck reports the read; without it the read meets the guard
// page after the array and the kernel stops with cudaErrorIllegalAddress.
#include <cuda_runtime.h>

#include <stdio.h>

#define THREADS 64

// d[i] = x[i + 1] - x[i] within the block.
__global__ void diff_kernel(const float *x, float *d)
{
    // BUG: must be s[THREADS + 1], with s[THREADS] loaded from the next block.
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = x[i];
    __syncthreads();
    d[i] = s[tid + 1] - s[tid];
}

int main(void)
{
    static float h_x[THREADS + 1];
    for (int i = 0; i <= THREADS; i++)
        h_x[i] = (float)(i * i);
    float *d_x, *d_d;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMalloc((void **)&d_d, THREADS * sizeof(float));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    cudaMemset(d_d, 0, THREADS * sizeof(float));
    fflush(stdout);
    diff_kernel<<<1, THREADS>>>(d_x, d_d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("diff_kernel: %s\n", cudaGetErrorName(e));
    cudaFree(d_x);
    cudaFree(d_d);
    return e == cudaSuccess ? 0 : 1;
}
