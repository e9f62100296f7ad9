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

// A reduction of x alone, which BLAS gives as 0 for n <= 0 or incx <= 0.
template <typename R, typename F>
static cublasStatus_t reduce_x(cublasHandle_t handle, const char *fn, int n, const float *x,
                               int incx, R *result, F compute)
{
    if (incx <= 0)
        n = 0;
    return reduce<R>(
        handle, fn, { vector_arg("x", x, n, incx) }, result,
        [=]() { return n > 0 ? compute(n) : R(0); }, n, 1);
}

// A routine that writes vectors: the handle, alpha (when it takes one) and the
// operands checked, nothing done for n <= 0; then work(alpha) queued on the
// handle's stream, and the model told its flops and bytes.
template <typename F>
static cublasStatus_t vector_op(cublasHandle_t handle, const char *fn, int n, bool takes_alpha,
                                const float *alpha, std::initializer_list<operand> ops,
                                double flops, double bytes, F work)
{
    call c;
    scalar<float> a{}; // unread when the routine takes no alpha
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (takes_alpha && !alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = takes_alpha ? begin_scaled(handle, fn, &c, alpha, &a, ops)
                                    : begin_level1(handle, fn, &c, ops);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        work(takes_alpha ? a.get() : 0.0f);
        gpulab_sim::model_blas(stream, fn, flops, bytes, n);
    });
}

cublasStatus_t cublasSnrm2_v2(cublasHandle_t handle, int n, const float *x, int incx, float *result)
{
    return reduce_x(handle, "cublasSnrm2", n, x, incx, result,
                    [=](int m) { return cblas_snrm2(m, x, incx); });
}

cublasStatus_t cublasSasum_v2(cublasHandle_t handle, int n, const float *x, int incx, float *result)
{
    return reduce_x(handle, "cublasSasum", n, x, incx, result,
                    [=](int m) { return cblas_sasum(m, x, incx); });
}

// The result is 1-based (Fortran's convention); 0 when n <= 0.
cublasStatus_t cublasIsamax_v2(cublasHandle_t handle, int n, const float *x, int incx, int *result)
{
    return reduce_x(handle, "cublasIsamax", n, x, incx, result,
                    [=](int m) { return (int)cblas_isamax(m, x, incx) + 1; });
}

// The first index (1-based) of the smallest |x_i|; 0 when n <= 0 or incx <= 0.
cublasStatus_t cublasIsamin_v2(cublasHandle_t handle, int n, const float *x, int incx, int *result)
{
    return reduce_x(handle, "cublasIsamin", n, x, incx, result, [=](int m) {
        int best = 0;
        for (int i = 1; i < m; i++)
            if (std::fabs(x[(size_t)i * incx]) < std::fabs(x[(size_t)best * incx]))
                best = i;
        return best + 1;
    });
}

cublasStatus_t cublasSdot_v2(cublasHandle_t handle, int n, const float *x, int incx, const float *y,
                             int incy, float *result)
{
    return reduce<float>(
        handle, "cublasSdot", { vector_arg("x", x, n, incx), vector_arg("y", y, n, incy) }, result,
        [=]() { return n > 0 ? cblas_sdot(n, x, incx, y, incy) : 0.0f; }, n, 2);
}

// x read and written.
cublasStatus_t cublasSscal_v2(cublasHandle_t handle, int n, const float *alpha, float *x, int incx)
{
    return vector_op(handle, "cublasSscal", incx > 0 ? n : 0, true, alpha,
                     { vector_arg("x", x, n, incx) }, n, 8.0 * n, [=](float a) {
                         cblas_sscal(n, a, x, incx);
                         written_vector(x, n, incx);
                     });
}

// x, y in; y out.
cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, int n, const float *alpha, const float *x,
                              int incx, float *y, int incy)
{
    return vector_op(handle, "cublasSaxpy", n, true, alpha,
                     { vector_arg("x", x, n, incx), vector_arg("y", y, n, incy) }, 2.0 * n,
                     12.0 * n, [=](float a) {
                         cblas_saxpy(n, a, x, incx, y, incy);
                         written_vector(y, n, incy);
                     });
}

cublasStatus_t cublasScopy_v2(cublasHandle_t handle, int n, const float *x, int incx, float *y,
                              int incy)
{
    return vector_op(handle, "cublasScopy", n, false, nullptr,
                     { vector_arg("x", x, n, incx), vector_arg("y", y, n, incy) }, 0, 8.0 * n,
                     [=](float) {
                         cblas_scopy(n, x, incx, y, incy);
                         written_vector(y, n, incy);
                     });
}

cublasStatus_t cublasSswap_v2(cublasHandle_t handle, int n, float *x, int incx, float *y, int incy)
{
    return vector_op(handle, "cublasSswap", n, false, nullptr,
                     { vector_arg("x", x, n, incx), vector_arg("y", y, n, incy) }, 0, 16.0 * n,
                     [=](float) {
                         cblas_sswap(n, x, incx, y, incy);
                         written_vector(x, n, incx);
                         written_vector(y, n, incy);
                     });
}
