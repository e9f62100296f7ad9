// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_cublas_results — kernels reading what cuBLAS wrote into buffers nobody
// else wrote: C of an Sgemm (beta 0: C is output only), y of an Sgemv, a
// vector from Scopy, a dot product in pointer mode device, and C of a strided
// batched Sgemm whose leading dimension leaves padding rows the kernel never
// reads. cuBLAS's writes initialize memory as a kernel's do.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdio.h>

#define N 48 // matrices are N x N, column-major
#define LDC (N + 5)
#define BATCH 3

// out[i] = 2 in[i].
__global__ void twice_kernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}

// out[j * rows + i] = c[j * ld + i]: the rows x cols matrix without its padding.
__global__ void unpad_kernel(const float *c, float *out, int rows, int cols, int ld)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i < rows && j < cols)
        out[j * rows + i] = c[(size_t)j * ld + i];
}

static int expect(const float *got, int n, float want, const char *what)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want) {
            printf("%s[%d] = %g, expected %g\n", what, i, got[i], want);
            return 1;
        }
    return 0;
}

int main(void)
{
    static float h_ones[N * N], h_out[BATCH * N * N];
    for (int i = 0; i < N * N; i++)
        h_ones[i] = 1.0f;
    float *d_a, *d_c, *d_y, *d_copy, *d_dot, *d_cb, *d_out;
    cudaMalloc((void **)&d_a, sizeof(h_ones));
    cudaMalloc((void **)&d_c, sizeof(h_ones));
    cudaMalloc((void **)&d_y, N * sizeof(float));
    cudaMalloc((void **)&d_copy, N * sizeof(float));
    cudaMalloc((void **)&d_dot, sizeof(float));
    cudaMalloc((void **)&d_cb, (size_t)BATCH * LDC * N * sizeof(float));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMemcpy(d_a, h_ones, sizeof(h_ones), cudaMemcpyHostToDevice);
    cublasHandle_t h;
    cublasCreate(&h);
    const float one = 1.0f, zero = 0.0f;
    int bad = 0;

    // C = A A: every element N.
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, d_a, N, d_a, N, &zero, d_c, N);
    twice_kernel<<<(N * N + 255) / 256, 256>>>(d_c, d_out, N * N);
    cudaMemcpy(h_out, d_out, N * N * sizeof(float), cudaMemcpyDeviceToHost);
    bad |= expect(h_out, N * N, 2.0f * N, "gemm");

    // y = A x (x: the first column of A): every element N.
    cublasSgemv(h, CUBLAS_OP_N, N, N, &one, d_a, N, d_a, 1, &zero, d_y, 1);
    twice_kernel<<<1, N>>>(d_y, d_out, N);
    cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost);
    bad |= expect(h_out, N, 2.0f * N, "gemv");

    // copy = y; dot = y . copy, written on the device.
    cublasScopy(h, N, d_y, 1, d_copy, 1);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    cublasSdot(h, N, d_y, 1, d_copy, 1, d_dot);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    twice_kernel<<<1, N>>>(d_copy, d_out, N);
    twice_kernel<<<1, 1>>>(d_dot, d_out + N, 1);
    cudaMemcpy(h_out, d_out, (N + 1) * sizeof(float), cudaMemcpyDeviceToHost);
    bad |= expect(h_out, N, 2.0f * N, "copy");
    bad |= expect(h_out + N, 1, 2.0f * N * N * N, "dot");

    // BATCH products into C_b = d_cb + b LDC N, leading dimension LDC: rows
    // N..LDC-1 of each column are padding that cuBLAS does not write.
    cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, d_a, N, 0, d_a, N, 0,
                              &zero, d_cb, LDC, (long long)LDC * N, BATCH);
    unpad_kernel<<<dim3(1, BATCH * N), N>>>(d_cb, d_out, N, BATCH * N, LDC);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    bad |= expect(h_out, BATCH * N * N, (float)N, "batched");

    cudaError_t e = cudaGetLastError();
    cublasDestroy(h);
    cudaFree(d_a);
    cudaFree(d_c);
    cudaFree(d_y);
    cudaFree(d_copy);
    cudaFree(d_dot);
    cudaFree(d_cb);
    cudaFree(d_out);
    printf("%s ok_cublas_results (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
