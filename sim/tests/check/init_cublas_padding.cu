// clang-format off
// CHECK-TOOL: initcheck
// CHECK-EXPECT: Uninitialized __global__ memory read of size 4 bytes
// CHECK-EXPECT: at sum_columns_kernel in [^=]*init_cublas_padding\.cu:24
// clang-format on
// init_cublas_padding — C of an Sgemm stored with a leading dimension larger
// than its rows (ldc = M + 3): cuBLAS writes M rows of each column, and a
// kernel that sums whole columns of ldc elements reads the 3 padding rows
// nobody wrote. (What cuBLAS writes counts as written; the rest does not.)
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdio.h>

#define M 30
#define LDC (M + 3)

// sums[j] = the sum of column j of the M x M matrix c (column-major, leading dimension ld).
__global__ void sum_columns_kernel(const float *c, float *sums, int ld)
{
    int j = threadIdx.x;
    float s = 0.0f;
    for (int i = 0; i < ld; i++) // BUG: i < M; rows M..ld-1 are padding
        s += c[j * ld + i];
    sums[j] = s;
}

int main(void)
{
    static float h_a[M * M], h_sums[M];
    for (int i = 0; i < M * M; i++)
        h_a[i] = 1.0f;
    float *d_a, *d_c, *d_sums;
    cudaMalloc((void **)&d_a, sizeof(h_a));
    cudaMalloc((void **)&d_c, LDC * M * sizeof(float));
    cudaMalloc((void **)&d_sums, sizeof(h_sums));
    cudaMemcpy(d_a, h_a, sizeof(h_a), cudaMemcpyHostToDevice);
    cublasHandle_t h;
    cublasCreate(&h);
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, M, M, &one, d_a, M, d_a, M, &zero, d_c, LDC);
    sum_columns_kernel<<<1, M>>>(d_c, d_sums, LDC);
    cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost);
    printf("sums[0] = %g (expected %d)\n", h_sums[0], M * M);
    cublasDestroy(h);
    cudaFree(d_a);
    cudaFree(d_c);
    cudaFree(d_sums);
    return 0;
}
