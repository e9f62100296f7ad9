/*
 * Lab 04's harness (students do not edit it): every version, and
 * cublasSgemv, checked against cblas_sgemv before anything is timed, at the
 * demo's shape and at awkward ones, with the first mismatches and a hint.
 */
#include "diagnose.h"
#include "harness.h"
#include "matvec.h"
#include "reference.h"

#include "lab/alloc.h"
#include "lab/check.h"
#include "lab/compare.h"
#include "lab/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Awkward shapes every version is also validated on: N and M not multiples
 * of a block, a warp or a tile of v, a single row, a single column,
 * M > 1024 (the grader's shapes too). */
static const int odd_shapes[][2] = { { 1, 1 },    { 1, 1500 }, { 1000, 1 },
                                     { 777, 33 }, { 3, 1025 }, { 2049, 257 } };
#define N_ODD ((int)(sizeof(odd_shapes) / sizeof(odd_shapes[0])))

void lab04_problem_make(lab04_problem *p, int N, int M, uint64_t stream)
{
    lab_rng rng;
    p->N = N;
    p->M = M;
    p->A = lab_xmalloc(sizeof(float) * (size_t)N * M);
    p->v = lab_xmalloc(sizeof(float) * M);
    p->want = lab_xmalloc(sizeof(float) * N);
    lab_rng_seed(&rng, LAB04_DEMO_SEED, stream);
    lab_rng_fill_normal(&rng, p->A, (size_t)N * M, 0.0f, 1.0f); /* standard normal entries */
    lab_rng_fill_normal(&rng, p->v, (size_t)M, 0.0f, 1.0f);
    lab04_matvec_cpu(p->want, p->A, p->v, N, M);
    /* Both results are float32 dot products, each within the bound of the
     * exact one, so they are within twice the bound of each other. */
    p->atol = 2.0 * lab04_matvec_error_bound(p->A, p->v, N, M);
    LAB_CHECK(cudaMalloc((void **)&p->d_A, sizeof(float) * (size_t)N * M));
    LAB_CHECK(cudaMalloc((void **)&p->d_v, sizeof(float) * M));
    LAB_CHECK(cudaMalloc((void **)&p->d_u, sizeof(float) * N));
    LAB_CHECK(cudaMemcpy(p->d_A, p->A, sizeof(float) * (size_t)N * M, cudaMemcpyHostToDevice));
    LAB_CHECK(cudaMemcpy(p->d_v, p->v, sizeof(float) * M, cudaMemcpyHostToDevice));
}

void lab04_problem_free(lab04_problem *p)
{
    free(p->A);
    free(p->v);
    free(p->want);
    LAB_CHECK(cudaFree(p->d_A));
    LAB_CHECK(cudaFree(p->d_v));
    LAB_CHECK(cudaFree(p->d_u));
}

/* Runs version (0: cublasSgemv) on p and compares u with the CPU's. Every
 * byte of u is first set to 0xff, a NaN: an element never written shows.
 * On a mismatch prints the first ones (at most ten) and a hint. */
static int problem_check(const lab04_problem *p, int version, cublasHandle_t h)
{
    float *got = lab_xmalloc(sizeof(float) * p->N);
    lab_compare_report rep;
    char what[96];
    LAB_CHECK(cudaMemset(p->d_u, 0xff, sizeof(float) * p->N));
    if (version == 0)
        lab04_matvec_cublas(h, p->d_u, p->d_A, p->d_v, p->N, p->M);
    else
        matvec(version, p->d_u, p->d_A, p->d_v, p->N, p->M);
    LAB_CHECK(cudaMemcpy(got, p->d_u, sizeof(float) * p->N, cudaMemcpyDeviceToHost));
    int ok = lab_allclose_f32(&rep, got, p->want, (size_t)p->N, p->atol, 0.0, 0);
    if (!ok) {
        snprintf(what, sizeof(what), "  v%d at N = %d, M = %d: u", version, p->N, p->M);
        if (!version)
            snprintf(what, sizeof(what), "  cublasSgemv at N = %d, M = %d: u", p->N, p->M);
        lab_compare_print(stdout, &rep, what);
        if (version) {
            char hint[400];
            size_t first = 0;
            while (first < (size_t)p->N && !isnan(got[first]))
                first++;
            lab04_matvec_hint(hint, sizeof(hint), version, rep.nan_count, rep.count, first,
                              GPULAB_LAB_NAME "-sim-" GPULAB_VARIANT);
            printf("  hint: %s\n", hint);
        }
    }
    free(got);
    return ok;
}

int lab04_validate_all(const lab04_problem *demo, cublasHandle_t h, int ok_version[])
{
    int all = 1;
    printf("\nValidation against cblas_sgemv (NumPy allclose: |got - want| <= atol, rtol = 0;\n"
           "atol = 2 gamma_M max_i sum_j |A_ij v_j|, gamma_M = M 2^-24 / (1 - M 2^-24): "
           "%.3g here)\n",
           demo->atol);
    for (int version = 0; version <= LAB04_VERSIONS; version++) {
        /* The demo's shape, then the awkward ones; stop at the first failure. */
        int ok = problem_check(demo, version, h);
        for (int s = 0; ok && s < N_ODD; s++) {
            lab04_problem p;
            lab04_problem_make(&p, odd_shapes[s][0], odd_shapes[s][1], 100 + (uint64_t)s);
            ok = problem_check(&p, version, h);
            lab04_problem_free(&p);
        }
        ok_version[version] = ok;
        all &= ok;
        printf("  %-58s %s\n", version ? matvec_describe(version) : "cublasSgemv (cuBLAS)",
               ok ? "ok at every shape" : "FAILED (shapes after this one not tried)");
    }
    printf("  (shapes: N = %d, M = %d and", demo->N, demo->M);
    for (int s = 0; s < N_ODD; s++)
        printf(" %dx%d", odd_shapes[s][0], odd_shapes[s][1]);
    printf(")\n");
    return all;
}
