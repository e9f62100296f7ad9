// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: kernel walk \(launched at [^=]*mem_stack_overflow\.cu:52\): thread \(0,0,0\) of block \(0,0,0\) accessed 0x[0-9a-f]+, past the end of its stack: a stack overflow \(recursion that does not end or goes too deep
// CHECK-EXPECT: Program hit cudaErrorIllegalAddress
// PLAIN-EXIT: 0
// PLAIN-EXPECT: past the end of its stack: a stack overflow \(recursion that does not end or goes too deep
// PLAIN-EXPECT: walk: cudaErrorIllegalAddress
// clang-format on
// mem_stack_overflow — a device function that calls itself with no end. A
// GPU's thread runs out of stack and the kernel fails; the simulator says
// it was a stack overflow and stops the kernel with cudaErrorIllegalAddress
// (sticky), in both modes, without dying of the signal.
#include <cuda_runtime.h>

#include <stdio.h>

// The sum of depth..depth+63 of a table, plus the rest of the walk.
__device__ int walk_from(const int *table, int depth)
{
    int local[64];
    for (int i = 0; i < 64; i++)
        local[i] = table[(depth + i) & 63];
    // BUG: no depth at which the recursion stops.
    int s = walk_from(table, depth + 1);
    for (int i = 0; i < 64; i++)
        s += local[i];
    return s;
}

__global__ void walk(const int *table, int *out)
{
    out[threadIdx.x] = walk_from(table, threadIdx.x);
}

int main(void)
{
    int *table, *out;
    cudaMalloc((void **)&table, 64 * sizeof(int));
    cudaMalloc((void **)&out, sizeof(int));
    cudaMemset(table, 0, 64 * sizeof(int));
    // Padding lines: the launch stays on line 52, where the header's
    // regexes expect it.
    //
    //
    //
    //
    //
    //
    //
    //
    //
    walk<<<1, 1>>>(table, out);
    printf("walk: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
