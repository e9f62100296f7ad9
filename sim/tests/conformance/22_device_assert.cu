// 22_device_assert — device-side assert(): a launch where every assertion
// holds runs normally; one where a single thread (i = 10) fails makes
// cudaDeviceSynchronize return cudaErrorAssert, and the error is sticky.
#include "conformance.h"

#undef NDEBUG // assert must stay on whatever the build type
#include <assert.h>

__global__ void check_index(int *ran)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(ran, 1);
    assert(i < 10);
}

int main(void)
{
    conf_require_device();

    int *d_ran, ran = 0;
    CHECK_CUDA(cudaMalloc(&d_ran, sizeof(int)));
    CHECK_CUDA(cudaMemset(d_ran, 0, sizeof(int)));

    check_index<<<1, 10>>>(d_ran); // i = 0..9: every assertion holds
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(&ran, d_ran, sizeof(int), cudaMemcpyDeviceToHost));
    conf_check(ran == 10, "%d threads ran, expected 10", ran);

    printf("expect a device assertion message for thread 10 below\n");
    fflush(stdout);
    check_index<<<1, 11>>>(d_ran); // i = 10 fails
    conf_check_err(cudaDeviceSynchronize(), cudaErrorAssert);
    int *d_other = NULL;
    conf_check_err(cudaMalloc(&d_other, 64), cudaErrorAssert);
    conf_check_err(cudaGetLastError(), cudaErrorAssert);
    conf_check_err(cudaGetLastError(), cudaErrorAssert); // sticky
    return conf_finish();
}
