// 35_early_return_barrier — threads that returned early count as arrived at a
// later __syncthreads: with N = 1000 and blocks of 256, the last block's 24
// idle threads exit before the barrier and the 232 others still exchange through shared memory.
#include "conformance.h"

#define N 1000
#define T 256

// out[i] = in[i] + in[i + 1] within the block (the block's last active thread adds 0).
__global__ void neighbour_sum(const int *in, int *out, int n)
{
    __shared__ int s[T];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n)
        return;
    s[t] = in[i];
    __syncthreads();
    int right = (t + 1 < (int)blockDim.x && i + 1 < n) ? s[t + 1] : 0;
    out[i] = s[t] + right;
}

int main(void)
{
    conf_require_device();

    static int h_in[N], h_out[N];
    for (int i = 0; i < N; i++)
        h_in[i] = i * 3 + 1;
    int *d_in, *d_out;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    neighbour_sum<<<(N + T - 1) / T, T>>>(d_in, d_out, N);
    CHECK_CUDA(cudaGetLastError());
    conf_check_err(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    for (int i = 0; i < N; i++) {
        int t = i % T;
        int right = (t + 1 < T && i + 1 < N) ? h_in[i + 1] : 0;
        conf_check(h_out[i] == h_in[i] + right, "out[%d] = %d, expected %d", i, h_out[i],
                   h_in[i] + right);
    }

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
