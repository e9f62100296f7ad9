// 38_occupancy_attributes — asking about kernels: cudaFuncGetAttributes and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor succeed with plausible values,
// and more than 48 KiB of dynamic shared memory needs cudaFuncSetAttribute first.
#include "conformance.h"

#define BIG_SHMEM (64 * 1024)

// Only queried, never launched.
__global__ void with_static_shared(float *x)
{
    __shared__ float buf[256];
    buf[threadIdx.x % 256] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = buf[(threadIdx.x + 1) % 256];
}

// Sums the first n ints of a large dynamic shared buffer filled by the block.
__global__ void with_dynamic_shared(int *out, int n)
{
    extern __shared__ int big[];
    for (int k = threadIdx.x; k < n; k += blockDim.x)
        big[k] = k;
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < n; k++)
            s += big[k];
        *out = s;
    }
}

int main(void)
{
    conf_require_device();

    struct cudaDeviceProp p;
    CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
    struct cudaFuncAttributes fa;
    CHECK_CUDA(cudaFuncGetAttributes(&fa, with_static_shared));
    printf("with_static_shared: maxThreadsPerBlock %d, %d registers, %zu B static shared\n",
           fa.maxThreadsPerBlock, fa.numRegs, fa.sharedSizeBytes);
    conf_check(fa.maxThreadsPerBlock > 0 && fa.maxThreadsPerBlock <= p.maxThreadsPerBlock,
               "maxThreadsPerBlock %d", fa.maxThreadsPerBlock);

    int sizes[3] = { 32, 256, 1024 };
    for (int k = 0; k < 3; k++) {
        int nb = 0;
        CHECK_CUDA(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, with_static_shared, sizes[k], 0));
        printf("%4d threads per block: %d active blocks per SM\n", sizes[k], nb);
        conf_check(nb > 0 && nb * sizes[k] <= p.maxThreadsPerMultiProcessor,
                   "%d blocks of %d threads per SM (max %d threads)", nb, sizes[k],
                   p.maxThreadsPerMultiProcessor);
    }
    int nb_shmem = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb_shmem, with_dynamic_shared, 128,
                                                             40 * 1024));
    conf_check(nb_shmem > 0 && (size_t)nb_shmem * 40 * 1024 <= p.sharedMemPerMultiprocessor,
               "%d blocks with 40 KiB of shared memory each per SM (%zu B per SM)", nb_shmem,
               p.sharedMemPerMultiprocessor);

    // More than 48 KiB of dynamic shared memory: refused until the kernel opts in.
    int *d_out, out = 0, n = BIG_SHMEM / (int)sizeof(int);
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(int)));
    if (p.sharedMemPerBlockOptin >= BIG_SHMEM) {
        with_dynamic_shared<<<1, 256, BIG_SHMEM>>>(d_out, n);
        cudaError_t e = cudaGetLastError();
        conf_check(e != cudaSuccess, "a 64 KiB dynamic shared launch without opting in succeeded");
        CHECK_CUDA(cudaFuncSetAttribute(with_dynamic_shared,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, BIG_SHMEM));
        with_dynamic_shared<<<1, 256, BIG_SHMEM>>>(d_out, n);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaMemcpy(&out, d_out, sizeof(int), cudaMemcpyDeviceToHost));
        conf_check(out == n * (n - 1) / 2, "64 KiB shared sum %d, expected %d", out,
                   n * (n - 1) / 2);
    } else {
        printf("sharedMemPerBlockOptin is %zu B: opt-in part not run\n", p.sharedMemPerBlockOptin);
    }

    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
