// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Integer division by zero
// CHECK-EXPECT: at ratio_kernel in [^=]*div_by_zero\.cu:29
// CHECK-EXPECT: Integer division overflow \(the most negative 32-bit value divided by -1\)
// CHECK-EXPECT: at ratio_kernel in [^=]*div_by_zero\.cu:30
// PLAIN-EXIT: 0
// PLAIN-EXPECT: ratio_kernel: cudaSuccess
// PLAIN-EXPECT: 7 / 0 = -1, 7 % 0 = -1; 7u / 0 = 4294967295, 7u % 0 = 4294967295
// PLAIN-EXPECT: -2147483648 / -1 = -2147483648, -2147483648 % -1 = 0
// PLAIN-EXPECT: 9 / 2 = 4, 9 % 2 = 1
// clang-format on
// div_by_zero — integer division by a zero divisor, and of INT_MIN by -1, in
// a kernel. A GPU does not trap: it gives every bit set for a division by
// zero and the wrapped quotient for the overflow, and goes on; so does the
// simulator. The check mode names the line.
#include <cuda_runtime.h>

#include <limits.h>
#include <stdio.h>

#define N 3

// q[i] = a[i] / b[i], r[i] = a[i] % b[i], and the same unsigned.
__global__ void ratio_kernel(const int *a, const int *b, int *q, int *r, unsigned *uq, unsigned *ur)
{
    int i = threadIdx.x;
    // BUG: no test that b[i] != 0 (and that a[i] / b[i] fits in an int).
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
    uq[i] = (unsigned)a[i] / (unsigned)b[i];
    ur[i] = (unsigned)a[i] % (unsigned)b[i];
}

int main(void)
{
    int h_a[N] = { 7, INT_MIN, 9 }, h_b[N] = { 0, -1, 2 }, h_q[N], h_r[N];
    unsigned h_uq[N], h_ur[N];
    int *a, *b, *q, *r;
    unsigned *uq, *ur;
    cudaMalloc((void **)&a, sizeof(h_a));
    cudaMalloc((void **)&b, sizeof(h_b));
    cudaMalloc((void **)&q, sizeof(h_q));
    cudaMalloc((void **)&r, sizeof(h_r));
    cudaMalloc((void **)&uq, sizeof(h_uq));
    cudaMalloc((void **)&ur, sizeof(h_ur));
    cudaMemcpy(a, h_a, sizeof(h_a), cudaMemcpyHostToDevice);
    cudaMemcpy(b, h_b, sizeof(h_b), cudaMemcpyHostToDevice);
    ratio_kernel<<<1, N>>>(a, b, q, r, uq, ur);
    printf("ratio_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(h_q, q, sizeof(h_q), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_r, r, sizeof(h_r), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_uq, uq, sizeof(h_uq), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_ur, ur, sizeof(h_ur), cudaMemcpyDeviceToHost);
    printf("%d / %d = %d, %d %% %d = %d; %du / 0 = %u, %du %% 0 = %u\n", h_a[0], h_b[0], h_q[0],
           h_a[0], h_b[0], h_r[0], h_a[0], h_uq[0], h_a[0], h_ur[0]);
    for (int i = 1; i < N; i++)
        printf("%d / %d = %d, %d %% %d = %d\n", h_a[i], h_b[i], h_q[i], h_a[i], h_b[i], h_r[i]);
    cudaFree(a);
    cudaFree(b);
    cudaFree(q);
    cudaFree(r);
    cudaFree(uq);
    cudaFree(ur);
    return 0;
}
