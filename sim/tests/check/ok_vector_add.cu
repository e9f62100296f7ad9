// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_vector_add — c = a + b with a bounds check, n not a multiple of the
// block: the threads past the end do nothing.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256

// c[i] = a[i] + b[i] for i < n.
__global__ void add_kernel(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(void)
{
    static float h_a[N], h_b[N], h_c[N];
    for (int i = 0; i < N; i++) {
        h_a[i] = (float)i;
        h_b[i] = (float)(2 * i);
    }
    float *d_a, *d_b, *d_c;
    cudaMalloc((void **)&d_a, sizeof(h_a));
    cudaMalloc((void **)&d_b, sizeof(h_b));
    cudaMalloc((void **)&d_c, sizeof(h_c));
    cudaMemcpy(d_a, h_a, sizeof(h_a), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, sizeof(h_b), cudaMemcpyHostToDevice);
    add_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_a, d_b, d_c, N);
    cudaMemcpy(h_c, d_c, sizeof(h_c), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (h_c[i] != (float)(3 * i) && bad++ < 5)
            printf("c[%d] = %g, expected %d\n", i, h_c[i], 3 * i);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    printf("%s ok_vector_add (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
