// ncu_kernels.cu — for the test of `gpulab ncu`: a coalesced copy (a warp's
// 32 loads in 4 sectors), a strided one (32 sectors), each launched twice in
// turn, a kernel with 20 KiB of dynamic shared memory, which the shared
// memory limits to 7 blocks per SM on an A100 (164 KiB / (20 + 1) KiB), and
// one with 24 KiB of static shared memory: 6 blocks (164 / (24 + 1)).
#include <cstdio>

__global__ void copy_rows(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copy_cols(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(i % 32) * 32 * 1024 + i / 32]; // lanes 128 KiB apart
}

__global__ void with_shared(float *out, int n)
{
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = (float)i;
    __syncthreads();
    if (i < n)
        out[i] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void with_static(float *out, int n)
{
    __shared__ float big[6144];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    big[threadIdx.x] = (float)i;
    __syncthreads();
    if (i < n)
        out[i] = big[blockDim.x - 1 - threadIdx.x];
}

int main()
{
    const int n = 1 << 15;
    float *in, *out;
    cudaMalloc(&in, 32 * 32 * 1024 * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, 32 * 32 * 1024 * sizeof(float));
    for (int r = 0; r < 2; r++) {
        copy_rows<<<n / 256, 256>>>(out, in, n);
        copy_cols<<<n / 256, 256>>>(out, in, n);
    }
    with_shared<<<n / 256, 256, 20 * 1024>>>(out, n);
    with_static<<<n / 256, 256>>>(out, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    printf("%s ncu_kernels\n", e == cudaSuccess ? "PASS" : "FAIL");
    return e == cudaSuccess ? 0 : 1;
}
