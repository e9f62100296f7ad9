// reverse.cuh — the nvcc driver test: a kernel with dynamic shared memory and
// its launch, both in a header (rewritten with the .cu that includes it).
#ifndef NVCC_TEST_REVERSE_CUH
#define NVCC_TEST_REVERSE_CUH

__global__ void reverse_kernel(int *out)
{
    extern __shared__ int buf[];
    buf[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

static inline void reverse_on_device(int *d_out, int n)
{
    reverse_kernel<<<1, n, n * sizeof(int)>>>(d_out);
}

#endif
