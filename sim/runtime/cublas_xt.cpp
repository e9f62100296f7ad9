// cublas_xt.cpp — the simulator's cuBLASXt subset (cublasXt.h): gemms on
// matrices in host or device memory that return with the result. The work
// is queued on the current device's legacy default stream (where device
// memory is open to it, as for every cuBLAS call) and waited for.
#include "cublas_internal.hpp"

#include <cublasXt.h>

struct cublasXtContext {
    int block_dim = 1024;
};

using namespace gpulab_sim::blas;

namespace
{

template <typename T>
cublasStatus_t xt_gemm(cublasXtHandle_t h, const char *fn, cublasOperation_t ta,
                       cublasOperation_t tb, size_t m, size_t n, size_t k, const T *alpha,
                       const T *A, size_t lda, const T *B, size_t ldb, const T *beta, T *C,
                       size_t ldc)
{
    if (!h)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    size_t arows = ta == CUBLAS_OP_N ? m : k, brows = tb == CUBLAS_OP_N ? k : n;
    if (bad_op(ta) || bad_op(tb) || !alpha || !beta || lda < std::max<size_t>(1, arows) ||
        ldb < std::max<size_t>(1, brows) || ldc < std::max<size_t>(1, m) || m > INT32_MAX ||
        n > INT32_MAX || k > INT32_MAX || lda > INT32_MAX || ldb > INT32_MAX || ldc > INT32_MAX)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (device_only(alpha) || device_only(beta)) {
        gpulab_sim::report("%s: alpha and beta are read on the host: pass host variables", fn);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (!A || !B || !C) {
        gpulab_sim::report("%s: a matrix pointer is null", fn);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    gemm_shape g{ ta, tb, (int)m, (int)n, (int)k, (int)lda, (int)ldb, (int)ldc };
    T al = *alpha, be = *beta;
    cudaError_t e = gpulab_sim::enqueue(nullptr, fn, [=]() {
        gpulab_sim::device_memory_batch_open(); // matrices in device memory are reachable
        product(g, al, A, B, be, C);
        written_matrix(C, g.m, g.n, g.ldc);
        return cudaSuccess;
    });
    if (e == cudaSuccess)
        e = gpulab_sim::stream_sync(nullptr);
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

} // namespace

cublasStatus_t cublasXtCreate(cublasXtHandle_t *handle)
{
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    *handle = new (std::nothrow) cublasXtContext();
    return *handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t cublasXtDestroy(cublasXtHandle_t handle)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasXtDeviceSelect(cublasXtHandle_t handle, int nbDevices, int deviceId[])
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (nbDevices <= 0 || !deviceId)
        return CUBLAS_STATUS_INVALID_VALUE;
    for (int i = 0; i < nbDevices; i++)
        if (!gpulab_sim::valid_device(deviceId[i]))
            return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasXtSetBlockDim(cublasXtHandle_t handle, int blockDim)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (blockDim <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->block_dim = blockDim;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasXtGetBlockDim(cublasXtHandle_t handle, int *blockDim)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!blockDim)
        return CUBLAS_STATUS_INVALID_VALUE;
    *blockDim = handle->block_dim;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasXtSgemm(cublasXtHandle_t handle, cublasOperation_t transa,
                             cublasOperation_t transb, size_t m, size_t n, size_t k,
                             const float *alpha, const float *A, size_t lda, const float *B,
                             size_t ldb, const float *beta, float *C, size_t ldc)
{
    return xt_gemm(handle, "cublasXtSgemm", transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                   ldc);
}

cublasStatus_t cublasXtDgemm(cublasXtHandle_t handle, cublasOperation_t transa,
                             cublasOperation_t transb, size_t m, size_t n, size_t k,
                             const double *alpha, const double *A, size_t lda, const double *B,
                             size_t ldb, const double *beta, double *C, size_t ldc)
{
    return xt_gemm(handle, "cublasXtDgemm", transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                   ldc);
}
