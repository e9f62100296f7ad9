// 15_streams — work in one stream runs in issue order: in each of two streams,
// an async copy in, a slow kernel A, a kernel B reading A's output, an async
// copy out. cudaStreamQuery is NotReady while A runs and eventually cudaSuccess.
#include "conformance.h"

#define N 4096
#define NSTREAMS 2
#define SPIN_CYCLES 20000000LL // ~10 ms at GPU clocks

// One thread waits, then writes every y: if B started before A ended, B sees stale y.
__global__ void slow_double(const int *x, int *y, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long start = clock64();
        while (clock64() - start < SPIN_CYCLES) {
        }
        for (int i = 0; i < n; i++)
            y[i] = 2 * x[i];
    }
}

__global__ void plus_one(const int *y, int *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = y[i] + 1;
}

int main(void)
{
    conf_require_device();

    cudaStream_t streams[NSTREAMS];
    int *h_x[NSTREAMS], *h_z[NSTREAMS], *d_x[NSTREAMS], *d_y[NSTREAMS], *d_z[NSTREAMS];
    size_t bytes = N * sizeof(int);
    for (int s = 0; s < NSTREAMS; s++) {
        CHECK_CUDA(cudaStreamCreate(&streams[s]));
        CHECK_CUDA(cudaMallocHost(&h_x[s], bytes));
        CHECK_CUDA(cudaMallocHost(&h_z[s], bytes));
        CHECK_CUDA(cudaMalloc(&d_x[s], bytes));
        CHECK_CUDA(cudaMalloc(&d_y[s], bytes));
        CHECK_CUDA(cudaMalloc(&d_z[s], bytes));
        CHECK_CUDA(cudaMemset(d_y[s], 0, bytes));
        for (int i = 0; i < N; i++) {
            h_x[s][i] = i * (s + 1);
            h_z[s][i] = -1;
        }
    }
    CHECK_CUDA(cudaDeviceSynchronize());

    for (int s = 0; s < NSTREAMS; s++) {
        CHECK_CUDA(cudaMemcpyAsync(d_x[s], h_x[s], bytes, cudaMemcpyHostToDevice, streams[s]));
        slow_double<<<1, 32, 0, streams[s]>>>(d_x[s], d_y[s], N);
        CHECK_CUDA(cudaGetLastError());
        plus_one<<<(N + 255) / 256, 256, 0, streams[s]>>>(d_y[s], d_z[s], N);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaMemcpyAsync(h_z[s], d_z[s], bytes, cudaMemcpyDeviceToHost, streams[s]));
    }
    conf_check_err(cudaStreamQuery(streams[0]), cudaErrorNotReady);

    // Poll (bounded) until stream 0 reports done, then synchronise stream 1.
    cudaError_t q = cudaErrorNotReady;
    double t0 = conf_now_ms();
    while (q == cudaErrorNotReady && conf_now_ms() - t0 < 20000.0)
        q = cudaStreamQuery(streams[0]);
    conf_check_err(q, cudaSuccess);
    CHECK_CUDA(cudaStreamSynchronize(streams[1]));
    conf_check_err(cudaStreamQuery(streams[1]), cudaSuccess);

    for (int s = 0; s < NSTREAMS; s++)
        for (int i = 0; i < N; i++) {
            int want = 2 * i * (s + 1) + 1;
            conf_check(h_z[s][i] == want, "stream %d: z[%d] = %d, expected %d", s, i, h_z[s][i],
                       want);
        }

    for (int s = 0; s < NSTREAMS; s++) {
        CHECK_CUDA(cudaStreamDestroy(streams[s]));
        CHECK_CUDA(cudaFreeHost(h_x[s]));
        CHECK_CUDA(cudaFreeHost(h_z[s]));
        CHECK_CUDA(cudaFree(d_x[s]));
        CHECK_CUDA(cudaFree(d_y[s]));
        CHECK_CUDA(cudaFree(d_z[s]));
    }
    return conf_finish();
}
