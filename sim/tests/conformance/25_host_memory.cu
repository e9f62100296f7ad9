// 25_host_memory — host memory the device can use: pinned buffers from
// cudaMallocHost/cudaHostAlloc as copy endpoints, mapped pinned memory written
// by a kernel (cudaHostGetDevicePointer), and managed memory used by host and kernel.
#include "conformance.h"

#define N 2048

__global__ void times_two_plus(float *p, int n, float c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 2.0f * p[i] + c;
}

int main(void)
{
    conf_require_device();

    size_t bytes = N * sizeof(float);
    float *pinned, *pinned2, *mapped, *d, *d_mapped, *managed;
    CHECK_CUDA(cudaMallocHost(&pinned, bytes));
    CHECK_CUDA(cudaHostAlloc(&pinned2, bytes, cudaHostAllocDefault));
    CHECK_CUDA(cudaHostAlloc(&mapped, bytes, cudaHostAllocMapped));
    CHECK_CUDA(cudaMalloc(&d, bytes));
    for (int i = 0; i < N; i++) {
        pinned[i] = (float)i;
        mapped[i] = (float)(N - i);
    }

    // Pinned buffers as copy endpoints, through a kernel.
    CHECK_CUDA(cudaMemcpy(d, pinned, bytes, cudaMemcpyHostToDevice));
    times_two_plus<<<(N + 255) / 256, 256>>>(d, N, 1.0f);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(pinned2, d, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        conf_check(pinned2[i] == 2.0f * i + 1.0f, "pinned copy: [%d] = %g, expected %g", i,
                   pinned2[i], 2.0f * i + 1.0f);

    // Mapped (zero-copy) memory: the kernel writes host memory directly.
    CHECK_CUDA(cudaHostGetDevicePointer((void **)&d_mapped, mapped, 0));
    times_two_plus<<<(N + 255) / 256, 256>>>(d_mapped, N, -3.0f);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        conf_check(mapped[i] == 2.0f * (N - i) - 3.0f, "mapped: [%d] = %g, expected %g", i,
                   mapped[i], 2.0f * (N - i) - 3.0f);

    // Managed memory: host writes, kernel updates, host reads after synchronising.
    CHECK_CUDA(cudaMallocManaged(&managed, bytes));
    for (int i = 0; i < N; i++)
        managed[i] = 0.5f * i;
    times_two_plus<<<(N + 255) / 256, 256>>>(managed, N, 0.25f);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        conf_check(managed[i] == (float)i + 0.25f, "managed: [%d] = %g, expected %g", i, managed[i],
                   (float)i + 0.25f);

    CHECK_CUDA(cudaFreeHost(pinned));
    CHECK_CUDA(cudaFreeHost(pinned2));
    CHECK_CUDA(cudaFreeHost(mapped));
    CHECK_CUDA(cudaFree(d));
    CHECK_CUDA(cudaFree(managed));
    return conf_finish();
}
