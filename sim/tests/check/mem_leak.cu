// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Leaked 256 bytes at 0x[0-9a-f]+ allocated by cudaMalloc.========= +at main in [^=]*mem_leak\.cu:32
// CHECK-EXPECT: LEAK SUMMARY: 256 bytes leaked in 1 allocations
// clang-format on
// mem_leak — a scratch buffer of 64 floats (256 bytes) that the cleanup
// forgets: it is still allocated when the program exits.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 4096
#define PARTS 64

// partial[p] = sum of x[p], x[p + PARTS], x[p + 2 PARTS], ...: a thread per part.
__global__ void partial_sums_kernel(const float *x, float *partial, int n)
{
    int p = threadIdx.x;
    float acc = 0.0f;
    for (int i = p; i < n; i += PARTS)
        acc += x[i];
    partial[p] = acc;
}

int main(void)
{
    static float h_x[N], h_partial[PARTS];
    for (int i = 0; i < N; i++)
        h_x[i] = 1.0f;
    float *d_x, *d_partial;
    cudaMalloc((void **)&d_x, sizeof(h_x));
    cudaMalloc((void **)&d_partial, sizeof(h_partial));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    partial_sums_kernel<<<1, PARTS>>>(d_x, d_partial, N);
    cudaMemcpy(h_partial, d_partial, sizeof(h_partial), cudaMemcpyDeviceToHost);
    float total = 0.0f;
    for (int p = 0; p < PARTS; p++)
        total += h_partial[p];
    printf("total = %g\n", total);
    cudaFree(d_x);
    // BUG: missing cudaFree(d_partial).
    return 0;
}
