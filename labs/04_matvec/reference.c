/* Lab 04's references: OpenBLAS on the CPU, cuBLAS on the device (see reference.h). */
#include "reference.h"

#include "lab/check.h"

#include <cblas.h>
#include <math.h>

void lab04_matvec_cpu(float *u, const float *A, const float *v, int N, int M)
{
    /* CblasRowMajor says how A is stored, so the call reads like the maths:
     * u = 1 * A v + 0 * u, A (N, M) with leading dimension M. */
    cblas_sgemv(CblasRowMajor, CblasNoTrans, N, M, 1.0f, A, M, v, 1, 0.0f, u, 1);
}

void lab04_matvec_cublas(cublasHandle_t handle, float *d_u, const float *d_A, const float *d_v,
                         int N, int M)
{
    const float one = 1.0f, zero = 0.0f;
    /* cuBLAS knows only column-major storage: element (i, j) of a matrix with
     * leading dimension ld is at X[i + j * ld]. Our row-major A (N, M) keeps
     * (i, j) at A[i * M + j], which is where a column-major (M, N) matrix
     * with ld = M keeps its (j, i): cuBLAS sees the bytes of A as A^T. So we
     * ask for op(X) = X^T (CUBLAS_OP_T) on that (M, N) matrix: (A^T)^T v = A v.
     * No data moves; only the reading of the bytes changes. */
    LAB_CHECK_CUBLAS(cublasSgemv(handle, CUBLAS_OP_T, M, N, &one, d_A, M, d_v, 1, &zero, d_u, 1));
}

void lab04_matmul_cpu(float *C, const float *A, const float *B, int n, int k, int m)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, m, k, 1.0f, A, k, B, m, 0.0f, C, m);
}

double lab04_matvec_bytes(int N, int M)
{
    return 4.0 * ((double)N * M + M + N);
}

double lab04_float32_gamma(double k)
{
    const double u = ldexp(1.0, -24);
    return k * u / (1.0 - k * u);
}

double lab04_matvec_error_bound(const float *A, const float *v, int N, int M)
{
    double worst = 0.0;
    for (int i = 0; i < N; i++) {
        const float *a = A + (size_t)i * M;
        double s = 0.0;
        for (int j = 0; j < M; j++)
            s += fabs((double)a[j] * v[j]);
        if (s > worst)
            worst = s;
    }
    return lab04_float32_gamma(M) * worst;
}
