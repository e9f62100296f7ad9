// 09_atomics_float — floating-point atomics: atomicAdd on float and double
// (sums compared with a tolerance, since the order of additions varies), and
// a lock-free float max built from atomicCAS on the value's bits.
#include "conformance.h"

#define N 50000
#define THREADS 256

// The classic CAS loop: retry until our value is stored or a larger one is there.
__device__ float atomic_max_float(float *addr, float val)
{
    int *bits = (int *)addr;
    int old = *bits, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val)
            break;
        old = atomicCAS(bits, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void float_atomics(const float *x, int n, float *fsum, double *dsum, float *fmax,
                              float *exact)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicAdd(fsum, x[i]);
    atomicAdd(dsum, (double)x[i] * 1e-3);
    atomic_max_float(fmax, x[i]);
    // Multiples of 1/256 whose sum stays below 2^16: every partial sum is
    // exact in float, so this total is exact in any order.
    atomicAdd(exact, (float)(i % 256) / 256.0f);
}

int main(void)
{
    conf_require_device();

    static float h_x[N];
    unsigned seed = 9;
    double want_sum = 0.0, want_dsum = 0.0, want_exact = 0.0;
    float want_max = -1e30f;
    for (int i = 0; i < N; i++) {
        h_x[i] = conf_lcg_float(&seed, -3.0f, 1.0f);
        want_sum += h_x[i];
        want_dsum += (double)h_x[i] * 1e-3;
        want_max = h_x[i] > want_max ? h_x[i] : want_max;
        want_exact += (double)(i % 256) / 256.0;
    }

    float *d_x, *d_fsum, *d_fmax, *d_exact;
    double *d_dsum;
    float init_max = -1e30f;
    CHECK_CUDA(cudaMalloc(&d_x, sizeof(h_x)));
    CHECK_CUDA(cudaMalloc(&d_fsum, sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_dsum, sizeof(double)));
    CHECK_CUDA(cudaMalloc(&d_fmax, sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_exact, sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_fsum, 0, sizeof(float)));
    CHECK_CUDA(cudaMemset(d_dsum, 0, sizeof(double)));
    CHECK_CUDA(cudaMemset(d_exact, 0, sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d_fmax, &init_max, sizeof(float), cudaMemcpyHostToDevice));
    float_atomics<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_x, N, d_fsum, d_dsum, d_fmax,
                                                            d_exact);
    CHECK_CUDA(cudaGetLastError());

    float fsum, fmax, exact;
    double dsum;
    CHECK_CUDA(cudaMemcpy(&fsum, d_fsum, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&dsum, d_dsum, sizeof(double), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&fmax, d_fmax, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&exact, d_exact, sizeof(float), cudaMemcpyDeviceToHost));

    // Rounding depends on the order of the N float additions; lost updates are
    // caught exactly by the dyadic sum below.
    conf_check(conf_near(fsum, want_sum, 0.5, 1e-3), "float atomicAdd sum %.6f, expected %.6f",
               fsum, want_sum);
    conf_check(conf_near(dsum, want_dsum, 1e-9, 1e-12),
               "double atomicAdd sum %.12f, expected %.12f", dsum, want_dsum);
    conf_check(fmax == want_max, "CAS float max %.9g, expected %.9g", fmax, want_max);
    conf_check((double)exact == want_exact, "exact float sum %.6f, expected %.6f", exact,
               want_exact);

    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_fsum));
    CHECK_CUDA(cudaFree(d_dsum));
    CHECK_CUDA(cudaFree(d_fmax));
    CHECK_CUDA(cudaFree(d_exact));
    return conf_finish();
}
