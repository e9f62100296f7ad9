// 18_sticky_illegal_address — a kernel writing through a host (malloc'd) pointer:
// cudaDeviceSynchronize returns cudaErrorIllegalAddress, sticky (later calls, cudaMalloc,
// cudaGetLastError twice) until cudaDeviceReset. On a GPU that can access pageable host
// memory (HMM/ATS) there is no fault, so the cuda backend skips (77) there.
#include "conformance.h"

#define N 1024

__global__ void write_ids(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i;
}

int main(void)
{
    conf_require_device();

    // cudaDevAttrPageableMemoryAccess (88): named by value, as the simulator's
    // headers need not define it. An error here means "no".
    int pageable = 0;
    if (cudaDeviceGetAttribute(&pageable, (enum cudaDeviceAttr)88, 0) != cudaSuccess)
        pageable = 0;
    cudaGetLastError();
    if (pageable)
        conf_skip("this GPU can access pageable host memory (HMM/ATS): no fault to observe");

    int *d_before;
    CHECK_CUDA(cudaMalloc(&d_before, N * sizeof(int)));
    int *h = (int *)malloc(N * sizeof(int));
    memset(h, 0, N * sizeof(int));

    write_ids<<<N / 256, 256>>>(h, N); // the bug: a host pointer given to a kernel
    conf_check_err(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    int *d_after = NULL;
    conf_check_err(cudaMalloc(&d_after, N * sizeof(int)), cudaErrorIllegalAddress);
    conf_check_err(cudaMemset(d_before, 0, N * sizeof(int)), cudaErrorIllegalAddress);
    conf_check_err(cudaGetLastError(), cudaErrorIllegalAddress);
    conf_check_err(cudaGetLastError(), cudaErrorIllegalAddress); // sticky: not cleared by reading
    conf_check_err(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    conf_check(h[1] == 0 && h[N - 1] == 0, "the kernel wrote host memory (h[1] = %d)", h[1]);

    // Only a reset clears it; the device then works again.
    CHECK_CUDA(cudaDeviceReset());
    cudaGetLastError(); // may still report the error recorded before the reset, once
    conf_check_err(cudaGetLastError(), cudaSuccess);
    int *d = NULL;
    CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
    write_ids<<<N / 256, 256>>>(d, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        conf_check(h[i] == i, "after reset: p[%d] = %d, expected %d", i, h[i], i);

    CHECK_CUDA(cudaFree(d));
    free(h);
    return conf_finish();
}
