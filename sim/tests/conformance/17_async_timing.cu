// 17_async_timing — the asynchronous-launch timing trap: a launch returns
// before its kernel ends. A ~50 ms kernel: the launch call takes a small part
// of the time measured after cudaDeviceSynchronize, and the event recorded after it is NotReady.
#include "conformance.h"

#define SPIN_CYCLES 100000000LL // ~50 ms at GPU clocks (and at 2-3 GHz on the simulator)

__global__ void spin(long long cycles, long long *out)
{
    long long start = clock64(), now = start;
    while (now - start < cycles)
        now = clock64();
    *out = now - start;
}

int main(void)
{
    conf_require_device();

    long long *d_out, h_out = 0;
    cudaEvent_t start, stop;
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(long long)));
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    spin<<<1, 1>>>(0, d_out); // warm-up: module loading is not what we measure
    CHECK_CUDA(cudaDeviceSynchronize());

    double t0 = conf_now_ms();
    CHECK_CUDA(cudaEventRecord(start, 0));
    spin<<<1, 1>>>(SPIN_CYCLES, d_out);
    double t_launch = conf_now_ms() - t0;
    CHECK_CUDA(cudaEventRecord(stop, 0));
    cudaError_t q = cudaEventQuery(stop);
    CHECK_CUDA(cudaDeviceSynchronize());
    double t_total = conf_now_ms() - t0;
    float ev_ms = -1.0f;
    CHECK_CUDA(cudaEventElapsedTime(&ev_ms, start, stop));
    CHECK_CUDA(cudaMemcpy(&h_out, d_out, sizeof(long long), cudaMemcpyDeviceToHost));

    printf("launch call: %.3f ms, launch + synchronize: %.3f ms (CPU wall clock); "
           "kernel: %.3f ms (CUDA events; CPU time on the simulator)\n",
           t_launch, t_total, ev_ms);
    conf_check(h_out >= SPIN_CYCLES, "kernel spun %lld cycles, expected >= %lld", h_out,
               SPIN_CYCLES);
    conf_check_err(q, cudaErrorNotReady);
    conf_check(t_total >= 10.0, "launch + synchronize took %.3f ms; the kernel should take ~50",
               t_total);
    conf_check(t_launch < 0.5 * t_total,
               "the launch call took %.3f ms of %.3f ms: it waited for the kernel", t_launch,
               t_total);
    conf_check(ev_ms >= 5.0f, "events measured %.3f ms for a ~50 ms kernel", ev_ms);

    CHECK_CUDA(cudaEventDestroy(start));
    CHECK_CUDA(cudaEventDestroy(stop));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
