// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ write of size 4 bytes
// CHECK-EXPECT: at squares in [^=]*mem_device_heap_oob\.cu:30
// CHECK-EXPECT: is 0 bytes after the nearest allocation at 0x[0-9a-f]+ of size 16 bytes
// CHECK-NOT: host pointer
// PLAIN-EXIT: 0
// PLAIN-EXPECT: squares: cudaSuccess
// PLAIN-EXPECT: sum 14
// clang-format on
// mem_device_heap_oob — a kernel writes one element past a block it took
// with malloc. Device-heap memory is device memory: memcheck checks its
// bounds as it checks cudaMalloc's (compute-sanitizer does the same for the
// device heap). Without the check mode the write lands in unused memory.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 4

__global__ void squares(int *sum)
{
    int *v = (int *)malloc(N * sizeof(int));
    if (!v)
        return;
    int s = 0;
    // BUG: i <= N writes v[N], one past the block; the loop needs i < N.
    for (int i = 0; i <= N; i++) {
        // one past the end at i == N
        v[i] = i * i;
        s += i < N ? v[i] : 0;
    }
    *sum = s;
    free(v);
}

int main(void)
{
    int *sum, h = 0;
    cudaMalloc((void **)&sum, sizeof(int));
    squares<<<1, 1>>>(sum);
    printf("squares: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(&h, sum, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum %d\n", h);
    cudaFree(sum);
    return 0;
}
