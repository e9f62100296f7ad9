// 16_stream_wait_event — events order work across streams: stream 2 waits
// (cudaStreamWaitEvent) for an event recorded after a slow kernel in stream 1;
// cudaEventElapsedTime is >= 0 around it; timing rules of disabled/unrecorded events.
#include "conformance.h"

#define N 2048
#define SPIN_CYCLES 20000000LL // ~10 ms at GPU clocks

__global__ void slow_fill(int *x, int n, int value)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long start = clock64();
        while (clock64() - start < SPIN_CYCLES) {
        }
        for (int i = 0; i < n; i++)
            x[i] = value + i;
    }
}

__global__ void copy_times3(const int *x, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 3 * x[i];
}

int main(void)
{
    conf_require_device();

    cudaStream_t s1, s2;
    cudaEvent_t start, ready, no_timing, never_recorded;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&ready));
    CHECK_CUDA(cudaEventCreateWithFlags(&no_timing, cudaEventDisableTiming));
    CHECK_CUDA(cudaEventCreate(&never_recorded));

    int *d_x, *d_y;
    static int h_y[N];
    CHECK_CUDA(cudaMalloc(&d_x, N * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_y, N * sizeof(int)));
    CHECK_CUDA(cudaMemset(d_x, 0, N * sizeof(int)));
    CHECK_CUDA(cudaDeviceSynchronize());

    CHECK_CUDA(cudaEventRecord(start, s1));
    slow_fill<<<1, 32, 0, s1>>>(d_x, N, 1000);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(ready, s1));
    CHECK_CUDA(cudaEventRecord(no_timing, s1));
    CHECK_CUDA(cudaStreamWaitEvent(s2, ready, 0));
    copy_times3<<<(N + 255) / 256, 256, 0, s2>>>(d_x, d_y, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(h_y, d_y, N * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CHECK_CUDA(cudaStreamSynchronize(s2)); // only s2: the event wait must cover s1's kernel

    for (int i = 0; i < N; i++)
        conf_check(h_y[i] == 3 * (1000 + i), "y[%d] = %d, expected %d (read before s1's kernel?)",
                   i, h_y[i], 3 * (1000 + i));

    CHECK_CUDA(cudaEventSynchronize(ready));
    conf_check_err(cudaEventQuery(ready), cudaSuccess);
    float ms = -1.0f;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, ready));
    conf_check(ms >= 0.0f, "elapsed %g ms, expected >= 0", ms);
    printf("event time around the slow kernel: %.3f ms (CUDA events; on the simulator, CPU time)\n",
           ms);

    // CUDA's rules: no timing through an event created with DisableTiming, nor
    // through one never recorded (a never-recorded event queries as complete).
    CHECK_CUDA(cudaEventSynchronize(no_timing));
    conf_check_err(cudaEventElapsedTime(&ms, start, no_timing), cudaErrorInvalidResourceHandle);
    conf_check_err(cudaEventQuery(never_recorded), cudaSuccess);
    conf_check_err(cudaEventElapsedTime(&ms, start, never_recorded),
                   cudaErrorInvalidResourceHandle);
    cudaGetLastError(); // those errors are not sticky; clear the last error

    CHECK_CUDA(cudaEventDestroy(start));
    CHECK_CUDA(cudaEventDestroy(ready));
    CHECK_CUDA(cudaEventDestroy(no_timing));
    CHECK_CUDA(cudaEventDestroy(never_recorded));
    CHECK_CUDA(cudaStreamDestroy(s1));
    CHECK_CUDA(cudaStreamDestroy(s2));
    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_y));
    return conf_finish();
}
