// clang-format off
// EXPECT-OUTPUT: argument Barray\[i\] of cublasSgemmBatched is a host pointer.*cublasSgemmBatched: matrix 1 of the batch is not usable device memory.*PASS cublas_batch_bad_pointer
// clang-format on
// cublas_batch_bad_pointer — simulator only: a host pointer among the
// matrices of a pointer-array batch (cublasSgemmBatched) is found when the
// work runs, as a GPU's kernel would meet it: a report naming the argument
// and the matrix, and the sticky cudaErrorIllegalAddress at the next
// synchronizing call; the call itself succeeds, as on a GPU.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const int n = 4;
    float *d, host_b[16] = { 0 }, one = 1;
    const float *a[2], *b[2];
    float *c[2];
    const float **da, **db;
    float **dc;
    int ok = 1;
    cublasHandle_t h;
    ok &= cudaMalloc((void **)&d, 6 * n * n * sizeof(float)) == cudaSuccess;
    ok &= cudaMemset(d, 0, 6 * n * n * sizeof(float)) == cudaSuccess;
    for (int i = 0; i < 2; i++) {
        a[i] = d + i * n * n;
        b[i] = d + (2 + i) * n * n;
        c[i] = d + (4 + i) * n * n;
    }
    b[1] = host_b; // the slip: a host array where a device matrix belongs
    ok &= cudaMalloc((void **)&da, sizeof a) == cudaSuccess;
    ok &= cudaMalloc((void **)&db, sizeof b) == cudaSuccess;
    ok &= cudaMalloc((void **)&dc, sizeof c) == cudaSuccess;
    ok &= cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice) == cudaSuccess;
    ok &= cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice) == cudaSuccess;
    ok &= cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice) == cudaSuccess;
    ok &= cublasCreate(&h) == CUBLAS_STATUS_SUCCESS;
    ok &= cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da, n, db, n, &one, dc, n,
                             2) == CUBLAS_STATUS_SUCCESS;
    fflush(stdout);
    ok &= cudaDeviceSynchronize() == cudaErrorIllegalAddress;
    ok &= cudaMalloc((void **)&d, 4) == cudaErrorIllegalAddress; // sticky
    cublasDestroy(h);
    ok &= cudaDeviceReset() == cudaSuccess;
    printf("%s cublas_batch_bad_pointer\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
