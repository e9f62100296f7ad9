// 37_host_callbacks — host functions in a stream run in stream order:
// cudaLaunchHostFunc after a slow kernel and a copy sees the copied data, work
// queued after it waits for it, and cudaStreamAddCallback reports cudaSuccess.
#include "conformance.h"

#define N 1024
#define SPIN_CYCLES 20000000LL // ~10 ms at GPU clocks

struct record {
    volatile int calls;     // how many host functions have run
    volatile int sum;       // what the first one saw in the copied buffer
    volatile int sum_at;    // its position in the sequence
    volatile int status;    // the callback's status argument
    volatile int status_at; // the callback's position
    const int *h_buf;       // pinned, filled by the copy before the first function
    int *h_flag;            // pinned, written by the first function, read by a kernel after it
};

__global__ void slow_iota(int *x, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long start = clock64();
        while (clock64() - start < SPIN_CYCLES) {
        }
        for (int i = 0; i < n; i++)
            x[i] = i;
    }
}

__global__ void read_flag(const int *flag, int *out)
{
    *out = *flag;
}

static void sum_buffer(void *user)
{
    struct record *r = (struct record *)user;
    int s = 0;
    for (int i = 0; i < N; i++)
        s += r->h_buf[i];
    r->sum = s;
    *r->h_flag = 77;
    r->sum_at = ++r->calls;
}

static void note_status(cudaStream_t stream, cudaError_t status, void *user)
{
    struct record *r = (struct record *)user;
    (void)stream;
    r->status = (int)status;
    r->status_at = ++r->calls;
}

int main(void)
{
    conf_require_device();

    int *d_x, *h_buf, *h_flag, *d_flag_out, flag_out = 0;
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    CHECK_CUDA(cudaMalloc(&d_x, N * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_flag_out, sizeof(int)));
    CHECK_CUDA(cudaMallocHost(&h_buf, N * sizeof(int)));
    CHECK_CUDA(cudaMallocHost(&h_flag, sizeof(int)));
    memset(h_buf, 0, N * sizeof(int));
    *h_flag = 0;
    struct record r;
    memset(&r, 0, sizeof(r));
    r.status = -1;
    r.h_buf = h_buf;
    r.h_flag = h_flag;

    slow_iota<<<1, 32, 0, s>>>(d_x, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(h_buf, d_x, N * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaLaunchHostFunc(s, sum_buffer, &r));
    read_flag<<<1, 1, 0, s>>>(h_flag, d_flag_out); // must run after sum_buffer returned
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaStreamAddCallback(s, note_status, &r, 0));
    conf_check(r.calls == 0, "a host function ran at enqueue time, before the slow kernel ended");
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaMemcpy(&flag_out, d_flag_out, sizeof(int), cudaMemcpyDeviceToHost));

    conf_check(r.sum == N * (N - 1) / 2, "the host function saw sum %d, expected %d", r.sum,
               N * (N - 1) / 2);
    conf_check(r.sum_at == 1 && r.status_at == 2, "order: host function %d, callback %d", r.sum_at,
               r.status_at);
    conf_check(r.status == (int)cudaSuccess, "callback status %d, expected cudaSuccess", r.status);
    conf_check(flag_out == 77, "the kernel after the host function read %d, expected 77", flag_out);

    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_flag_out));
    CHECK_CUDA(cudaFreeHost(h_buf));
    CHECK_CUDA(cudaFreeHost(h_flag));
    return conf_finish();
}
