// 53_cublas_batched_lu — cublasDgemmBatched against a CPU loop; batched LU
// (cublasDgetrfBatched, cublasSgetrfBatched) with pivots: 1-based, in range,
// and P A = L U within rounding, info 0, or 1 for a matrix whose first
// column is zero; without pivots on diagonally dominant
// matrices; cublasDgetriBatched's inverses (A A^-1 = I); bad arguments.
#include <cublas_v2.h>
#include <math.h>
#include <string.h>

#include "conformance.h"

#define NB 4 /* matrices in a batch */
#define N 6  /* their order */
#define LDA 7

#define CHECK_BLAS(call)                                                                           \
    do {                                                                                           \
        cublasStatus_t st_ = (call);                                                               \
        conf_check(st_ == CUBLAS_STATUS_SUCCESS, "%s -> %d", #call, (int)st_);                     \
    } while (0)

/* Device copies of NB host matrices of ld * N doubles and a device array of
 * pointers to them. */
static double **dev_batch(const double *h, double *dev[NB], int ld)
{
    double **d_array;
    for (int b = 0; b < NB; b++) {
        CHECK_CUDA(cudaMalloc(&dev[b], ld * N * sizeof(double)));
        CHECK_CUDA(
            cudaMemcpy(dev[b], h + b * ld * N, ld * N * sizeof(double), cudaMemcpyHostToDevice));
    }
    CHECK_CUDA(cudaMalloc(&d_array, NB * sizeof(double *)));
    CHECK_CUDA(cudaMemcpy(d_array, dev, NB * sizeof(double *), cudaMemcpyHostToDevice));
    return d_array;
}

/* max |P A - L U| for the factors lu (ld LDA) of a (ld LDA), pivots piv or none. */
static double lu_residual(const double *a, const double *lu, const int *piv)
{
    double pa[N * N], worst = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            pa[i + j * N] = a[i + j * LDA];
    for (int k = 0; piv && k < N; k++)
        for (int j = 0; j < N; j++) {
            double t = pa[k + j * N];
            pa[k + j * N] = pa[piv[k] - 1 + j * N];
            pa[piv[k] - 1 + j * N] = t;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k <= (i < j ? i : j); k++)
                s += (k == i ? 1.0 : lu[i + k * LDA]) * lu[k + j * LDA];
            double d = fabs(s - pa[i + j * N]);
            worst = d > worst ? d : worst;
        }
    return worst;
}

