// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ write of size 4 bytes
// CHECK-EXPECT: at fill in [^=]*mem_null_pointer\.cu:25
// CHECK-EXPECT: Address 0x0 is out of bounds: a null pointer \(was the pointer ever set by cudaMalloc\?\)
// CHECK-NOT: host pointer
// CHECK-NOT: kernel\.hpp
// PLAIN-EXIT: 0
// PLAIN-EXPECT: kernel fill \(launched at [^ ]*mem_null_pointer\.cu:37\): thread \(0,0,0\) of block \(0,0,0\) accessed 0x0, a null pointer
// PLAIN-EXPECT: fill: cudaErrorIllegalAddress
// clang-format on
// mem_null_pointer — a kernel writes through a device pointer that was never
// set (NULL). Both modes name the kernel's own line and say null pointer.
#include <cuda_runtime.h>

#include <stdio.h>

struct buffers {
    float *values; // never allocated
};

__global__ void fill(buffers b)
{
    // BUG: b.values was never given memory by cudaMalloc.
    b.values[threadIdx.x] = 1.0f;
}

int main(void)
{
    buffers b = { NULL };
    // The launch stays on line 37, where the header's regexes expect it.
    //
    //
    //
    //
    //
    fill<<<1, 1>>>(b);
    printf("fill: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
