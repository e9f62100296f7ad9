// 54_cublas_xt — cuBLASXt on host matrices: cublasXtSgemm and cublasXtDgemm
// (with transposes and leading dimensions larger than the rows) return with
// the result in place, against CPU loops; device selection, block size, and
// the status codes of bad arguments.
#include <cublasXt.h>
#include <math.h>

#include "conformance.h"

#define M 37
#define N 29
#define K 41
#define LD 45

int main(void)
{
    conf_require_device();
    static float a[LD * K], b[LD * N], c[LD * N], want[LD * N];
    static double ad[LD * M], bd[LD * K], cd[LD * N], wantd[LD * N];
    unsigned seed = 54;
    for (int i = 0; i < LD * K; i++)
        a[i] = conf_lcg_float(&seed, -1, 1);
    for (int i = 0; i < LD * N; i++) {
        b[i] = conf_lcg_float(&seed, -1, 1);
        c[i] = conf_lcg_float(&seed, -1, 1);
        cd[i] = c[i];
    }
    for (int i = 0; i < LD * M; i++)
        ad[i] = conf_lcg_float(&seed, -1, 1);
    for (int i = 0; i < LD * K; i++)
        bd[i] = conf_lcg_float(&seed, -1, 1);

    // C = 1.5 A B - 0.5 C: A is M x K, B is K x N.
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)a[i + k * LD] * b[k + j * LD];
            want[i + j * LD] = (float)(1.5 * s - 0.5 * c[i + j * LD]);
        }
    // Cd = A^T B^T with A stored K x M and B stored N x K, beta 0.
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += ad[k + i * LD] * bd[j + k * LD];
            wantd[i + j * LD] = s;
        }

    cublasXtHandle_t h;
    int devices[1] = { 0 }, block = 0;
    conf_check(cublasXtCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasXtCreate failed");
    conf_check(cublasXtDeviceSelect(h, 1, devices) == CUBLAS_STATUS_SUCCESS,
               "cublasXtDeviceSelect failed");
    conf_check(cublasXtSetBlockDim(h, 64) == CUBLAS_STATUS_SUCCESS, "cublasXtSetBlockDim failed");
    conf_check(cublasXtGetBlockDim(h, &block) == CUBLAS_STATUS_SUCCESS && block == 64,
               "cublasXtGetBlockDim: %d, want 64", block);

    float alpha = 1.5f, beta = -0.5f;
    conf_check(cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, a, LD, b, LD, &beta, c,
                             LD) == CUBLAS_STATUS_SUCCESS,
               "cublasXtSgemm failed");
    int bad = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++)
            bad += !conf_near(c[i + j * LD], want[i + j * LD], 1e-5, 1e-5);
    conf_check(bad == 0, "cublasXtSgemm: %d elements off", bad);

    double one = 1, zero = 0;
    for (int i = 0; i < LD * N; i++)
        cd[i] = NAN; // beta 0: C is not read
    conf_check(cublasXtDgemm(h, CUBLAS_OP_T, CUBLAS_OP_T, M, N, K, &one, ad, LD, bd, LD, &zero, cd,
                             LD) == CUBLAS_STATUS_SUCCESS,
               "cublasXtDgemm failed");
    bad = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++)
            bad += !conf_near(cd[i + j * LD], wantd[i + j * LD], 1e-12, 1e-12);
    conf_check(bad == 0, "cublasXtDgemm (transposed): %d elements off", bad);

    conf_check(cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, a, M - 1, b, LD, &beta,
                             c, LD) == CUBLAS_STATUS_INVALID_VALUE,
               "lda < m not refused");
    conf_check(cublasXtSetBlockDim(h, 0) == CUBLAS_STATUS_INVALID_VALUE, "block 0 not refused");
    conf_check(cublasXtDestroy(h) == CUBLAS_STATUS_SUCCESS, "cublasXtDestroy failed");
    return conf_finish();
}
