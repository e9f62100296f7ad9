/*
 * matvec.h — lab 04's interface between the harness (main.c, bigmm.c) and the
 * student's file (matvec.cu). Usable from C and CUDA C.
 *
 * Shapes: A is (N, M) row-major (element (i, j) at A[i * M + j]), v is (M),
 * u is (N); u = A v. All pointers here are device pointers.
 */
#ifndef LAB04_MATVEC_H
#define LAB04_MATVEC_H

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel versions, selected by number (matvec's first argument; version.npy
 * in graded mode): each one a kernel of its own, to compare side by side. */
#define LAB04_VERSIONS 3

/* What a launcher launched: the harness prints it and writes it to result.json. */
typedef struct lab04_launch {
    int blocks;          /* gridDim.x */
    int threads;         /* blockDim.x */
    size_t shared_bytes; /* static + dynamic shared memory per block */
} lab04_launch;

/* One line describing version 1..LAB04_VERSIONS ("v1: one thread per row"). */
const char *matvec_describe(int version);

/* u = A v with kernel version 1..LAB04_VERSIONS, queued on the default stream
 * (it returns before the kernel ends). Returns the launch it made. */
lab04_launch matvec(int version, float *d_u, const float *d_A, const float *d_v, int N, int M);

/* C = A B with cuBLAS, all row-major: A is (n, k), B is (k, m), C is (n, m).
 * Queued on the handle's stream (it returns before the product is done). */
void matmul_cublas(cublasHandle_t handle, float *d_C, const float *d_A, const float *d_B, int n,
                   int k, int m);

#ifdef __cplusplus
}
#endif

#endif
