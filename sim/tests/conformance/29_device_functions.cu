// 29_device_functions — kernels calling helpers: __device__ functions (inline
// and __noinline__), a __host__ __device__ function also called from host code
// for the reference, and recursive __device__ functions (Fibonacci, Euclid's gcd).
#include "conformance.h"

#define N 200

__host__ __device__ int collatz_steps(int x)
{
    int steps = 0;
    while (x != 1) {
        x = (x % 2) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

__device__ __forceinline__ int square(int x)
{
    return x * x;
}

__device__ __noinline__ int add_squares(int a, int b)
{
    return square(a) + square(b);
}

__device__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ int gcd(int a, int b)
{
    return b == 0 ? a : gcd(b, a % b);
}

__global__ void helpers(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[4 * i] = collatz_steps(i + 1);
    out[4 * i + 1] = add_squares(i, i + 1);
    out[4 * i + 2] = fib(i % 16);
    out[4 * i + 3] = gcd(12 * (i + 1), 18 * (i % 7 + 1));
}

static int fib_host(int n)
{
    int a = 0, b = 1;
    for (int k = 0; k < n; k++) {
        int t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static int gcd_host(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int main(void)
{
    conf_require_device();

    static int h_out[4 * N];
    int *d_out;
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    helpers<<<(N + 63) / 64, 64>>>(d_out, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    for (int i = 0; i < N; i++) {
        int want[4] = { collatz_steps(i + 1), i * i + (i + 1) * (i + 1), fib_host(i % 16),
                        gcd_host(12 * (i + 1), 18 * (i % 7 + 1)) };
        static const char *what[4] = { "collatz_steps", "add_squares", "fib", "gcd" };
        for (int k = 0; k < 4; k++)
            conf_check(h_out[4 * i + k] == want[k], "i = %d: %s gave %d, expected %d", i, what[k],
                       h_out[4 * i + k], want[k]);
    }
    conf_check(collatz_steps(27) == 111, "host collatz_steps(27) = %d", collatz_steps(27));

    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
