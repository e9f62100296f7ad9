// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __shared__ write of size 4 bytes
// CHECK-EXPECT: at reverse_kernel in [^=]*mem_shared_static_oob_write\.cu:33
// CHECK-EXPECT: by thread \(32,0,0\) in block \(0,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is 0 bytes after the end of __shared__ array .tile. \(128 bytes, declared at [^=]*mem_shared_static_oob_write\.cu:30\)
// PLAIN-EXIT: 1
// PLAIN-EXPECT: kernel reverse_kernel \(launched at [^=]*mem_shared_static_oob_write\.cu:49\): thread \(32,0,0\) of block \(0,0,0\) wrote 0x[0-9a-f]+ at [^=]*mem_shared_static_oob_write\.cu:33, which is 0 bytes after the end of __shared__ array .tile. \(128 bytes, declared at [^=]*mem_shared_static_oob_write\.cu:30\)
// PLAIN-EXPECT: cudaErrorIllegalAddress
// PLAIN-EXPECT: reverse_kernel: cudaErrorIllegalAddress
// clang-format on
// mem_shared_static_oob_write — a block reverses its elements through a
// static __shared__ tile sized for 32 threads, but the launch uses 64: thread
// 32 writes tile[32], just past the end. On a GPU the write lands past the
// block's shared memory or in another variable; the simulator stops the
// kernel with cudaErrorIllegalAddress (plain mode) or reports the write
// before it happens (memcheck), and never crashes.
#include <cuda_runtime.h>

#include <stdio.h>

#define TILE 32
#define THREADS 64

// out[i] = in[blockDim.x - 1 - i] within each block.
__global__ void reverse_kernel(const float *in, float *out)
{
    // BUG: the tile must have room for every thread of the block (THREADS).
    __shared__ float tile[TILE];
    int tid = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    tile[tid] = in[base + tid];
    __syncthreads();
    out[base + tid] = tile[blockDim.x - 1 - tid];
}

int main(void)
{
    static float h_in[THREADS];
    for (int i = 0; i < THREADS; i++)
        h_in[i] = (float)i;
    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(h_in));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(h_in));
    fflush(stdout);
    reverse_kernel<<<1, THREADS>>>(d_in, d_out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("reverse_kernel: %s\n", cudaGetErrorName(e));
    cudaFree(d_in);
    cudaFree(d_out);
    return e == cudaSuccess ? 0 : 1;
}
