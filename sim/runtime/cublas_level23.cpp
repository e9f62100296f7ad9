// cublas_level23.cpp — the simulator's cuBLAS levels 2 and 3 and the
// BLAS-like extensions: gemv, ger, symv, gemm (and its strided batches),
// trsm, geam (see cublas_internal.hpp for how a routine checks and queues
// its work).
#include "cublas_internal.hpp"

#include <vector>

using namespace gpulab_sim::blas;

namespace
{

bool bad_fill(cublasFillMode_t f)
{
    return f != CUBLAS_FILL_MODE_LOWER && f != CUBLAS_FILL_MODE_UPPER;
}

CBLAS_UPLO cblas_uplo(cublasFillMode_t f)
{
    return f == CUBLAS_FILL_MODE_LOWER ? CblasLower : CblasUpper;
}

} // namespace

// ---------------------------------------------------------------------------
// Levels 2 and 3

cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                              const float *alpha, const float *A, int lda, const float *x, int incx,
                              const float *beta, float *y, int incy)
{
    return gemv(handle, "cublasSgemv", trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

cublasStatus_t cublasDgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                              const double *alpha, const double *A, int lda, const double *x,
                              int incx, const double *beta, double *y, int incy)
{
    return gemv(handle, "cublasDgemv", trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const float *alpha,
                              const float *A, int lda, const float *B, int ldb, const float *beta,
                              float *C, int ldc)
{
    gemm_shape g{ transa, transb, m, n, k, lda, ldb, ldc };
    return gemm(handle, "cublasSgemm", g, alpha, A, 0, B, 0, beta, C, 0, 1);
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const double *alpha,
                              const double *A, int lda, const double *B, int ldb,
                              const double *beta, double *C, int ldc)
{
    gemm_shape g{ transa, transb, m, n, k, lda, ldb, ldc };
    return gemm(handle, "cublasDgemm", g, alpha, A, 0, B, 0, beta, C, 0, 1);
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const float *alpha, const float *A, int lda,
                                         long long int strideA, const float *B, int ldb,
                                         long long int strideB, const float *beta, float *C,
                                         int ldc, long long int strideC, int batchCount)
{
    gemm_shape g{ transa, transb, m, n, k, lda, ldb, ldc };
    return gemm(handle, "cublasSgemmStridedBatched", g, alpha, A, strideA, B, strideB, beta, C,
                strideC, batchCount);
}

// A += alpha x y^T.
cublasStatus_t cublasSger_v2(cublasHandle_t handle, int m, int n, const float *alpha,
                             const float *x, int incx, const float *y, int incy, float *A, int lda)
{
    call c;
    scalar<float> a;
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (m < 0 || n < 0 || incx == 0 || incy == 0 || lda < std::max(1, m) || !alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = begin_scaled(handle, "cublasSger", &c, alpha, &a,
                                     { vector_arg("x", x, m, incx), vector_arg("y", y, n, incy),
                                       matrix_arg("A", A, m, n, lda) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        cblas_sger(CblasColMajor, m, n, a.get(), x, incx, y, incy, A, lda);
        written_matrix(A, m, n, lda);
        gpulab_sim::model_blas(stream, "cublasSger", 2.0 * m * n, 4.0 * (2.0 * m * n + m + n),
                               std::min(m, n));
    });
}

// y = alpha A x + beta y for a symmetric A of which triangle uplo is stored.
cublasStatus_t cublasSsymv_v2(cublasHandle_t handle, cublasFillMode_t uplo, int n,
                              const float *alpha, const float *A, int lda, const float *x, int incx,
                              const float *beta, float *y, int incy)
{
    call c;
    scalar<float> a, b;
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (bad_fill(uplo) || n < 0 || lda < std::max(1, n) || incx == 0 || incy == 0 || !alpha ||
        !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = begin_scaled(handle, "cublasSsymv", &c, alpha, &a, beta, &b,
                                     { matrix_arg("A", A, n, n, lda), vector_arg("x", x, n, incx),
                                       vector_arg("y", y, n, incy) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        float beta_now = output_beta(b.get(), y, 1, n, incy < 0 ? -incy : incy);
        cblas_ssymv(CblasColMajor, cblas_uplo(uplo), n, a.get(), A, lda, x, incx, beta_now, y,
                    incy);
        written_vector(y, n, incy);
        // Half of A read (one triangle), x once, y read and written.
        gpulab_sim::model_blas(stream, "cublasSsymv", 2.0 * n * n, 4.0 * (0.5 * n * n + 3.0 * n),
                               n);
    });
}

// ---------------------------------------------------------------------------
// Level 3 and extensions

// Solves op(A) X = alpha B (side left) or X op(A) = alpha B (right); X overwrites B.
cublasStatus_t cublasStrsm_v2(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int m, int n,
                              const float *alpha, const float *A, int lda, float *B, int ldb)
{
    call c;
    scalar<float> a;
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    int ka = side == CUBLAS_SIDE_LEFT ? m : n;
    if ((side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT) || bad_fill(uplo) ||
        bad_op(trans) || (diag != CUBLAS_DIAG_NON_UNIT && diag != CUBLAS_DIAG_UNIT) || m < 0 ||
        n < 0 || lda < std::max(1, ka) || ldb < std::max(1, m) || !alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st =
        begin_scaled(handle, "cublasStrsm", &c, alpha, &a,
                     { matrix_arg("A", A, ka, ka, lda), matrix_arg("B", B, m, n, ldb) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        cblas_strsm(CblasColMajor, side == CUBLAS_SIDE_LEFT ? CblasLeft : CblasRight,
                    cblas_uplo(uplo), cblas_op(trans),
                    diag == CUBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit, m, n, a.get(), A, lda, B,
                    ldb);
        written_matrix(B, m, n, ldb);
        // ka^2 / 2 multiply-adds per column (left) or row (right) of B.
        double other = side == CUBLAS_SIDE_LEFT ? n : m;
        gpulab_sim::model_blas(stream, "cublasStrsm", (double)ka * ka * other,
                               4.0 * (0.5 * ka * ka + 2.0 * m * n), std::min(m, n));
    });
}

// C = alpha op(A) + beta op(B). A is not read when alpha is 0, B not when beta
// is 0 (pointer mode host: they may then be null). C may be A (or B) when it
// is not transposed and has the same leading dimension.
cublasStatus_t cublasSgeam(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n, const float *alpha,
                           const float *A, int lda, const float *beta, const float *B, int ldb,
                           float *C, int ldc)
{
    call c;
    scalar<float> a{ 0, nullptr }, b{ 0, nullptr };
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    int arows = transa == CUBLAS_OP_N ? m : n, brows = transb == CUBLAS_OP_N ? m : n;
    if (bad_op(transa) || bad_op(transb) || m < 0 || n < 0 || lda < std::max(1, arows) ||
        ldb < std::max(1, brows) || ldc < std::max(1, m) || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if ((C == A && (transa != CUBLAS_OP_N || lda != ldc)) ||
        (C == B && (transb != CUBLAS_OP_N || ldb != ldc)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    int acols = transa == CUBLAS_OP_N ? n : m, bcols = transb == CUBLAS_OP_N ? n : m;
    cublasStatus_t st = begin(handle, "cublasSgeam", &c);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = load_scalar(c, "alpha", alpha, &a);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = load_scalar(c, "beta", beta, &b);
    // An operand its scalar zeroes (known now in pointer mode host) is not read.
    bool skip_a = !a.device && a.value == 0, skip_b = !b.device && b.value == 0;
    if (st == CUBLAS_STATUS_SUCCESS)
        st = device_operands(
            c, { skip_a ? operand{ "A", A, 0, 0, false } : matrix_arg("A", A, arows, acols, lda),
                 skip_b ? operand{ "B", B, 0, 0, false } : matrix_arg("B", B, brows, bcols, ldb),
                 matrix_arg("C", C, m, n, ldc) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = handle->stream;
    return queue(c, [=]() {
        float al = a.get(), be = b.get();
        std::vector<float> out((size_t)m * n);
        for (long long j = 0; j < n; j++)
            for (long long i = 0; i < m; i++) {
                float v = 0;
                if (al != 0)
                    v = al * (transa == CUBLAS_OP_N ? A[i + j * lda] : A[j + i * lda]);
                if (be != 0)
                    v += be * (transb == CUBLAS_OP_N ? B[i + j * ldb] : B[j + i * ldb]);
                out[(size_t)(i + j * m)] = v;
            }
        for (long long j = 0; j < n; j++)
            std::memcpy(C + j * ldc, out.data() + j * m, (size_t)m * sizeof(float));
        written_matrix(C, m, n, ldc);
        gpulab_sim::model_blas(stream, "cublasSgeam", 3.0 * m * n, 12.0 * m * n, std::min(m, n));
    });
}
