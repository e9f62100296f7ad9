// cublas_level1.cpp — the simulator's cuBLAS level 1: nrm2, asum, amax,
// amin, dot, scal, axpy, copy and swap in single precision (see
// cublas_internal.hpp for how a routine checks and queues its work).
#include "cublas_internal.hpp"

#include <cmath>

using namespace gpulab_sim::blas;

// ---------------------------------------------------------------------------
// Level 1. Increments may be negative (BLAS's convention: the vector starts
// at the far end) except for nrm2, asum, amax and scal, which, as in BLAS,
// do nothing (or give 0) for incx <= 0. An increment of 0 repeats x[0].

cublasStatus_t cublasSnrm2_v2(cublasHandle_t handle, int n, const float *x, int incx, float *result)
{
    if (incx <= 0)
        n = 0;
    return reduce<float>(
        handle, "cublasSnrm2", { vector_arg("x", x, n, incx) }, result,
        [=]() { return n > 0 ? cblas_snrm2(n, x, incx) : 0.0f; }, n, 1);
}

cublasStatus_t cublasSasum_v2(cublasHandle_t handle, int n, const float *x, int incx, float *result)
{
    if (incx <= 0)
        n = 0;
    return reduce<float>(
        handle, "cublasSasum", { vector_arg("x", x, n, incx) }, result,
        [=]() { return n > 0 ? cblas_sasum(n, x, incx) : 0.0f; }, n, 1);
}

// The result is 1-based (Fortran's convention); 0 when n <= 0.
cublasStatus_t cublasIsamax_v2(cublasHandle_t handle, int n, const float *x, int incx, int *result)
{
    if (incx <= 0)
        n = 0;
    return reduce<int>(
        handle, "cublasIsamax", { vector_arg("x", x, n, incx) }, result,
        [=]() { return n > 0 ? (int)cblas_isamax(n, x, incx) + 1 : 0; }, n, 1);
}

cublasStatus_t cublasSdot_v2(cublasHandle_t handle, int n, const float *x, int incx, const float *y,
                             int incy, float *result)
{
    return reduce<float>(
        handle, "cublasSdot", { vector_arg("x", x, n, incx), vector_arg("y", y, n, incy) }, result,
        [=]() { return n > 0 ? cblas_sdot(n, x, incx, y, incy) : 0.0f; }, n, 2);
}

cublasStatus_t cublasSscal_v2(cublasHandle_t handle, int n, const float *alpha, float *x, int incx)
{
    call c;
    scalar<float> a;
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0 || incx <= 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = begin_level1(handle, "cublasSscal", &c, { vector_arg("x", x, n, incx) });
    if (st == CUBLAS_STATUS_SUCCESS)
        st = load_scalar(c, "alpha", alpha, &a);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        cblas_sscal(n, a.get(), x, incx);
        written_vector(x, n, incx);
        gpulab_sim::model_blas(stream, "cublasSscal", n, 8.0 * n, n); // x read and written
    });
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, int n, const float *alpha, const float *x,
                              int incx, float *y, int incy)
{
    call c;
    scalar<float> a;
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = begin_level1(handle, "cublasSaxpy", &c,
                                     { vector_arg("x", x, n, incx), vector_arg("y", y, n, incy) });
    if (st == CUBLAS_STATUS_SUCCESS)
        st = load_scalar(c, "alpha", alpha, &a);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        cblas_saxpy(n, a.get(), x, incx, y, incy);
        written_vector(y, n, incy);
        gpulab_sim::model_blas(stream, "cublasSaxpy", 2.0 * n, 12.0 * n, n); // x, y in; y out
    });
}

cublasStatus_t cublasScopy_v2(cublasHandle_t handle, int n, const float *x, int incx, float *y,
                              int incy)
{
    call c;
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = begin_level1(handle, "cublasScopy", &c,
                                     { vector_arg("x", x, n, incx), vector_arg("y", y, n, incy) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        cblas_scopy(n, x, incx, y, incy);
        written_vector(y, n, incy);
        gpulab_sim::model_blas(stream, "cublasScopy", 0, 8.0 * n, n);
    });
}

cublasStatus_t cublasSswap_v2(cublasHandle_t handle, int n, float *x, int incx, float *y, int incy)
{
    call c;
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = begin_level1(handle, "cublasSswap", &c,
                                     { vector_arg("x", x, n, incx), vector_arg("y", y, n, incy) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        cblas_sswap(n, x, incx, y, incy);
        written_vector(x, n, incx);
        written_vector(y, n, incy);
        gpulab_sim::model_blas(stream, "cublasSswap", 0, 16.0 * n, n);
    });
}

// The first index (1-based) of the smallest |x_i|; 0 when n <= 0 or incx <= 0.
cublasStatus_t cublasIsamin_v2(cublasHandle_t handle, int n, const float *x, int incx, int *result)
{
    if (incx <= 0)
        n = 0;
    return reduce<int>(
        handle, "cublasIsamin", { vector_arg("x", x, n, incx) }, result,
        [=]() {
            int best = 0;
            for (int i = 1; i < n; i++)
                if (std::fabs(x[(size_t)i * incx]) < std::fabs(x[(size_t)best * incx]))
                    best = i;
            return n > 0 ? best + 1 : 0;
        },
        n, 1);
}
