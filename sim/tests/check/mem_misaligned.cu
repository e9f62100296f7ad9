// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ write of size 4 bytes
// CHECK-EXPECT: at pack_kernel in [^=]*mem_misaligned\.cu:24
// CHECK-EXPECT: Address 0x[0-9a-f]+ is misaligned
// clang-format on
// mem_misaligned — packed 5-byte records (a 1-byte tag, then a 4-byte value)
// written with an int store: the value's address, buf + 5 i + 1, is not a
// multiple of 4 (for three threads in four). A GPU requires natural alignment.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 64
#define THREADS 64

// Record i of buf: byte 5 i is its tag (i), bytes 5 i + 1 .. 5 i + 4 its value.
__global__ void pack_kernel(unsigned char *buf, const int *values, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        buf[5 * i] = (unsigned char)i;
        // BUG: a misaligned int store; copy the value byte by byte instead.
        *(int *)(buf + 5 * i + 1) = values[i];
    }
}

int main(void)
{
    static int h_values[N];
    for (int i = 0; i < N; i++)
        h_values[i] = 1000 + i;
    unsigned char *d_buf;
    int *d_values;
    cudaMalloc((void **)&d_buf, 5 * N);
    cudaMalloc((void **)&d_values, sizeof(h_values));
    cudaMemcpy(d_values, h_values, sizeof(h_values), cudaMemcpyHostToDevice);
    pack_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_buf, d_values, N);
    printf("pack_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_buf);
    cudaFree(d_values);
    return 0;
}
