/*
 * The big matmul: C = A B on the GPU with cuBLAS, for row-major matrices.
 *
 * cuBLAS, like the Fortran BLAS it imitates, reads every matrix column-major:
 * element (i, j) of an (r, c) matrix with leading dimension ld is at
 * X[i + j * ld]. A row-major (r, c) matrix has (i, j) at X[i * c + j], which
 * is exactly where a column-major (c, r) matrix keeps its element (j, i): the
 * same bytes are the transpose, with ld = c. No copy is needed, only the
 * right reading of the bytes. The harness's cublasSgemv call (reference.c) uses
 * this for u = A v; here it is your turn for C = A B.
 */
#include "matvec.h"

#include "lab/check.h"
#include "lab/todo.h"

void matmul_cublas(cublasHandle_t handle, float *d_C, const float *d_A, const float *d_B, int n,
                   int k, int m)
{
    const float one = 1.0f, zero = 0.0f;
    /* TODO 5: one cublasSgemm call (wrapped in LAB_CHECK_CUBLAS) that leaves the
     * row-major product C = A B in d_C. Hint: the bytes of row-major C (n, m)
     * are column-major C^T (m, n), and C^T = B^T A^T: ask cuBLAS for that
     * product, with CUBLAS_OP_N for both operands; the three sizes and the
     * leading dimensions follow from the comment at the top of this file.
     * About 3 lines. */
    LAB_TODO_UNUSED(handle, d_C, d_A, d_B, n, k, m, one, zero);
}
