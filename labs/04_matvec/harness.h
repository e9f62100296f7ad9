/*
 * harness.h — what the parts of lab 04's harness share (main.c, bigmm.c).
 * Students do not edit it.
 */
#ifndef LAB04_HARNESS_H
#define LAB04_HARNESS_H

#include <cublas_v2.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* malloc that reports and exits (status 1) when memory runs out. */
void *xmalloc(size_t bytes);

/* The big matmul of the demo: C = A A for an n x n matrix A, cblas_sgemm
 * against cublasSgemm (matmul_cublas), GFLOP/s, and the timing trap.
 * Returns 1 when the GPU's C matches the CPU's. */
int lab04_big_matmul(int n, cublasHandle_t handle);

#ifdef __cplusplus
}
#endif

#endif
