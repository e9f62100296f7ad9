// 39_stencil_halo — the classic 1-D stencil: a block stages its elements plus
// a halo of R = 3 on each side in a __shared__ array declared at the kernel's
// top, synchronises, then each thread reads its neighbours' values.
#include "conformance.h"

#define N 1000
#define T 128
#define R 3

// out[i] = sum of in[i-R .. i+R], with zeros outside [0, n).
__global__ void stencil_1d(const int *in, int *out, int n)
{
    __shared__ int temp[T + 2 * R];
    int gi = blockIdx.x * blockDim.x + threadIdx.x;
    int li = threadIdx.x + R;
    temp[li] = gi < n ? in[gi] : 0;
    if (threadIdx.x < R) {
        temp[li - R] = gi - R >= 0 && gi - R < n ? in[gi - R] : 0;
        temp[li + T] = gi + T < n ? in[gi + T] : 0;
    }
    __syncthreads();
    if (gi < n) {
        int s = 0;
        for (int k = -R; k <= R; k++)
            s += temp[li + k];
        out[gi] = s;
    }
}

int main(void)
{
    conf_require_device();

    static int h_in[N], h_out[N];
    unsigned seed = 39;
    for (int i = 0; i < N; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 1000) - 500;
    int *d_in, *d_out;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    stencil_1d<<<(N + T - 1) / T, T>>>(d_in, d_out, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    for (int i = 0; i < N; i++) {
        int want = 0;
        for (int k = -R; k <= R; k++)
            if (i + k >= 0 && i + k < N)
                want += h_in[i + k];
        conf_check(h_out[i] == want, "out[%d] = %d, expected %d", i, h_out[i], want);
    }

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
