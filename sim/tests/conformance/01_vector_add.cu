// 01_vector_add — blocks = ceil(N / threads) and the bounds check: N = 5466
// with 1024 threads per block gives 6 blocks (6144 threads); the 678 threads
// past the end must not write, so the guard bytes after c[N-1] keep their value.
#include "conformance.h"

#define N 5466
#define THREADS 1024
#define GUARD 1024 // extra elements after the N the kernel may touch

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(void)
{
    conf_require_device();

    static float h_a[N], h_b[N], h_c[N + GUARD];
    unsigned seed = 1;
    for (int i = 0; i < N; i++) {
        h_a[i] = conf_lcg_float(&seed, -1.0f, 1.0f);
        h_b[i] = (float)i * 0.5f;
    }

    float *d_a, *d_b, *d_c;
    CHECK_CUDA(cudaMalloc(&d_a, N * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_b, N * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_c, (N + GUARD) * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d_a, h_a, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_b, h_b, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_c, 0xff, (N + GUARD) * sizeof(float))); // NaN pattern

    int blocks = (N + THREADS - 1) / THREADS;
    conf_check(blocks == 6, "ceil(5466 / 1024) = %d, expected 6", blocks);
    vector_add<<<blocks, THREADS>>>(d_a, d_b, d_c, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(h_c, d_c, (N + GUARD) * sizeof(float), cudaMemcpyDeviceToHost));

    for (int i = 0; i < N; i++)
        conf_check(h_c[i] == h_a[i] + h_b[i], "c[%d] = %g, expected %g", i, h_c[i],
                   h_a[i] + h_b[i]);
    unsigned guard_bits;
    for (int i = N; i < N + GUARD; i++) {
        memcpy(&guard_bits, &h_c[i], sizeof(guard_bits));
        conf_check(guard_bits == 0xffffffffu, "c[%d] past the end was written (0x%08x)", i,
                   guard_bits);
    }

    CHECK_CUDA(cudaFree(d_a));
    CHECK_CUDA(cudaFree(d_b));
    CHECK_CUDA(cudaFree(d_c));
    return conf_finish();
}
