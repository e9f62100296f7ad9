// 36_default_stream — the legacy default stream synchronises with blocking
// streams: work on a created stream waits for earlier stream-0 work (a copy, a
// slow kernel), and stream-0 work waits for it. A cudaStreamNonBlocking stream works too.
#include "conformance.h"

#define N 2048
#define SPIN_CYCLES 20000000LL // ~10 ms at GPU clocks

__global__ void slow_fill(int *x, int n, int base)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long start = clock64();
        while (clock64() - start < SPIN_CYCLES) {
        }
        for (int i = 0; i < n; i++)
            x[i] = base + i;
    }
}

__global__ void negate(const int *x, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = -x[i];
}

static void check_negated(const char *what, const int *y, int base)
{
    for (int i = 0; i < N; i++)
        conf_check(y[i] == -(base + i), "%s: y[%d] = %d, expected %d", what, i, y[i], -(base + i));
}

int main(void)
{
    conf_require_device();

    size_t bytes = N * sizeof(int);
    int *d_x, *d_y, *h_pinned, *h_y;
    cudaStream_t s, nb;
    CHECK_CUDA(cudaMalloc(&d_x, bytes));
    CHECK_CUDA(cudaMalloc(&d_y, bytes));
    CHECK_CUDA(cudaMallocHost(&h_pinned, bytes));
    CHECK_CUDA(cudaMallocHost(&h_y, bytes));
    CHECK_CUDA(cudaStreamCreate(&s)); // blocking: synchronises with stream 0
    CHECK_CUDA(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));

    // 1. An async copy on stream 0, then a kernel on s.
    for (int i = 0; i < N; i++)
        h_pinned[i] = 500 + i;
    CHECK_CUDA(cudaMemset(d_x, 0, bytes));
    CHECK_CUDA(cudaMemcpyAsync(d_x, h_pinned, bytes, cudaMemcpyHostToDevice, 0));
    negate<<<(N + 255) / 256, 256, 0, s>>>(d_x, d_y, N);
    CHECK_CUDA(cudaMemcpyAsync(h_y, d_y, bytes, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    check_negated("copy on stream 0, kernel on s", h_y, 500);

    // 2. A slow kernel on stream 0, then a kernel on s.
    slow_fill<<<1, 32>>>(d_x, N, 7000);
    negate<<<(N + 255) / 256, 256, 0, s>>>(d_x, d_y, N);
    CHECK_CUDA(cudaMemcpyAsync(h_y, d_y, bytes, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    check_negated("slow kernel on stream 0, kernel on s", h_y, 7000);

    // 3. A slow kernel on s, then a kernel on stream 0 and a plain cudaMemcpy.
    slow_fill<<<1, 32, 0, s>>>(d_x, N, -300);
    negate<<<(N + 255) / 256, 256>>>(d_x, d_y, N);
    CHECK_CUDA(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    check_negated("slow kernel on s, kernel on stream 0", h_y, -300);

    // 4. A non-blocking stream, used with its own synchronisation.
    CHECK_CUDA(cudaDeviceSynchronize());
    slow_fill<<<1, 32, 0, nb>>>(d_x, N, 42);
    negate<<<(N + 255) / 256, 256, 0, nb>>>(d_x, d_y, N);
    CHECK_CUDA(cudaMemcpyAsync(h_y, d_y, bytes, cudaMemcpyDeviceToHost, nb));
    CHECK_CUDA(cudaStreamSynchronize(nb));
    check_negated("non-blocking stream", h_y, 42);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaStreamSynchronize(cudaStreamLegacy));

    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaStreamDestroy(nb));
    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_y));
    CHECK_CUDA(cudaFreeHost(h_pinned));
    CHECK_CUDA(cudaFreeHost(h_y));
    return conf_finish();
}
