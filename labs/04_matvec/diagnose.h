/*
 * Lab 04 — what a wrong u or C says about its likely cause. Part of the
 * harness (you do not edit it): the demo (main.c, bigmm.c) prints it as a
 * hint under a failed validation, and the grader (grader_checks.c)
 * adds it to a failed check's reason, so both point at the same place.
 *
 * Mat-vec (u = A v): the harness fills u with 0xff bytes (a NaN) before the
 * kernel runs, so rows no thread or warp wrote show; wrong values get the
 * hint of their version.
 *
 * Matmul (C = A B, all row-major, through cuBLAS, which is column-major):
 * the result is compared with what the two classic slips produce, so the
 * hint can say which one it was:
 *   - the result left column-major: the bytes of C hold (A B)^T;
 *   - the textbook column-major call cublasSgemm(N, N, n, m, k, A, n, B, k,
 *     C, n) on row-major data: for the square C = A A it reads the bytes of A
 *     as A^T and leaves (A^T A^T)^T = A A in C, right by coincidence; for a
 *     rectangular product it reads A and B reshaped, and C is wrong.
 */
#ifndef LAB04_DIAGNOSE_H
#define LAB04_DIAGNOSE_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The hint for a wrong u of kernel version 1..3: `unwritten` of its `count`
 * elements still hold the NaN fill, the first at `first_unwritten`.
 * `program` names the lab program for the command it suggests. */
static inline void lab04_matvec_hint(char *buf, size_t len, int version, size_t unwritten,
                                     size_t count, size_t first_unwritten, const char *program)
{
    if (unwritten == count)
        snprintf(buf, len,
                 "no element of u was written (each still holds the NaN fill): is matvec_kernel%d "
                 "in matvec.cu still the TODO?",
                 version);
    else if (unwritten)
        snprintf(buf, len,
                 "%zu elements of u were never written (NaN), the first u[%zu]: which rows does no "
                 "thread or warp reach?",
                 unwritten, first_unwritten);
    else if (version == 1)
        snprintf(buf, len,
                 "each thread owns one row: does it add A[row * M + j] * v[j] for every j < M, "
                 "starting from 0?");
    else if (version == 2)
        snprintf(buf, len,
                 "each row's sum is spread over the 32 lanes of its warp: does warp_sum in "
                 "matvec.cu add them all, and does lane 0 write it?");
    else
        snprintf(buf, len,
                 "does every thread load its element of each tile and reach both __syncthreads() "
                 "(no early return)? GPULAB_SIM_CHECK=all %s --validate reports races and "
                 "uninitialized reads",
                 program);
}

/* Whether got (n * m floats) matches want[i] (computed by `at`) within rtol. */
static inline int lab04_matches(const float *got, const double *want, size_t count, double rtol)
{
    for (size_t i = 0; i < count; i++)
        if (!(fabs((double)got[i] - want[i]) <= rtol * fabs(want[i])))
            return 0;
    return 1;
}

/* out[l n + i] = sum_j A[i ai + j aj] B[j bj + l bl] for i < n, l < m, j < k:
 * a product read from A and B with the given strides, as a slip would read them. */
static inline void lab04_product(double *out, int n, int m, int k, const float *A, size_t ai,
                                 size_t aj, const float *B, size_t bj, size_t bl)
{
    for (int i = 0; i < n; i++)
        for (int l = 0; l < m; l++) {
            double s = 0.0;
            for (int j = 0; j < k; j++)
                s += (double)A[i * ai + j * aj] * B[j * bj + l * bl];
            out[(size_t)l * n + i] = s;
        }
}

/*
 * The likely cause of a wrong row-major C = A B (A (n, k), B (k, m), entries
 * >= 0, compared with relative tolerance rtol), as one sentence for a hint;
 * "" when the result looks like none of the known slips. Returns 1 when a
 * cause was recognised.
 */
static inline int lab04_matmul_cause(char *buf, size_t len, const float *got, const float *A,
                                     const float *B, int n, int k, int m, double rtol)
{
    size_t count = (size_t)n * (size_t)m, nan = 0;
    double *want = (double *)malloc(sizeof(double) * (count ? count : 1));
    int found = 0;
    buf[0] = '\0';
    if (!want)
        return 0;
    for (size_t i = 0; i < count; i++)
        nan += isnan(got[i]);
    if (nan == count) {
        snprintf(buf, len,
                 "no element of C was written (each still holds the NaN fill): is matmul_cublas "
                 "in matmul.c still the TODO?");
        found = 1;
        goto done;
    }
    /* The result left column-major: the bytes hold (A B)^T, (m, n). */
    lab04_product(want, n, m, k, A, (size_t)k, 1, B, (size_t)m, 1);
    if (lab04_matches(got, want, count, rtol)) {
        snprintf(buf, len,
                 "C holds the right numbers transposed: its bytes are A B column-major, (A B)^T "
                 "row-major. cuBLAS writes column-major; ask it for C^T = B^T A^T, whose "
                 "column-major bytes are row-major C (the comment at the top of matmul.c)");
        found = 1;
        goto done;
    }
    /* The textbook column-major call on row-major bytes:
     * C(i + l n) = sum_j A(i + j n) B(j + l k), which is B A when n = k = m. */
    lab04_product(want, n, m, k, A, 1, (size_t)n, B, 1, (size_t)k);
    if (lab04_matches(got, want, count, rtol)) {
        snprintf(buf, len,
                 "C is what cublasSgemm(N, N, n, m, k, A, n, B, k, C, n) gives: row-major A and B "
                 "passed as if cuBLAS read them row-major. cuBLAS reads column-major: for the "
                 "square C = A A that call is right by coincidence, for a rectangular product it "
                 "reads A and B reshaped (row-major vs column-major). Ask for C^T = B^T A^T "
                 "instead (the comment at the top of matmul.c)");
        found = 1;
        goto done;
    }
    if (nan)
        snprintf(buf, len,
                 "%zu of the %zu elements of C were never written (NaN): the sizes and leading "
                 "dimensions of the cublasSgemm call in matmul.c cover less than C (%d, %d)",
                 nan, count, n, m);
    else
        snprintf(buf, len,
                 "check each size and leading dimension of the cublasSgemm call in matmul.c "
                 "against the comment at its top: row-major bytes are the column-major transpose, "
                 "and a call that gets the square C = A A right can still mix up n, k and m");
done:
    free(want);
    return found;
}

#endif
