// cublas_lu.cpp — the simulator's batched LU factorization and inversion
// (cublas<t>getrfBatched, cublas<t>getriBatched), as LAPACK's getrf/getri
// define them: P A = L U with partial pivoting (the largest magnitude in the
// column, the first of equals), L unit lower triangular, U upper, both
// stored over A; pivots 1-based; info[i] = j > 0 when U(j, j) is exactly zero
// (the factorization still completes, as LAPACK's does). Without a pivot
// array no rows are exchanged. See cublas_internal.hpp for how a routine
// checks and queues its work.
#include "cublas_internal.hpp"

#include <cmath>

using namespace gpulab_sim::blas;

namespace
{

using gpulab_sim::report;

// Factors the n x n column-major a (leading dimension lda) in place.
template <typename T>
int lu(T *a, int n, int lda, int *piv)
{
    int info = 0;
    auto at = [a, lda](int i, int j) -> T & { return a[i + (size_t)j * lda]; };
    for (int k = 0; k < n; k++) {
        int p = k;
        if (piv) {
            for (int i = k + 1; i < n; i++)
                if (std::fabs(at(i, k)) > std::fabs(at(p, k)))
                    p = i;
            piv[k] = p + 1;
        }
        if (at(p, k) != T(0)) {
            if (p != k)
                for (int j = 0; j < n; j++)
                    std::swap(at(k, j), at(p, j));
            T d = at(k, k);
            for (int i = k + 1; i < n; i++)
                at(i, k) /= d;
        } else if (info == 0) {
            info = k + 1;
        }
        for (int j = k + 1; j < n; j++) {
            T f = at(k, j);
            if (f != T(0))
                for (int i = k + 1; i < n; i++)
                    at(i, j) -= at(i, k) * f;
        }
    }
    return info;
}

// C = A^-1 from the factors in a (and piv, or none); info as for lu.
template <typename T>
int inverse(const T *a, int n, int lda, const int *piv, T *c, int ldc)
{
    auto A = [a, lda](int i, int j) { return a[i + (size_t)j * lda]; };
    auto C = [c, ldc](int i, int j) -> T & { return c[i + (size_t)j * ldc]; };
    for (int k = 0; k < n; k++)
        if (A(k, k) == T(0))
            return k + 1;
    // C = P I (the row exchanges applied in order to the identity) ...
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            C(i, j) = i == j ? T(1) : T(0);
    if (piv)
        for (int k = 0; k < n; k++)
            if (piv[k] - 1 != k)
                for (int j = 0; j < n; j++)
                    std::swap(C(k, j), C(piv[k] - 1, j));
    // ... then L Y = C and U X = Y, column by column.
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++)
            for (int k = 0; k < i; k++)
                C(i, j) -= A(i, k) * C(k, j);
        for (int i = n - 1; i >= 0; i--) {
            for (int k = i + 1; k < n; k++)
                C(i, j) -= A(i, k) * C(k, j);
            C(i, j) /= A(i, i);
        }
    }
    return 0;
}