int main(void)
{
    conf_require_device();
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    unsigned seed = 53;

    /* DgemmBatched: C_b = 2 A_b^T B_b - C_b, A: N x N (ld LDA), B, C: N x N. */
    static double ha[NB * LDA * N], hb[NB * LDA * N], hc[NB * LDA * N], want[NB * LDA * N];
    for (int i = 0; i < NB * LDA * N; i++) {
        ha[i] = conf_lcg_float(&seed, -1, 1);
        hb[i] = conf_lcg_float(&seed, -1, 1);
        hc[i] = conf_lcg_float(&seed, -1, 1);
    }
    for (int b = 0; b < NB; b++)
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                double s = 0;
                for (int k = 0; k < N; k++)
                    s += ha[b * LDA * N + k + i * LDA] * hb[b * LDA * N + k + j * LDA];
                want[b * LDA * N + i + j * LDA] = 2 * s - hc[b * LDA * N + i + j * LDA];
            }
    double *da[NB], *db[NB], *dc[NB];
    double **a_arr = dev_batch(ha, da, LDA), **b_arr = dev_batch(hb, db, LDA),
           **c_arr = dev_batch(hc, dc, LDA);
    double two = 2, minus_one = -1;
    CHECK_BLAS(cublasDgemmBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, N, N, N, &two,
                                  (const double *const *)a_arr, LDA, (const double *const *)b_arr,
                                  LDA, &minus_one, c_arr, LDA, NB));
    int bad = 0;
    for (int b = 0; b < NB; b++) {
        double got[LDA * N];
        CHECK_CUDA(cudaMemcpy(got, dc[b], sizeof(got), cudaMemcpyDeviceToHost));
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++)
                bad += !conf_near(got[i + j * LDA], want[b * LDA * N + i + j * LDA], 1e-12, 1e-12);
    }
    conf_check(bad == 0, "cublasDgemmBatched: %d elements off", bad);

    /* DgetrfBatched with pivots; matrix 3 is singular: its column 0 is zero,
     * so U(1, 1) = 0 (1-based) exactly, whatever the order of operations
     * (only its info is checked: what a GPU leaves in its factors is not). */
    static double hl[NB * LDA * N];
    memcpy(hl, ha, sizeof(hl));
    for (int i = 0; i < N; i++)
        hl[3 * LDA * N + i] = 0;
    double *dl[NB];
    double **l_arr = dev_batch(hl, dl, LDA);
    int *d_piv, *d_info, piv[NB * N], info[NB];
    CHECK_CUDA(cudaMalloc(&d_piv, sizeof(piv)));
    CHECK_CUDA(cudaMalloc(&d_info, sizeof(info)));
    CHECK_BLAS(cublasDgetrfBatched(h, N, l_arr, LDA, d_piv, d_info, NB));
    CHECK_CUDA(cudaMemcpy(piv, d_piv, sizeof(piv), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(info, d_info, sizeof(info), cudaMemcpyDeviceToHost));
    double lu_all[NB][LDA * N];
    for (int b = 0; b < NB; b++) {
        CHECK_CUDA(cudaMemcpy(lu_all[b], dl[b], sizeof(lu_all[b]), cudaMemcpyDeviceToHost));
        int range = 0;
        for (int k = 0; k < N; k++)
            range += piv[b * N + k] < k + 1 || piv[b * N + k] > N;
        conf_check(range == 0, "getrf matrix %d: %d pivots out of [k+1, N]", b, range);
        if (b == 3)
            continue;
        double r = lu_residual(hl + b * LDA * N, lu_all[b], piv + b * N);
        conf_check(r < 1e-12, "getrf matrix %d: |PA - LU| = %g", b, r);
        /* Partial pivoting: no multiplier larger than 1 in magnitude. */
        int big = 0;
        for (int j = 0; j < N; j++)
            for (int i = j + 1; i < N; i++)
                big += fabs(lu_all[b][i + j * LDA]) > 1.0;
        conf_check(big == 0, "getrf matrix %d: %d multipliers over 1", b, big);
        conf_check(info[b] == 0, "getrf matrix %d: info %d, want 0", b, info[b]);
    }
    conf_check(info[3] == 1, "getrf singular matrix: info %d, want 1", info[3]);

    /* DgetriBatched on the factors of matrices 0..2: A A^-1 = I. */
    double *dv[NB];
    static double zeros[NB * LDA * N];
    double **v_arr = dev_batch(zeros, dv, LDA);
    int info3[NB];
    CHECK_BLAS(cublasDgetriBatched(h, N, (const double *const *)l_arr, LDA, d_piv, v_arr, LDA,
                                   d_info, NB - 1));
    CHECK_CUDA(cudaMemcpy(info3, d_info, sizeof(info3), cudaMemcpyDeviceToHost));
    for (int b = 0; b < NB - 1; b++) {
        double inv[LDA * N], worst = 0;
        CHECK_CUDA(cudaMemcpy(inv, dv[b], sizeof(inv), cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < N; k++)
                    s += hl[b * LDA * N + i + k * LDA] * inv[k + j * LDA];
                double d = fabs(s - (i == j));
                worst = d > worst ? d : worst;
            }
        conf_check(info3[b] == 0 && worst < 1e-9, "getri matrix %d: info %d, |A A^-1 - I| = %g", b,
                   info3[b], worst);
    }

    /* SgetrfBatched without pivots on diagonally dominant matrices: L U = A. */
    float hs[NB * N * N];
    for (int b = 0; b < NB; b++)
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++)
                hs[b * N * N + i + j * N] = i == j ? 10.0f + b : conf_lcg_float(&seed, -1, 1);
    float *ds[NB], **s_arr;
    for (int b = 0; b < NB; b++) {
        CHECK_CUDA(cudaMalloc(&ds[b], N * N * sizeof(float)));
        CHECK_CUDA(
            cudaMemcpy(ds[b], hs + b * N * N, N * N * sizeof(float), cudaMemcpyHostToDevice));
    }
    CHECK_CUDA(cudaMalloc(&s_arr, NB * sizeof(float *)));
    CHECK_CUDA(cudaMemcpy(s_arr, ds, sizeof(ds), cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasSgetrfBatched(h, N, s_arr, N, NULL, d_info, NB));
    CHECK_CUDA(cudaMemcpy(info, d_info, sizeof(info), cudaMemcpyDeviceToHost));
    for (int b = 0; b < NB; b++) {
        float lu[N * N];
        double worst = 0;
        CHECK_CUDA(cudaMemcpy(lu, ds[b], sizeof(lu), cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k <= (i < j ? i : j); k++)
                    s += (k == i ? 1.0 : lu[i + k * N]) * lu[k + j * N];
                double d = fabs(s - hs[b * N * N + i + j * N]);
                worst = d > worst ? d : worst;
            }
        conf_check(info[b] == 0 && worst < 1e-4,
                   "getrf without pivots, matrix %d: info %d, |A - LU| = %g", b, info[b], worst);
    }

    /* Bad arguments. */
    conf_check(cublasDgetrfBatched(h, -1, l_arr, LDA, d_piv, d_info, NB) ==
                   CUBLAS_STATUS_INVALID_VALUE,
               "getrf n = -1 not refused");
    conf_check(cublasDgetrfBatched(h, N, l_arr, N - 1, d_piv, d_info, NB) ==
                   CUBLAS_STATUS_INVALID_VALUE,
               "getrf lda < n not refused");
    conf_check(cublasDgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &two,
                                  (const double *const *)a_arr, N - 1, (const double *const *)b_arr,
                                  LDA, &two, c_arr, LDA, NB) == CUBLAS_STATUS_INVALID_VALUE,
               "gemmBatched lda < m not refused");

    for (int b = 0; b < NB; b++) {
        CHECK_CUDA(cudaFree(da[b]));
        CHECK_CUDA(cudaFree(db[b]));
        CHECK_CUDA(cudaFree(dc[b]));
        CHECK_CUDA(cudaFree(dl[b]));
        CHECK_CUDA(cudaFree(dv[b]));
        CHECK_CUDA(cudaFree(ds[b]));
    }
    CHECK_CUDA(cudaFree(a_arr));
    CHECK_CUDA(cudaFree(b_arr));
    CHECK_CUDA(cudaFree(c_arr));
    CHECK_CUDA(cudaFree(l_arr));
    CHECK_CUDA(cudaFree(v_arr));
    CHECK_CUDA(cudaFree(s_arr));
    CHECK_CUDA(cudaFree(d_piv));
    CHECK_CUDA(cudaFree(d_info));
    CHECK_BLAS(cublasDestroy(h));
    return conf_finish();
}
