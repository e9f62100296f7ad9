/*
 * reference.h — lab 04's references: OpenBLAS on the CPU, cuBLAS on the
 * device. Part of the harness (students do not edit it).
 *
 * Shapes as in matvec.h: A (N, M) row-major, v (M), u (N); for the matmul
 * A (n, k), B (k, m), C (n, m), all row-major.
 */
#ifndef LAB04_REFERENCE_H
#define LAB04_REFERENCE_H

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* u = A v on the CPU with OpenBLAS's cblas_sgemv (host pointers). */
void lab04_matvec_cpu(float *u, const float *A, const float *v, int N, int M);

/* u = A v with cublasSgemv (device pointers), queued on the handle's stream. */
void lab04_matvec_cublas(cublasHandle_t handle, float *d_u, const float *d_A, const float *d_v,
                         int N, int M);

/* C = A B on the CPU with OpenBLAS's cblas_sgemm (host pointers). */
void lab04_matmul_cpu(float *C, const float *A, const float *B, int n, int k, int m);

/* The fewest bytes u = A v must move through device memory: A and v read
 * once, u written once: 4 (N M + M + N). */
double lab04_matvec_bytes(int N, int M);

/* Largest |error| a float32 dot product of length M can have against the
 * exact one, whatever the order of its additions, over every row of A:
 *   gamma_M * max_i sum_j |A_ij v_j|,  gamma_M = M u / (1 - M u),  u = 2^-24
 * (rounding of M products and M - 1 sums; Higham, Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., eq. 3.5). */
double lab04_matvec_error_bound(const float *A, const float *v, int N, int M);

/* gamma_k = k u / (1 - k u) with u = 2^-24, the float32 unit roundoff. */
double lab04_float32_gamma(double k);

#ifdef __cplusplus
}
#endif

#endif
