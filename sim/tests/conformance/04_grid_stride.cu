// 04_grid_stride — a grid-stride loop: 3 blocks of 64 threads (192 threads)
// cover N = 10007 elements, each element handled exactly once, by the thread
// (i mod 192) the loop assigns it to.
#include "conformance.h"

#define N 10007

__global__ void saxpy_stride(int n, float a, const float *x, float *y, int *owner)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = a * x[i] + y[i];
        owner[i] = blockIdx.x * blockDim.x + threadIdx.x;
    }
}

int main(void)
{
    conf_require_device();

    static float h_x[N], h_y[N], h_out[N];
    static int h_owner[N];
    unsigned seed = 4;
    for (int i = 0; i < N; i++) {
        h_x[i] = conf_lcg_float(&seed, -2.0f, 2.0f);
        h_y[i] = (float)(i % 17);
    }
    float *d_x, *d_y;
    int *d_owner;
    CHECK_CUDA(cudaMalloc(&d_x, sizeof(h_x)));
    CHECK_CUDA(cudaMalloc(&d_y, sizeof(h_y)));
    CHECK_CUDA(cudaMalloc(&d_owner, sizeof(h_owner)));
    CHECK_CUDA(cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_y, h_y, sizeof(h_y), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_owner, 0xff, sizeof(h_owner)));

    saxpy_stride<<<3, 64>>>(N, 2.5f, d_x, d_y, d_owner);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_y, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_owner, d_owner, sizeof(h_owner), cudaMemcpyDeviceToHost));

    for (int i = 0; i < N; i++) {
        float want = 2.5f * h_x[i] + h_y[i];
        conf_check(conf_near(h_out[i], want, 1e-6, 1e-6), "y[%d] = %g, expected %g", i, h_out[i],
                   want);
        conf_check(h_owner[i] == i % 192, "element %d handled by thread %d, expected %d", i,
                   h_owner[i], i % 192);
    }

    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_y));
    CHECK_CUDA(cudaFree(d_owner));
    return conf_finish();
}
