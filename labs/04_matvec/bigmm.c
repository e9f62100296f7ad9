/*
 * Lab 04's big matmul (harness; students do not edit it): C = A A on the CPU
 * with cblas_sgemm and on the GPU with your matmul_cublas, GFLOP/s for each,
 * and the timing trap of an asynchronous launch, shown on purpose.
 */
#include "diagnose.h"
#include "harness.h"
#include "matvec.h"
#include "reference.h"

#include "lab/alloc.h"
#include "lab/check.h"
#include "lab/compare.h"
#include "lab/cuda_timer.h"
#include "lab/device.h"
#include "lab/devio.h"
#include "lab/protocol.h"
#include "lab/rng.h"
#include "lab/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MATMUL_SEED 4

/* C = A B for a rectangular A (300, 200) and B (200, 100), matmul_cublas
 * against cblas_sgemm: the square C = A A of the timing can come out right
 * with n, k and m mixed up (or row-major read as column-major), a
 * rectangular product cannot. Prints the verdict, and the likely cause
 * (diagnose.h) when it is wrong. Returns 1 when it matches. */
static int rectangular_check(cublasHandle_t h)
{
    enum { RN = 300, RK = 200, RM = 100 };
    float *A = lab_xmalloc(sizeof(float) * RN * RK), *B = lab_xmalloc(sizeof(float) * RK * RM);
    float *C_cpu = lab_xmalloc(sizeof(float) * RN * RM),
          *C_gpu = lab_xmalloc(sizeof(float) * RN * RM);
    float *d_A, *d_B, *d_C;
    lab_compare_report rep;
    lab_rng rng;
    char cause[600];
    lab_rng_seed(&rng, MATMUL_SEED, 8);
    lab_rng_fill_uniform(&rng, A, RN * RK, 0.0f, 1.0f);
    lab_rng_fill_uniform(&rng, B, RK * RM, 0.0f, 1.0f);
    lab04_matmul_cpu(C_cpu, A, B, RN, RK, RM);
    d_A = lab_to_device(A, sizeof(float) * RN * RK);
    d_B = lab_to_device(B, sizeof(float) * RK * RM);
    d_C = lab_device_output(sizeof(float) * RN * RM); /* NaN until written */
    matmul_cublas(h, d_C, d_A, d_B, RN, RK, RM);
    lab_from_device(C_gpu, d_C, sizeof(float) * RN * RM);
    /* Entries >= 0: a relative bound, 2 gamma_k for two float32 results. */
    double rtol = 2.0 * lab04_float32_gamma(RK);
    int ok = lab_allclose_f32(&rep, C_gpu, C_cpu, (size_t)RN * RM, 0.0, rtol, 0);
    lab_compare_print(stdout, &rep, "  C (300, 100) = A (300, 200) B (200, 100), rectangular");
    if (!ok) {
        lab04_matmul_cause(cause, sizeof(cause), C_gpu, A, B, RN, RK, RM, rtol);
        printf("  hint: %s\n", cause);
    }
    lab_device_free(d_A);
    lab_device_free(d_B);
    lab_device_free(d_C);
    free(A);
    free(B);
    free(C_cpu);
    free(C_gpu);
    return ok;
}

/* C = A A, n x n, CPU against GPU, and the timing trap; then a rectangular
 * product. Returns 1 when the GPU's results match the CPU's. */
