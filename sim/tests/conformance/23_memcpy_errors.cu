// 23_memcpy_errors — memory calls CUDA refuses, and that those errors are not
// sticky: swapped copy directions, an invalid cudaMemcpyKind, a copy larger than
// the allocation, cudaFree of a host pointer, of an interior pointer, twice.
#include "conformance.h"

#define N 1000

__global__ void iota(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i;
}

int main(void)
{
    conf_require_device();

    // CUDA calls a copy whose pointers do not match its kind undefined: on a
    // GPU it is only reported. The simulator must refuse it (it teaches).
#ifdef GPULAB_SIM
    const int must_refuse_swapped = 1;
#else
    const int must_refuse_swapped = 0;
#endif

    size_t bytes = N * sizeof(int);
    int *d, *h = (int *)calloc(2 * N, sizeof(int)), *h2 = (int *)calloc(2 * N, sizeof(int));
    CHECK_CUDA(cudaMalloc(&d, bytes));
    CHECK_CUDA(cudaMemset(d, 0, bytes));

    cudaError_t e = cudaMemcpy(h, d, bytes, cudaMemcpyHostToDevice); // dst/src swapped
    printf("HostToDevice with a host dst and a device src: %s\n", cudaGetErrorName(e));
    conf_check(!must_refuse_swapped || e != cudaSuccess, "swapped HostToDevice copy succeeded");
    e = cudaMemcpy(d, h, bytes, cudaMemcpyDeviceToHost); // dst/src swapped
    printf("DeviceToHost with a device dst and a host src: %s\n", cudaGetErrorName(e));
    conf_check(!must_refuse_swapped || e != cudaSuccess, "swapped DeviceToHost copy succeeded");
    conf_check_err(cudaMemcpy(h2, h, bytes, (enum cudaMemcpyKind)7),
                   cudaErrorInvalidMemcpyDirection);
    conf_check_err(cudaMemcpy(h2, d, 2 * bytes, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    conf_check_err(cudaMemcpy(d, h, 2 * bytes, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    conf_check_err(cudaMemset(d, 0, 2 * bytes), cudaErrorInvalidValue);

    conf_check_err(cudaFree(h), cudaErrorInvalidValue);     // malloc'd, not cudaMalloc'd
    conf_check_err(cudaFree(d + 1), cudaErrorInvalidValue); // inside an allocation
    conf_check_err(cudaFree(NULL), cudaSuccess);            // documented no-op
    int *t;
    CHECK_CUDA(cudaMalloc(&t, 64));
    CHECK_CUDA(cudaFree(t));
    conf_check_err(cudaFree(t), cudaErrorInvalidValue); // double free

    // The last error is the last failure, cleared once read: not sticky.
    conf_check_err(cudaGetLastError(), cudaErrorInvalidValue);
    conf_check_err(cudaGetLastError(), cudaSuccess);
    conf_check_err(cudaDeviceSynchronize(), cudaSuccess);
    int *d2;
    CHECK_CUDA(cudaMalloc(&d2, bytes));
    iota<<<(N + 255) / 256, 256>>>(d2, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(d, d2, bytes, cudaMemcpyDeviceToDevice));
    CHECK_CUDA(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        conf_check(h[i] == i, "after the errors: [%d] = %d, expected %d", i, h[i], i);

    CHECK_CUDA(cudaFree(d));
    CHECK_CUDA(cudaFree(d2));
    free(h);
    free(h2);
    return conf_finish();
}
