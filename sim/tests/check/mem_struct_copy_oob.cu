// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ write of size 16 bytes
// CHECK-EXPECT: at shift_kernel in [^=]*mem_struct_copy_oob\.cu:30
// CHECK-EXPECT: by thread \(63,0,0\) in block \(0,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is 0 bytes after the nearest allocation at 0x[0-9a-f]+ of size 1024 bytes
// clang-format on
// mem_struct_copy_oob — a 16-byte struct copied whole, one element too far:
// out[i + 1] = in[i] for every i < n, so the last thread writes the struct
// just past the end of out. A compiler may copy such a struct with one call
// to memcpy rather than with loads and stores; the check must see it either way.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 64

struct __align__(16) particle
{
    float x, y, z, mass;
};

// Shifts the particles up by one place.
__global__ void shift_kernel(const particle *in, particle *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // BUG: must be if (i + 1 < n).
    if (i < n)
        out[i + 1] = in[i];
}

int main(void)
{
    particle *d_in, *d_out;
    cudaMalloc((void **)&d_in, N * sizeof(particle));
    cudaMalloc((void **)&d_out, N * sizeof(particle));
    cudaMemset(d_in, 0, N * sizeof(particle));
    shift_kernel<<<1, N>>>(d_in, d_out, N);
    printf("shift_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