int lab04_big_matmul(int n, cublasHandle_t h)
{
    const int reps = 10; /* products per timed loop */
    const size_t count = (size_t)n * n, bytes = sizeof(float) * count;
    const double flops = 2.0 * n * (double)n * n; /* n^2 dot products of length n */
    float *A = lab_xmalloc(bytes), *C_cpu = lab_xmalloc(bytes), *C_gpu = lab_xmalloc(bytes);
    float *d_A, *d_C;
    lab_rng rng;
    lab_cuda_timer timer;
    lab_compare_report rep;
    float ms;

    lab_rng_seed(&rng, MATMUL_SEED, 7);
    lab_rng_fill_uniform(&rng, A, count, 0.0f, 1.0f); /* uniform in [0, 1) */
    printf("\nThe big matmul: C = A A, n = %d (%.1f GFLOP per product)\n", n, flops / 1e9);
    double t0 = lab_wall_seconds();
    lab04_matmul_cpu(C_cpu, A, A, n, n, n);
    double t_cpu = lab_wall_seconds() - t0;
    printf("  %-58s %9.3f s   %10.1f GFLOP/s  (CPU wall clock)\n",
           "cblas_sgemm (OpenBLAS, CPU), 1 product", t_cpu, flops / t_cpu / 1e9);

    d_A = lab_to_device(A, bytes);
    d_C = lab_device_output(bytes);           /* NaN until your matmul writes it */
    matmul_cublas(h, d_C, d_A, d_A, n, n, n); /* warm-up, and the result we check */
    LAB_CHECK(cudaDeviceSynchronize());

    /* The trap, on purpose: a launch only queues work and returns, so a clock
     * read right after the loop measures the queueing, not the products. */
    t0 = lab_wall_seconds();
    for (int r = 0; r < reps; r++)
        matmul_cublas(h, d_C, d_A, d_A, n, n, n);
    double t_queued = lab_wall_seconds() - t0;
    LAB_CHECK(cudaDeviceSynchronize());
    double t_synced = lab_wall_seconds() - t0;
    printf("  %-58s %9.6f s   %10.1f GFLOP/s  (CPU wall clock, unsynchronized: WRONG)\n",
           "cublasSgemm, loop of 10, clock read without synchronizing", t_queued,
           reps * flops / t_queued / 1e9);
    printf("  %-58s %9.3f s   %10.1f GFLOP/s  (CPU wall clock)\n",
           "the same loop, clock read after cudaDeviceSynchronize", t_synced,
           reps * flops / t_synced / 1e9);
    LAB_CHECK(lab_cuda_timer_create(&timer));
    LAB_CHECK(lab_cuda_timer_start(&timer, 0));
    for (int r = 0; r < reps; r++)
        matmul_cublas(h, d_C, d_A, d_A, n, n, n);
    LAB_CHECK(lab_cuda_timer_stop(&timer, 0));
    LAB_CHECK(lab_cuda_timer_elapsed_ms(&timer, &ms));
    printf("  %-58s %9.3f s   %10.1f GFLOP/s  (%s)\n", "a second loop of 10, between two events",
           ms / 1e3, reps * flops / (ms / 1e3) / 1e9, lab_cuda_timer_clock_name());
    lab_cuda_timer_destroy(&timer);
    printf(
        "  Per product: CPU %.3f ms (CPU wall clock), GPU %.3f ms (%s). The unsynchronized "
        "figure is\n  the classic timing mistake: the loop returned as soon as the launches were "
        "queued,\n  long before the products were done.\n",
        t_cpu * 1e3, ms / reps, lab_cuda_timer_clock_name());

    lab_from_device(C_gpu, d_C, bytes);
    /* Entries of A are >= 0, so |A||A| = A A and the float32 bound of each
     * entry is relative: |C - exact| <= gamma_n C. Two float32 results: 2 gamma_n. */
    double rtol = 2.0 * lab04_float32_gamma(n);
    int ok = lab_allclose_f32(&rep, C_gpu, C_cpu, count, 0.0, rtol, 0);
    lab_compare_print(stdout, &rep, "  C (cublasSgemm against cblas_sgemm)");
    if (!ok) {
        char cause[600];
        lab04_matmul_cause(cause, sizeof(cause), C_gpu, A, A, n, n, n, rtol);
        printf("  hint: %s\n", cause);
    }
    ok &= rectangular_check(h);
    lab_device_free(d_A);
    lab_device_free(d_C);
    free(A);
    free(C_cpu);
    free(C_gpu);
    return ok;
}
