// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __shared__ read of size 4 bytes
// CHECK-EXPECT: at diff_kernel in [^=]*mem_shared_static_negative\.cu:32
// CHECK-EXPECT: by thread \(0,0,0\) in block \(0,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is 4 bytes before the start of __shared__ array .s. \(256 bytes, declared at [^=]*mem_shared_static_negative\.cu:26\)
// PLAIN-EXIT: 1
// PLAIN-EXPECT: d\[0\] = -?nan \(expected 0\): FAIL
// clang-format on
// mem_shared_static_negative — a backward difference through a static
// __shared__ array without a lower bound: thread 0 reads s[-1], 4 bytes
// before the start of the array. memcheck reports the read. Without it the
// read returns what lies below the array, as on a GPU: here filler bytes
// 0xff, so d[0] is NaN and the program's own check fails, with a normal exit.
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>

#define THREADS 64

// d[i] = x[i] - x[i - 1] within the block, d[0] = 0.
__global__ void diff_kernel(const float *x, float *d)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = x[i];
    __syncthreads();
    // BUG: thread 0 must write 0 instead of reading s[-1].
    d[i] = s[tid] - s[tid - 1];
}

int main(void)
{
    static float h_x[THREADS], h_d[THREADS];
    for (int i = 0; i < THREADS; i++)
        h_x[i] = (float)(i * i);
    float *d_x, *d_d;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMalloc((void **)&d_d, sizeof(h_d));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    diff_kernel<<<1, THREADS>>>(d_x, d_d);
    cudaError_t e = cudaMemcpy(h_d, d_d, sizeof(h_d), cudaMemcpyDeviceToHost);
    printf("diff_kernel: %s\n", cudaGetErrorName(e));
    int ok = e == cudaSuccess && h_d[0] == 0.0f;
    if (e == cudaSuccess)
        printf("d[0] = %g (expected 0): %s\n", h_d[0], ok ? "PASS" : "FAIL");
    cudaFree(d_x);
    cudaFree(d_d);
    return ok ? 0 : 1;
}
