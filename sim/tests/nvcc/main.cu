// main.cu — the nvcc driver test's main file: calls into util.cu, helper.c,
// extra.cpp and cuBLAS, and prints one line the test matches.
#include "util.h"

#include <cublas_v2.h>
#include <stdio.h>

int main(void)
{
    const int n = 1000;
    float x[n], y[n];
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    scale_on_device(y, x, n);

    cublasHandle_t h;
    float *d_x, dot = 0.0f;
    cublasCreate(&h);
    cudaMalloc(&d_x, 3 * sizeof(float));
    cudaMemcpy(d_x, x + 1, 3 * sizeof(float), cudaMemcpyHostToDevice); /* 1 2 3 */
    cublasSdot(h, 3, d_x, 1, d_x, 1, &dot);                            /* 14 */
    cublasDestroy(h);
    cudaFree(d_x);

    printf("nvcc-driver y[999]=%.0f sum=%ld twice=%d dot=%.0f\n", y[999], sum_below(5),
           cxx_twice(21), dot);
    return 0;
}
