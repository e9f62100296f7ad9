/* Unit tests of labs/04_matvec/diagnose.h: results made by hand the way each
 * slip leaves them, and the cause the hint must (and must not) name. */
#include "diagnose.h"
#include "lab_test.h"

#include <math.h>
#include <string.h>

enum { N = 6, K = 4, M = 3 };

static float A[N * K], B[K * M], sq[K * K];
static char cause[600];

static void make_inputs(void)
{
    for (int i = 0; i < N * K; i++)
        A[i] = (float)((i * 7) % 11) / 8.0f;
    for (int i = 0; i < K * M; i++)
        B[i] = (float)((i * 5) % 9) / 4.0f;
    for (int i = 0; i < K * K; i++)
        sq[i] = (float)((i * 3) % 7) / 2.0f;
}

/* C (n, m) = X (n, k) Y (k, m), row-major. */
static void product(float *C, const float *X, const float *Y, int n, int k, int m)
{
    for (int i = 0; i < n; i++)
        for (int l = 0; l < m; l++) {
            double s = 0.0;
            for (int j = 0; j < k; j++)
                s += (double)X[i * k + j] * Y[j * m + l];
            C[i * m + l] = (float)s;
        }
}

static void test_transposed(void)
{
    float C[N * M], T[N * M];
    make_inputs();
    product(C, A, B, N, K, M);
    for (int i = 0; i < N; i++)
        for (int l = 0; l < M; l++)
            T[l * N + i] = C[i * M + l];
    CHECK_EQ_INT(lab04_matmul_cause(cause, sizeof(cause), T, A, B, N, K, M, 1e-6), 1);
    CHECK_CONTAINS(cause, "C holds the right numbers transposed");
}

/* cublasSgemm(N, N, n, m, k, A, n, B, k, C, n) on row-major bytes. */
static void textbook_call(float *C, const float *X, const float *Y, int n, int k, int m)
{
    for (int i = 0; i < n; i++)
        for (int l = 0; l < m; l++) {
            double s = 0.0;
            for (int j = 0; j < k; j++)
                s += (double)X[j * n + i] * Y[l * k + j];
            C[l * n + i] = (float)s;
        }
}

static void test_column_major_call(void)
{
    float C[N * M], S[K * K], want[K * K];
    make_inputs();
    textbook_call(C, A, B, N, K, M);
    CHECK_EQ_INT(lab04_matmul_cause(cause, sizeof(cause), C, A, B, N, K, M, 1e-6), 1);
    CHECK_CONTAINS(cause, "C is what cublasSgemm(N, N, n, m, k, A, n, B, k, C, n) gives");
    CHECK_CONTAINS(cause, "row-major vs column-major");
    /* The same call is right for the square C = A A: nothing to diagnose there. */
    textbook_call(S, sq, sq, K, K, K);
    product(want, sq, sq, K, K, K);
    for (int i = 0; i < K * K; i++)
        CHECK_NEAR(S[i], want[i], 1e-5 * fabs(want[i]));
}

static void test_unknown_and_unwritten(void)
{
    float C[N * M];
    make_inputs();
    product(C, A, B, N, K, M);
    C[4] += 1.0f; /* one wrong element: no known slip */
    CHECK_EQ_INT(lab04_matmul_cause(cause, sizeof(cause), C, A, B, N, K, M, 1e-6), 0);
    CHECK_CONTAINS(cause, "check each size and leading dimension");
    CHECK(strstr(cause, "transposed") == NULL && strstr(cause, "gives") == NULL);
    C[5] = NAN;
    lab04_matmul_cause(cause, sizeof(cause), C, A, B, N, K, M, 1e-6);
    CHECK_CONTAINS(cause, "1 of the 18 elements of C were never written");
    for (int i = 0; i < N * M; i++)
        C[i] = NAN;
    CHECK_EQ_INT(lab04_matmul_cause(cause, sizeof(cause), C, A, B, N, K, M, 1e-6), 1);
    CHECK_CONTAINS(cause, "is matmul_cublas in matmul.c still the TODO?");
}

static void test_matvec_hints(void)
{
    char hint[400];
    lab04_matvec_hint(hint, sizeof(hint), 2, 10, 10, 0, "p");
    CHECK_CONTAINS(hint, "is matvec_kernel2 in matvec.cu still the TODO?");
    lab04_matvec_hint(hint, sizeof(hint), 1, 3, 10, 7, "p");
    CHECK_CONTAINS(hint, "3 elements of u were never written (NaN), the first u[7]");
    lab04_matvec_hint(hint, sizeof(hint), 2, 0, 10, 10, "p");
    CHECK_CONTAINS(hint, "does warp_sum in matvec.cu add them all");
    lab04_matvec_hint(hint, sizeof(hint), 3, 0, 10, 10, "build/bin/lab04-sim-student");
    CHECK_CONTAINS(hint, "GPULAB_SIM_CHECK=all build/bin/lab04-sim-student --validate");
}

int main(void)
{
    LAB_TEST_RUN(test_transposed);
    LAB_TEST_RUN(test_column_major_call);
    LAB_TEST_RUN(test_unknown_and_unwritten);
    LAB_TEST_RUN(test_matvec_hints);
    LAB_TEST_MAIN_END();
}
