/*
 * test_cublas.cu — checks the cuBLAS subset the labs use against plain CPU
 * loops (column-major), on either backend: the simulator's OpenBLAS-based
 * cuBLAS or the real one.
 *
 * Covers: handles, streams, pointer modes, status names; Sgemm and Dgemm with
 * every transpose pair and leading dimensions larger than the rows; Sgemm of
 * thin shapes (a CNN's, which the simulator computes itself); Sgemv and
 * Dgemv; SgemmStridedBatched (padded and zero strides); Saxpy, Sdot, Snrm2,
 * Sasum, Isamax, Sscal, Scopy, Sswap with strides and negative increments;
 * pointer mode device; Set/GetMatrix and Set/GetVector; the status codes of
 * bad arguments and of a NULL handle; and, on the simulator only, that an
 * operand in host memory or past the end of its allocation fails the call and
 * leaves the sticky cudaErrorIllegalAddress a faulting kernel leaves.
 *
 * Prints one line per check and "N passed, M failed"; exits 1 on a failure,
 * 77 when there is no CUDA device.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>
#include <cublas_v2.h>

#include "lab/check.h"

// ----------------------------------------------------------------------------
// Checks and buffers

static int g_passed, g_failed;

static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s ", ok ? "PASS" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok)
        g_passed++;
    else
        g_failed++;
}

static void check_status(cublasStatus_t got, cublasStatus_t want, const char *what)
{
    check(got == want, "%s -> %s (want %s)", what, cublasGetStatusName(got),
          cublasGetStatusName(want));
}

// Whether got[i] matches want[i] for all i < n; prints the first mismatch.
static int same(const float *got, const float *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!(fabsf(got[i] - want[i]) <= 1e-5f + 1e-5f * fabsf(want[i]))) {
            printf("  [%zu]: got %.7g, want %.7g\n", i, got[i], want[i]);
            return 0;
        }
    }
    return 1;
}

static int same_d(const double *got, const double *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!(fabs(got[i] - want[i]) <= 1e-12 + 1e-12 * fabs(want[i]))) {
            printf("  [%zu]: got %.15g, want %.15g\n", i, got[i], want[i]);
            return 0;
        }
    }
    return 1;
}

static unsigned g_seed = 12345u;

// Uniform in [-1, 1), from a fixed-seed LCG.
static float next_value(void)
{
    g_seed = g_seed * 1664525u + 1013904223u;
    return (float)(g_seed >> 8) / (float)(1u << 23) - 1.0f;
}

static float *host_random(size_t n)
{
    float *x = (float *)malloc(n * sizeof(*x));
    if (!x) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        x[i] = next_value();
    return x;
}

static float *host_clone(const float *x, size_t n)
{
    float *y = host_random(n);
    memcpy(y, x, n * sizeof(*y));
    return y;
}

static void *device_copy(const void *h, size_t bytes)
{
    void *d = NULL;
    LAB_CHECK(cudaMalloc(&d, bytes));
    LAB_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

static void host_copy(void *h, const void *d, size_t bytes)
{
    LAB_CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
}

static const char *op_name(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? "N" : op == CUBLAS_OP_T ? "T" : "C";
}

// ----------------------------------------------------------------------------
// CPU references (column-major)

// op(A)(i, j) for A stored with leading dimension lda.
static double op_at(const float *A, int lda, cublasOperation_t op, int i, int j)
{
    return op == CUBLAS_OP_N ? A[i + (size_t)j * lda] : A[j + (size_t)i * lda];
}

static void gemm_cpu(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, float alpha,
                     const float *A, int lda, const float *B, int ldb, float beta, float *C,
                     int ldc)
{
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            double sum = 0.0;
            for (int p = 0; p < k; p++)
                sum += op_at(A, lda, ta, i, p) * op_at(B, ldb, tb, p, j);
            float *c = &C[i + (size_t)j * ldc];
            *c = (float)(alpha * sum + (beta == 0.0f ? 0.0 : (double)beta * *c));
        }
    }
}

// y = alpha op(A) x + beta y; x and y may have negative increments (BLAS's
// convention: element 0 is at the far end).
static void gemv_cpu(cublasOperation_t t, int m, int n, float alpha, const float *A, int lda,
                     const float *x, int incx, float beta, float *y, int incy)
{
    int xlen = t == CUBLAS_OP_N ? n : m, ylen = t == CUBLAS_OP_N ? m : n;
    int x0 = incx < 0 ? (1 - xlen) * incx : 0, y0 = incy < 0 ? (1 - ylen) * incy : 0;
    for (int i = 0; i < ylen; i++) {
        double sum = 0.0;
        for (int j = 0; j < xlen; j++)
            sum += op_at(A, lda, t, i, j) * x[x0 + j * incx];
        float *yi = &y[y0 + i * incy];
        *yi = (float)(alpha * sum + (beta == 0.0f ? 0.0 : (double)beta * *yi));
    }
}

// Index of element i of a vector of n entries with increment inc.
static int vidx(int i, int n, int inc)
{
    return inc < 0 ? (n - 1 - i) * -inc : i * inc;
}

// ----------------------------------------------------------------------------
// Handles, streams, names

static void test_handle(cublasHandle_t h)
{
    int version = 0;
    cublasPointerMode_t mode = CUBLAS_POINTER_MODE_DEVICE;
    cudaStream_t s = NULL, got = (cudaStream_t)1;
    cublasStatus_t st = cublasGetVersion(h, &version);
    check(st == CUBLAS_STATUS_SUCCESS && version >= 10000, "cublasGetVersion gives %d", version);
    check(cublasGetPointerMode(h, &mode) == CUBLAS_STATUS_SUCCESS &&
              mode == CUBLAS_POINTER_MODE_HOST,
          "a new handle's pointer mode is CUBLAS_POINTER_MODE_HOST");
    check(cublasGetStream(h, &got) == CUBLAS_STATUS_SUCCESS && got == NULL,
          "a new handle's stream is the default stream");
    LAB_CHECK(cudaStreamCreate(&s));
    check(cublasSetStream(h, s) == CUBLAS_STATUS_SUCCESS &&
              cublasGetStream(h, &got) == CUBLAS_STATUS_SUCCESS && got == s,
          "cublasSetStream / cublasGetStream round trip");
    LAB_CHECK_CUBLAS(cublasSetStream(h, NULL));
    LAB_CHECK(cudaStreamDestroy(s));
    check(strcmp(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE), "CUBLAS_STATUS_INVALID_VALUE") ==
                  0 &&
              strcmp(cublasGetStatusName(CUBLAS_STATUS_EXECUTION_FAILED),
                     "CUBLAS_STATUS_EXECUTION_FAILED") == 0,
          "cublasGetStatusName");
    check(strlen(cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED)) > 0,
          "cublasGetStatusString: \"%s\"", cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED));
}

// ----------------------------------------------------------------------------
// Level 3

// The buffers of one GEMM check: A, B, C on the device and on the host, and
// the expected and returned C.
static void free_gemm(float *d_A, float *d_B, float *d_C, float *A, float *B, float *C, float *want,
                      float *got)
{
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(A);
    free(B);
    free(C);
    free(want);
    free(got);
}

// C (m x n, ldc = m + 3) = 1.5 op(A) op(B) - 0.5 C, with lda and ldb larger
// than the rows; the padding must come back untouched. When stream is not
// NULL the work runs on it.
static void test_sgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                       cudaStream_t stream)
{
    const int m = 5, n = 4, k = 3;
    int arows = ta == CUBLAS_OP_N ? m : k, acols = ta == CUBLAS_OP_N ? k : m;
    int brows = tb == CUBLAS_OP_N ? k : n, bcols = tb == CUBLAS_OP_N ? n : k;
    int lda = arows + 2, ldb = brows + 1, ldc = m + 3;
    size_t na = (size_t)lda * acols, nb = (size_t)ldb * bcols, nc = (size_t)ldc * n;
    float alpha = 1.5f, beta = -0.5f;
    float *A = host_random(na), *B = host_random(nb), *C = host_random(nc);
    float *want = host_clone(C, nc), *got = host_random(nc);
    float *d_A = (float *)device_copy(A, na * sizeof(float)),
          *d_B = (float *)device_copy(B, nb * sizeof(float));
    float *d_C = (float *)device_copy(C, nc * sizeof(float));

    gemm_cpu(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, want, ldc);
    LAB_CHECK_CUBLAS(cublasSetStream(h, stream));
    cublasStatus_t st =
        cublasSgemm(h, ta, tb, m, n, k, &alpha, d_A, lda, d_B, ldb, &beta, d_C, ldc);
    alpha = 100.0f; // host scalars are read at call time: this must not matter
    beta = 100.0f;
    LAB_CHECK(cudaDeviceSynchronize());
    host_copy(got, d_C, nc * sizeof(float));
    check(st == CUBLAS_STATUS_SUCCESS && same(got, want, nc),
          "cublasSgemm %s,%s m=%d n=%d k=%d lda=%d ldb=%d ldc=%d%s", op_name(ta), op_name(tb), m, n,
          k, lda, ldb, ldc, stream ? " on a created stream" : "");
    LAB_CHECK_CUBLAS(cublasSetStream(h, NULL));
    free_gemm(d_A, d_B, d_C, A, B, C, want, got);
}

// Thin shapes, as a CNN's layers make them (n or k at most 16; A^T B with
// long columns): the simulator computes these itself where the processor
// has AVX-512. C (ldc = m + 5) = alpha op(A) op(B) + beta C, compared with a
// double-precision sum within the rounding a float sum of k products may
// make; beta = 0 starts from a C of NaN, which must not come through. The
// rows of C past m must come back untouched.
static void test_sgemm_thin(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, float beta)
{
    int arows = ta == CUBLAS_OP_N ? m : k, acols = ta == CUBLAS_OP_N ? k : m;
    int brows = tb == CUBLAS_OP_N ? k : n, bcols = tb == CUBLAS_OP_N ? n : k;
    int lda = arows + 3, ldb = brows + 1, ldc = m + 5;
    size_t na = (size_t)lda * acols, nb = (size_t)ldb * bcols, nc = (size_t)ldc * n;
    float alpha = 0.75f;
    float *A = host_random(na), *B = host_random(nb), *C = host_random(nc);
    if (beta == 0.0f)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                C[i + (size_t)j * ldc] = NAN;
    float *want = host_clone(C, nc), *got = host_random(nc);
    float *d_A = (float *)device_copy(A, na * sizeof(float)),
          *d_B = (float *)device_copy(B, nb * sizeof(float));
    float *d_C = (float *)device_copy(C, nc * sizeof(float));
    gemm_cpu(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, want, ldc);
    cublasStatus_t st =
        cublasSgemm(h, ta, tb, m, n, k, &alpha, d_A, lda, d_B, ldb, &beta, d_C, ldc);
    LAB_CHECK(cudaDeviceSynchronize());
    host_copy(got, d_C, nc * sizeof(float));
    int ok = st == CUBLAS_STATUS_SUCCESS;
    for (int j = 0; j < n && ok; j++)
        for (int i = 0; i < ldc && ok; i++) {
            size_t at = i + (size_t)j * ldc;
            if (i >= m) { // padding: untouched
                ok = memcmp(&got[at], &C[at], sizeof(float)) == 0;
                if (!ok)
                    printf("  C[%d, %d] (padding) changed\n", i, j);
                continue;
            }
            double scale = beta == 0.0f ? 0.0 : fabs((double)beta * C[at]);
            for (int p = 0; p < k; p++)
                scale += fabs(alpha * op_at(A, lda, ta, i, p) * op_at(B, ldb, tb, p, j));
            double tol = 1e-6 + 2.0 * (k + 2) * 6e-8 * scale;
            ok = fabs((double)got[at] - want[at]) <= tol;
            if (!ok)
                printf("  C[%d, %d]: got %.9g, want %.9g (tolerance %.3g)\n", i, j, got[at],
                       want[at], tol);
        }
    check(ok, "cublasSgemm %s,%s m=%d n=%d k=%d, beta %g%s", op_name(ta), op_name(tb), m, n, k,
          beta, beta == 0.0f ? " over a C of NaN" : "");
    free_gemm(d_A, d_B, d_C, A, B, C, want, got);
}

// beta = 0: C is output only, NaN in it must not come through; k = 0: C = beta C.
static void test_sgemm_edges(cublasHandle_t h)
{
    const int m = 3, n = 2, k = 4;
    float one = 1.0f, zero = 0.0f, two = 2.0f;
    float *A = host_random(m * k), *B = host_random(k * n), C[m * n], want[m * n], got[m * n];
    for (int i = 0; i < m * n; i++)
        C[i] = want[i] = nanf("");
    gemm_cpu(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, 1.0f, A, m, B, k, 0.0f, want, m);
    float *d_A = (float *)device_copy(A, sizeof(float) * m * k);
    float *d_B = (float *)device_copy(B, sizeof(float) * k * n);
    float *d_C = (float *)device_copy(C, sizeof(C));
    cublasStatus_t st =
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, d_A, m, d_B, k, &zero, d_C, m);
    host_copy(got, d_C, sizeof(got));
    check(st == CUBLAS_STATUS_SUCCESS && same(got, want, m * n),
          "cublasSgemm with beta = 0 ignores NaN in C");

    for (int i = 0; i < m * n; i++)
        want[i] = 2.0f * got[i];
    st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, 0, &one, d_A, m, d_B, 1, &two, d_C, m);
    host_copy(got, d_C, sizeof(got));
    check(st == CUBLAS_STATUS_SUCCESS && same(got, want, m * n), "cublasSgemm with k = 0 scales C");

    st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, n, k, &one, NULL, 1, NULL, k, &one, NULL, 1);
    check_status(st, CUBLAS_STATUS_SUCCESS, "cublasSgemm with m = 0 returns at once");
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(A);
    free(B);
}

static void test_dgemm(cublasHandle_t h)
{
    const int m = 4, n = 3, k = 5, lda = k + 1, ldb = k, ldc = m + 2;
    double alpha = 0.75, beta = 2.0, A[lda * m], B[ldb * n], C[ldc * n], want[ldc * n],
           got[ldc * n];
    for (int i = 0; i < lda * m; i++)
        A[i] = next_value();
    for (int i = 0; i < ldb * n; i++)
        B[i] = next_value();
    for (int i = 0; i < ldc * n; i++)
        C[i] = want[i] = next_value();
    for (int j = 0; j < n; j++) // op(A) = A^T
        for (int i = 0; i < m; i++) {
            double sum = 0.0;
            for (int p = 0; p < k; p++)
                sum += A[p + i * lda] * B[p + j * ldb];
            want[i + j * ldc] = alpha * sum + beta * C[i + j * ldc];
        }
    double *d_A = (double *)device_copy(A, sizeof(A)), *d_B = (double *)device_copy(B, sizeof(B));
    double *d_C = (double *)device_copy(C, sizeof(C));
    cublasStatus_t st = cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, d_A, lda, d_B,
                                    ldb, &beta, d_C, ldc);
    host_copy(got, d_C, sizeof(got));
    check(st == CUBLAS_STATUS_SUCCESS && same_d(got, want, ldc * n), "cublasDgemm T,N ldc=%d", ldc);
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
}

// Three products C_i = op(A_i) B_i - C_i, A transposed and padded between
// batches; then the same with strideA = 0 (one A for every batch).
static void test_strided_batched(cublasHandle_t h)
{
    const int m = 3, n = 2, k = 4, count = 3, lda = k + 1, ldb = k, ldc = m;
    for (int shared_a = 0; shared_a <= 1; shared_a++) {
        long long sa = shared_a ? 0 : (long long)lda * m + 5, sb = (long long)ldb * n + 2,
                  sc = (long long)ldc * n + 1;
        size_t na = (size_t)(shared_a ? lda * m : sa * count), nb = (size_t)(sb * count),
               nc = (size_t)(sc * count);
        float alpha = 1.0f, beta = -1.0f;
        float *A = host_random(na), *B = host_random(nb), *C = host_random(nc);
        float *want = host_clone(C, nc), *got = host_random(nc);
        for (int i = 0; i < count; i++)
            gemm_cpu(CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, alpha, A + i * sa, lda, B + i * sb, ldb,
                     beta, want + i * sc, ldc);
        float *d_A = (float *)device_copy(A, na * sizeof(float)),
              *d_B = (float *)device_copy(B, nb * sizeof(float));
        float *d_C = (float *)device_copy(C, nc * sizeof(float));
        cublasStatus_t st =
            cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, d_A, lda, sa,
                                      d_B, ldb, sb, &beta, d_C, ldc, sc, count);
        host_copy(got, d_C, nc * sizeof(float));
        check(st == CUBLAS_STATUS_SUCCESS && same(got, want, nc),
              "cublasSgemmStridedBatched T,N batch=%d strideA=%lld strideB=%lld strideC=%lld",
              count, sa, sb, sc);
        free_gemm(d_A, d_B, d_C, A, B, C, want, got);
    }
}

// ----------------------------------------------------------------------------
// Level 2

static void test_sgemv(cublasHandle_t h, cublasOperation_t t, int incx, int incy)
{
    const int m = 6, n = 4, lda = m + 3;
    int xlen = t == CUBLAS_OP_N ? n : m, ylen = t == CUBLAS_OP_N ? m : n;
    size_t nx = (size_t)(1 + (xlen - 1) * abs(incx)), ny = (size_t)(1 + (ylen - 1) * abs(incy));
    float alpha = -2.0f, beta = 0.25f;
    float *A = host_random((size_t)lda * n), *x = host_random(nx), *y = host_random(ny);
    float *want = host_clone(y, ny), *got = host_random(ny);
    gemv_cpu(t, m, n, alpha, A, lda, x, incx, beta, want, incy);
    float *d_A = (float *)device_copy(A, (size_t)lda * n * sizeof(float));
    float *d_x = (float *)device_copy(x, nx * sizeof(float)),
          *d_y = (float *)device_copy(y, ny * sizeof(float));
    cublasStatus_t st = cublasSgemv(h, t, m, n, &alpha, d_A, lda, d_x, incx, &beta, d_y, incy);
    host_copy(got, d_y, ny * sizeof(float));
    check(st == CUBLAS_STATUS_SUCCESS && same(got, want, ny),
          "cublasSgemv %s m=%d n=%d lda=%d incx=%d incy=%d", op_name(t), m, n, lda, incx, incy);
    cudaFree(d_A);
    cudaFree(d_x);
    cudaFree(d_y);
    free(A);
    free(x);
    free(y);
    free(want);
    free(got);
}

static void test_dgemv(cublasHandle_t h)
{
    const int m = 3, n = 5, lda = 4;
    double alpha = 1.25, beta = 0.0, A[lda * n], x[n], y[m], want[m], got[m];
    for (int i = 0; i < lda * n; i++)
        A[i] = next_value();
    for (int j = 0; j < n; j++)
        x[j] = next_value();
    for (int i = 0; i < m; i++) {
        double sum = 0.0;
        for (int j = 0; j < n; j++)
            sum += A[i + j * lda] * x[j];
        want[i] = alpha * sum;
        y[i] = nan("");
    }
    double *d_A = (double *)device_copy(A, sizeof(A)), *d_x = (double *)device_copy(x, sizeof(x));
    double *d_y = (double *)device_copy(y, sizeof(y));
    cublasStatus_t st = cublasDgemv(h, CUBLAS_OP_N, m, n, &alpha, d_A, lda, d_x, 1, &beta, d_y, 1);
    host_copy(got, d_y, sizeof(got));
    check(st == CUBLAS_STATUS_SUCCESS && same_d(got, want, m), "cublasDgemv N, beta = 0, NaN in y");
    cudaFree(d_A);
    cudaFree(d_x);
    cudaFree(d_y);
}

// ----------------------------------------------------------------------------
// Level 1

// y = alpha x + y, then r = x . y, with the given increments.
static void test_saxpy_sdot(cublasHandle_t h, int incx, int incy)
{
    const int n = 7;
    size_t nx = (size_t)(1 + (n - 1) * abs(incx)), ny = (size_t)(1 + (n - 1) * abs(incy));
    float alpha = 0.5f, result = 0.0f;
    float *x = host_random(nx), *y = host_random(ny), *want = host_clone(y, ny);
    float *got = host_random(ny);
    double dot = 0.0;
    for (int i = 0; i < n; i++) {
        want[vidx(i, n, incy)] += alpha * x[vidx(i, n, incx)];
        dot += (double)x[vidx(i, n, incx)] * want[vidx(i, n, incy)];
    }
    float *d_x = (float *)device_copy(x, nx * sizeof(float)),
          *d_y = (float *)device_copy(y, ny * sizeof(float));
    cublasStatus_t st = cublasSaxpy(h, n, &alpha, d_x, incx, d_y, incy);
    host_copy(got, d_y, ny * sizeof(float));
    check(st == CUBLAS_STATUS_SUCCESS && same(got, want, ny), "cublasSaxpy n=%d incx=%d incy=%d", n,
          incx, incy);
    st = cublasSdot(h, n, d_x, incx, d_y, incy, &result);
    check(st == CUBLAS_STATUS_SUCCESS && fabs(result - dot) <= 1e-5 * (1.0 + fabs(dot)),
          "cublasSdot n=%d incx=%d incy=%d: %.7g (want %.7g)", n, incx, incy, result, dot);
    cudaFree(d_x);
    cudaFree(d_y);
    free(x);
    free(y);
    free(want);
    free(got);
}

// Pointer mode device: alpha read from device memory, the dot product written there.
static void test_pointer_mode_device(cublasHandle_t h)
{
    const int n = 5;
    float x[n], y[n], alpha = 3.0f, result = 0.0f, want_y[n];
    double dot = 0.0;
    for (int i = 0; i < n; i++) {
        x[i] = next_value();
        y[i] = next_value();
        want_y[i] = y[i] + alpha * x[i];
        dot += (double)x[i] * want_y[i];
    }
    float *d_x = (float *)device_copy(x, sizeof(x)), *d_y = (float *)device_copy(y, sizeof(y));
    float *d_alpha = (float *)device_copy(&alpha, sizeof(alpha));
    float *d_result = NULL;
    LAB_CHECK(cudaMalloc(&d_result, sizeof(float)));
    LAB_CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    cublasStatus_t st1 = cublasSaxpy(h, n, d_alpha, d_x, 1, d_y, 1);
    cublasStatus_t st2 = cublasSdot(h, n, d_x, 1, d_y, 1, d_result);
    LAB_CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    LAB_CHECK(cudaDeviceSynchronize());
    host_copy(&result, d_result, sizeof(result));
    host_copy(y, d_y, sizeof(y));
    check(st1 == CUBLAS_STATUS_SUCCESS && same(y, want_y, n),
          "cublasSaxpy, pointer mode device (alpha in device memory)");
    check(st2 == CUBLAS_STATUS_SUCCESS && fabs(result - dot) <= 1e-5 * (1.0 + fabs(dot)),
          "cublasSdot, pointer mode device (result in device memory): %.7g (want %.7g)", result,
          dot);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_alpha);
    cudaFree(d_result);
}

// Snrm2, Sasum, Isamax with incx = 2; Sscal; Scopy with incx = -1; Sswap.
static void test_level1_misc(cublasHandle_t h)
{
    const int n = 6, inc = 2;
    float x[1 + (n - 1) * inc], y[n], want_x[1 + (n - 1) * inc], want_y[n],
        got_x[1 + (n - 1) * inc], got_y[n];
    size_t nx = sizeof(x) / sizeof(x[0]);
    double nrm = 0.0, asum = 0.0;
    int imax = 0;
    for (size_t i = 0; i < nx; i++)
        x[i] = next_value();
    x[3 * inc] = -4.0f; // the largest magnitude: Isamax gives 4 (1-based)
    for (int i = 0; i < n; i++) {
        float v = x[i * inc];
        nrm += (double)v * v;
        asum += fabs(v);
        if (fabsf(v) > fabsf(x[imax * inc]))
            imax = i;
        y[i] = next_value();
    }
    nrm = sqrt(nrm);
    float *d_x = (float *)device_copy(x, sizeof(x)), *d_y = (float *)device_copy(y, sizeof(y));
    float fr = 0.0f;
    int ir = 0;
    cublasStatus_t st = cublasSnrm2(h, n, d_x, inc, &fr);
    check(st == CUBLAS_STATUS_SUCCESS && fabs(fr - nrm) <= 1e-5 * nrm,
          "cublasSnrm2 incx=%d: %.7g (want %.7g)", inc, fr, nrm);
    st = cublasSasum(h, n, d_x, inc, &fr);
    check(st == CUBLAS_STATUS_SUCCESS && fabs(fr - asum) <= 1e-5 * asum,
          "cublasSasum incx=%d: %.7g (want %.7g)", inc, fr, asum);
    st = cublasIsamax(h, n, d_x, inc, &ir);
    check(st == CUBLAS_STATUS_SUCCESS && ir == imax + 1, "cublasIsamax incx=%d: %d (want %d)", inc,
          ir, imax + 1);

    float s = -1.5f;
    memcpy(want_x, x, sizeof(x));
    for (int i = 0; i < n; i++)
        want_x[i * inc] *= s;
    st = cublasSscal(h, n, &s, d_x, inc);
    host_copy(got_x, d_x, sizeof(got_x));
    check(st == CUBLAS_STATUS_SUCCESS && same(got_x, want_x, nx), "cublasSscal incx=%d", inc);

    for (int i = 0; i < n; i++) // y = x read backwards (incx = -2 on x)
        want_y[i] = want_x[vidx(i, n, -inc)];
    st = cublasScopy(h, n, d_x, -inc, d_y, 1);
    host_copy(got_y, d_y, sizeof(got_y));
    check(st == CUBLAS_STATUS_SUCCESS && same(got_y, want_y, n), "cublasScopy incx=%d incy=1",
          -inc);

    float *d_z = (float *)device_copy(y, sizeof(y));
    st = cublasSswap(h, n, d_y, 1, d_z, 1);
    host_copy(got_y, d_z, sizeof(got_y));
    int ok = same(got_y, want_y, n);
    host_copy(got_y, d_y, sizeof(got_y));
    check(st == CUBLAS_STATUS_SUCCESS && ok && same(got_y, y, n), "cublasSswap");
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_z);
}

// ----------------------------------------------------------------------------
// Copies with leading dimensions and increments

static void test_set_get(void)
{
    const int rows = 3, cols = 4, lda = 5, ldb = 4, ldc = 6;
    float A[lda * cols], C[ldc * cols], want[ldc * cols];
    for (int i = 0; i < lda * cols; i++)
        A[i] = next_value();
    for (int i = 0; i < ldc * cols; i++)
        C[i] = want[i] = -7.0f;
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            want[i + j * ldc] = A[i + j * lda];
    float *d_B = NULL;
    LAB_CHECK(cudaMalloc(&d_B, sizeof(float) * ldb * cols));
    cublasStatus_t st1 = cublasSetMatrix(rows, cols, sizeof(float), A, lda, d_B, ldb);
    cublasStatus_t st2 = cublasGetMatrix(rows, cols, sizeof(float), d_B, ldb, C, ldc);
    check(st1 == CUBLAS_STATUS_SUCCESS && st2 == CUBLAS_STATUS_SUCCESS && same(C, want, ldc * cols),
          "cublasSetMatrix lda=%d ldb=%d, cublasGetMatrix ldb=%d ldc=%d", lda, ldb, ldb, ldc);

    float x[9], y[7], want_y[7];
    for (int i = 0; i < 9; i++)
        x[i] = next_value();
    for (int i = 0; i < 7; i++)
        y[i] = want_y[i] = -7.0f;
    for (int i = 0; i < 4; i++) // x with incx = 2 -> device with incy = 3 -> y with incy = 2
        want_y[2 * i] = x[2 * i];
    LAB_CHECK(cudaMemset(d_B, 0, sizeof(float) * ldb * cols));
    st1 = cublasSetVector(4, sizeof(float), x, 2, d_B, 3);
    st2 = cublasGetVector(4, sizeof(float), d_B, 3, y, 2);
    check(st1 == CUBLAS_STATUS_SUCCESS && st2 == CUBLAS_STATUS_SUCCESS && same(y, want_y, 7),
          "cublasSetVector incx=2 incy=3, cublasGetVector incx=3 incy=2");
    cudaFree(d_B);
}

// ----------------------------------------------------------------------------
// Status codes

static void test_bad_arguments(cublasHandle_t h)
{
    const cublasStatus_t bad = CUBLAS_STATUS_INVALID_VALUE;
    float one = 1.0f, r = 0.0f, *d = NULL;
    LAB_CHECK(cudaMalloc(&d, 64 * sizeof(float)));
    check_status(cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2),
                 CUBLAS_STATUS_NOT_INITIALIZED, "cublasSgemm(NULL handle)");
    check_status(cublasSdot(NULL, 2, d, 1, d, 1, &r), CUBLAS_STATUS_NOT_INITIALIZED,
                 "cublasSdot(NULL handle)");
    check_status(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, d, 2, d, 2, &one, d, 2),
                 bad, "cublasSgemm m = -1");
    check_status(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, -3, &one, d, 2, d, 2, &one, d, 2),
                 bad, "cublasSgemm k = -3");
    check_status(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d, 3, d, 2, &one, d, 4),
                 bad, "cublasSgemm N,N lda = 3 < m = 4");
    check_status(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 4, 2, 3, &one, d, 2, d, 3, &one, d, 4),
                 bad, "cublasSgemm T,N lda = 2 < k = 3");
    check_status(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 2, 5, 3, &one, d, 2, d, 3, &one, d, 2),
                 bad, "cublasSgemm N,T ldb = 3 < n = 5");
    check_status(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d, 4, d, 2, &one, d, 3),
                 bad, "cublasSgemm ldc = 3 < m = 4");
    check_status(
        cublasSgemm(h, CUBLAS_OP_CONJG, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2), bad,
        "cublasSgemm transa = CUBLAS_OP_CONJG");
    check_status(cublasSgemv(h, CUBLAS_OP_N, 2, 2, &one, d, 2, d, 0, &one, d, 1), bad,
                 "cublasSgemv incx = 0");
    check_status(cublasSgemv(h, CUBLAS_OP_T, 3, 2, &one, d, 2, d, 1, &one, d, 1), bad,
                 "cublasSgemv lda = 2 < m = 3");
    check_status(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, 4, d,
                                           2, 4, &one, d, 2, 4, -1),
                 bad, "cublasSgemmStridedBatched batchCount = -1");
    check_status(cublasSetMatrix(2, 2, sizeof(float), &one, 0, d, 2), bad,
                 "cublasSetMatrix lda = 0");
    check_status(cublasSetVector(2, sizeof(float), &one, 0, d, 1), bad, "cublasSetVector incx = 0");
    LAB_CHECK(cudaDeviceSynchronize());
    cudaFree(d);
}

#ifdef GPULAB_SIM
// Simulator only. An operand outside device memory is a fault on a GPU (the
// sticky cudaErrorIllegalAddress): the simulator fails the cuBLAS call with
// CUBLAS_STATUS_EXECUTION_FAILED at once, and the next synchronizing CUDA
// call reports the fault, as every call does until cudaDeviceReset.
static void test_faults(void)
{
    const int m = 4, n = 3, k = 2;
    float one = 1.0f, h_A[m * k];
    float *d_A = NULL, *d_B = NULL, *d_C = NULL;
    cublasHandle_t h = NULL;
    for (int i = 0; i < m * k; i++)
        h_A[i] = 1.0f;
    for (int round = 0; round < 2; round++) {
        LAB_CHECK_CUBLAS(cublasCreate(&h));
        LAB_CHECK(cudaMalloc(&d_A, sizeof(float) * m * k));
        LAB_CHECK(cudaMalloc(&d_B, sizeof(float) * k * n));
        LAB_CHECK(cudaMalloc(&d_C, sizeof(float) * m * n));
        cublasStatus_t st;
        if (round == 0) // A: lda = 5 needs (k-1)*5 + m = 9 floats; the allocation has 8
            st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, d_A, 5, d_B, k, &one, d_C,
                             m);
        else
            st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, h_A, m, d_B, k, &one, d_C,
                             m);
        const char *what = round == 0 ? "an A too small for lda" : "a host pointer as A";
        char name[80];
        snprintf(name, sizeof(name), "sim: cublasSgemm with %s", what);
        check_status(st, CUBLAS_STATUS_EXECUTION_FAILED, name);
        cudaError_t e = cudaDeviceSynchronize();
        check(e == cudaErrorIllegalAddress,
              "sim: cudaDeviceSynchronize after %s -> %s (want cudaErrorIllegalAddress)", what,
              cudaGetErrorName(e));
        cublasDestroy(h);
        LAB_CHECK(cudaDeviceReset());
    }
    // Pointer mode host with a device pointer as alpha: a real program
    // crashes reading it on the host; the simulator says so and refuses.
    LAB_CHECK_CUBLAS(cublasCreate(&h));
    LAB_CHECK(cudaMalloc(&d_A, sizeof(float) * 8));
    check_status(cublasSscal(h, 4, d_A, d_A, 1), CUBLAS_STATUS_INVALID_VALUE,
                 "sim: cublasSscal, pointer mode host, alpha in device memory");
    cudaFree(d_A);
    LAB_CHECK_CUBLAS(cublasDestroy(h));
}
#endif

int main(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        printf("SKIP: no CUDA device (%s)\n",
               e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found 0");
        return 77;
    }
    cublasHandle_t h = NULL;
    LAB_CHECK_CUBLAS(cublasCreate(&h));
    cudaStream_t stream = NULL;
    LAB_CHECK(cudaStreamCreate(&stream));

    test_handle(h);
    const cublasOperation_t ops[2] = { CUBLAS_OP_N, CUBLAS_OP_T };
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            test_sgemm(h, ops[a], ops[b], NULL);
    test_sgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, stream);
    test_sgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, NULL); // OP_C is OP_T for real types
    test_sgemm_edges(h);
    {
        // conv forward (P x OC, k = C k k), its input gradient (k = OC) and
        // weight gradient (A^T B over the pixels), and tails of each
        const struct {
            cublasOperation_t ta, tb;
            int m, n, k;
            float beta;
        } thin[] = {
            { CUBLAS_OP_N, CUBLAS_OP_N, 784, 6, 75, 0.0f },
            { CUBLAS_OP_N, CUBLAS_OP_N, 50, 16, 400, 1.0f },
            { CUBLAS_OP_N, CUBLAS_OP_N, 33, 13, 7, -0.5f },
            { CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, 0.0f },
            { CUBLAS_OP_N, CUBLAS_OP_T, 100, 150, 16, 0.0f },
            { CUBLAS_OP_N, CUBLAS_OP_T, 47, 9, 3, 2.0f },
            { CUBLAS_OP_T, CUBLAS_OP_N, 75, 6, 1000, 0.0f },
            { CUBLAS_OP_T, CUBLAS_OP_N, 5, 16, 64, 1.0f },
            { CUBLAS_OP_T, CUBLAS_OP_N, 7, 11, 100, -1.0f },
            { CUBLAS_OP_T, CUBLAS_OP_N, 150, 3, 4099, 0.0f },
        };
        for (size_t i = 0; i < sizeof(thin) / sizeof(thin[0]); i++)
            test_sgemm_thin(h, thin[i].ta, thin[i].tb, thin[i].m, thin[i].n, thin[i].k,
                            thin[i].beta);
    }
    test_dgemm(h);
    test_strided_batched(h);
    test_sgemv(h, CUBLAS_OP_N, 1, 1);
    test_sgemv(h, CUBLAS_OP_T, 1, 1);
    test_sgemv(h, CUBLAS_OP_N, 2, 3);
    test_sgemv(h, CUBLAS_OP_T, 3, 2);
    test_dgemv(h);
    test_saxpy_sdot(h, 1, 1);
    test_saxpy_sdot(h, 2, 3);
    test_saxpy_sdot(h, -1, 1);
    test_saxpy_sdot(h, 2, -3);
    test_pointer_mode_device(h);
    test_level1_misc(h);
    test_set_get();
    test_bad_arguments(h);

    LAB_CHECK(cudaStreamDestroy(stream));
    LAB_CHECK_CUBLAS(cublasDestroy(h));
#ifdef GPULAB_SIM
    test_faults();
#endif
    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
