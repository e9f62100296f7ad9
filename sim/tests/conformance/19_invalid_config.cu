// 19_invalid_config — launches CUDA refuses: 1025 threads, a zero grid or block
// dimension, blockDim.z = 65, grid.y = 65536, 1 MiB of dynamic shared memory. The
// launch reports the error through cudaGetLastError, runs nothing, and the error is not sticky.
#include "conformance.h"

__global__ void touch(int *count)
{
    atomicAdd(count, 1);
}

static int *d_count;

// Checks one refused launch: the error, that it was cleared by reading it,
// that nothing ran and that the device still synchronises cleanly.
static void expect_refused(const char *what, cudaError_t want, cudaError_t also_ok)
{
    cudaError_t peek = cudaPeekAtLastError();
    cudaError_t got = cudaGetLastError();
    conf_check(peek == got, "%s: cudaPeekAtLastError %s, cudaGetLastError %s", what,
               cudaGetErrorName(peek), cudaGetErrorName(got));
    conf_check(got == want || got == also_ok, "%s: launch error %s, expected %s", what,
               cudaGetErrorName(got), cudaGetErrorName(want));
    if (also_ok != want)
        printf("%s: the launch returned %s\n", what, cudaGetErrorName(got));
    conf_check_err(cudaGetLastError(), cudaSuccess);
    conf_check_err(cudaDeviceSynchronize(), cudaSuccess);
    int count = -1;
    CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    conf_check(count == 0, "%s: the refused kernel ran (%d threads)", what, count);
}

int main(void)
{
    conf_require_device();

    CHECK_CUDA(cudaMalloc(&d_count, sizeof(int)));
    CHECK_CUDA(cudaMemset(d_count, 0, sizeof(int)));

    touch<<<1, 1025>>>(d_count);
    expect_refused("1025 threads per block", cudaErrorInvalidConfiguration,
                   cudaErrorInvalidConfiguration);
    touch<<<1, dim3(32, 32, 2)>>>(d_count);
    expect_refused("32x32x2 threads per block", cudaErrorInvalidConfiguration,
                   cudaErrorInvalidConfiguration);
    touch<<<dim3(0, 1, 1), 32>>>(d_count);
    expect_refused("grid.x = 0", cudaErrorInvalidConfiguration, cudaErrorInvalidConfiguration);
    touch<<<1, dim3(0, 1, 1)>>>(d_count);
    expect_refused("block.x = 0", cudaErrorInvalidConfiguration, cudaErrorInvalidConfiguration);
    touch<<<1, dim3(1, 1, 65)>>>(d_count);
    expect_refused("block.z = 65", cudaErrorInvalidConfiguration, cudaErrorInvalidConfiguration);
    touch<<<dim3(1, 65536, 1), 1>>>(d_count);
    expect_refused("grid.y = 65536", cudaErrorInvalidConfiguration, cudaErrorInvalidConfiguration);
    // More dynamic shared memory than any block may have: recent drivers say
    // cudaErrorInvalidValue, older ones cudaErrorInvalidConfiguration.
    touch<<<1, 32, 1 << 20>>>(d_count);
    expect_refused("1 MiB dynamic shared memory", cudaErrorInvalidValue,
                   cudaErrorInvalidConfiguration);

    // The limits themselves are fine: 1024 threads, block.z = 64, grid.y = 65535.
    touch<<<1, 1024>>>(d_count);
    CHECK_CUDA(cudaGetLastError());
    touch<<<1, dim3(1, 1, 64)>>>(d_count);
    CHECK_CUDA(cudaGetLastError());
    touch<<<dim3(1, 65535, 1), 1>>>(d_count);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    int count = 0;
    CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    conf_check(count == 1024 + 64 + 65535, "valid launches ran %d threads, expected %d", count,
               1024 + 64 + 65535);

    CHECK_CUDA(cudaFree(d_count));
    return conf_finish();
}