// The checks and queueing both calls share. `out` is the array of the
// matrices written (A for getrf, C for getri); the work reads the arrays of
// pointers when it runs, as the gemms over pointer arrays do.
template <typename T, typename Work>
cublasStatus_t batched(cublasHandle_t h, const char *fn, int n, const void *in_array, int lda,
                       const int *piv, const void *out_array, int ld_out, int *info, int count,
                       Work work)
{
    call c;
    if (!h)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n < 0 || lda < std::max(1, n) || ld_out < std::max(1, n) || count < 0 || !info)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0 || count == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = begin(h, fn, &c);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = device_operands(
            c, { vector_arg("Aarray", (const void *const *)in_array, count, 1),
                 vector_arg("Carray", (const void *const *)out_array, out_array ? count : 0, 1),
                 vector_arg("PivotArray", piv, piv ? n * count : 0, 1),
                 vector_arg("infoArray", info, count, 1) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = h->stream;
    cudaError_t e = gpulab_sim::enqueue(h->stream, fn, [=]() {
        gpulab_sim::device_memory_batch_open(); // the arrays and matrices are device memory
        for (int i = 0; i < count; i++)
            if (!work(c, i))
                return cudaErrorIllegalAddress;
        // About 2/3 n^3 flops per matrix (getri: 4/3 n^3); each matrix read and written.
        double n3 = (double)n * n * n;
        gpulab_sim::model_blas(stream, fn, 2.0 * n3 * count, 2.0 * sizeof(T) * n * n * count, n);
        return cudaSuccess;
    });
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

// Whether matrix i of a batch is usable device memory; if not, reports it.
bool matrix_ok(const call &c, const char *name, const void *p, int n, int ld, size_t size, int i)
{
    operand o{ name, p, 0, matrix_elems(n, n, ld) * size, false };
    if (operand_ok(c, o))
        return true;
    report("%s: matrix %d of the batch is not usable device memory", c.fn, i);
    return false;
}

template <typename T>
cublasStatus_t getrf(cublasHandle_t h, const char *fn, int n, T *const A[], int lda, int *P,
                     int *info, int count)
{
    return batched<T>(h, fn, n, A, lda, P, nullptr, n, info, count, [=](const call &c, int i) {
        if (!matrix_ok(c, "Aarray[i]", A[i], n, lda, sizeof(T), i))
            return false;
        int *piv = P ? P + (size_t)i * n : nullptr;
        info[i] = lu(A[i], n, lda, piv);
        written_matrix(A[i], n, n, lda);
        if (piv)
            written_vector(piv, n, 1);
        written_vector(info + i, 1, 1);
        return true;
    });
}

template <typename T>
cublasStatus_t getri(cublasHandle_t h, const char *fn, int n, const T *const A[], int lda,
                     const int *P, T *const C[], int ldc, int *info, int count)
{
    if (h && n > 0 && count > 0 && !C)
        return CUBLAS_STATUS_INVALID_VALUE;
    return batched<T>(h, fn, n, A, lda, P, C, ldc, info, count, [=](const call &c, int i) {
        if (!matrix_ok(c, "Aarray[i]", A[i], n, lda, sizeof(T), i) ||
            !matrix_ok(c, "Carray[i]", C[i], n, ldc, sizeof(T), i))
            return false;
        info[i] = inverse(A[i], n, lda, P ? P + (size_t)i * n : nullptr, C[i], ldc);
        if (info[i] == 0)
            written_matrix(C[i], n, n, ldc);
        written_vector(info + i, 1, 1);
        return true;
    });
}

} // namespace

cublasStatus_t cublasSgetrfBatched(cublasHandle_t handle, int n, float *const Aarray[], int lda,
                                   int *PivotArray, int *infoArray, int batchSize)
{
    return getrf(handle, "cublasSgetrfBatched", n, Aarray, lda, PivotArray, infoArray, batchSize);
}

cublasStatus_t cublasDgetrfBatched(cublasHandle_t handle, int n, double *const Aarray[], int lda,
                                   int *PivotArray, int *infoArray, int batchSize)
{
    return getrf(handle, "cublasDgetrfBatched", n, Aarray, lda, PivotArray, infoArray, batchSize);
}

cublasStatus_t cublasSgetriBatched(cublasHandle_t handle, int n, const float *const Aarray[],
                                   int lda, const int *PivotArray, float *const Carray[], int ldc,
                                   int *infoArray, int batchSize)
{
    return getri(handle, "cublasSgetriBatched", n, Aarray, lda, PivotArray, Carray, ldc, infoArray,
                 batchSize);
}

cublasStatus_t cublasDgetriBatched(cublasHandle_t handle, int n, const double *const Aarray[],
                                   int lda, const int *PivotArray, double *const Carray[], int ldc,
                                   int *infoArray, int batchSize)
{
    return getri(handle, "cublasDgetriBatched", n, Aarray, lda, PivotArray, Carray, ldc, infoArray,
                 batchSize);
}
