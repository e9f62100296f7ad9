// clang-format off
// EXPECT-OUTPUT: PASS errors_at_sync
// clang-format on
// errors_at_sync — simulator only: an error raised while a kernel runs (a
// host pointer argument, a wild pointer, a failed assert, a divergent
// barrier) reaches the host at the first call that synchronizes with the
// kernel, the same way in every run. The mistake this guards is a student's
// `cudaGetLastError()` where `cudaDeviceSynchronize()` was due: it must see
// cudaSuccess every time (the kernel was only queued), and the synchronizing
// call the error, never one or the other depending on how fast the kernel ran.
//
// 200 rounds in one process, cudaDeviceReset between them: each round makes
// one of the four faults, waits or not before looking (half of the rounds
// sleep 1 ms, which gives the kernel time to finish), then checks
//   cudaGetLastError()       cudaSuccess  (the launch itself was fine)
//   cudaMalloc               cudaSuccess  (does not synchronize)
//   the synchronizing call   the fault's error
//   cudaMalloc again         the same error (sticky)
// The synchronizing call is one of cudaDeviceSynchronize, cudaStreamSynchronize,
// cudaEventSynchronize, a blocking cudaMemcpy, cudaMemcpyFromSymbol, cudaFree
// (which waits for the device), or cudaStreamQuery polled until it stops
// saying cudaErrorNotReady. On a GPU cudaGetLastError right after the
// launch usually sees nothing yet either, but not always: so simulator only.
#include <cuda_runtime.h>

#undef NDEBUG // assert must stay on whatever the build type
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ROUNDS 200
#define N 256

__device__ int device_word[1]; // read back by cudaMemcpyFromSymbol

__global__ void write_ids(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i;
}

__global__ void must_be_positive(const int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(p[i] > 0);
}

__global__ void diverge(int *p)
{
    if (threadIdx.x < 16)
        __syncthreads();
    else
        __syncthreads();
    p[threadIdx.x] = 1;
}

enum fault { HOST_POINTER, WILD_POINTER, ASSERT, BARRIER, FAULTS };
static const char *fault_name[FAULTS] = { "host pointer argument", "wild pointer", "failed assert",
                                          "divergent barrier" };
static const cudaError_t fault_error[FAULTS] = { cudaErrorIllegalAddress, cudaErrorIllegalAddress,
                                                 cudaErrorAssert, cudaErrorSynchronizationError };

enum sync_call {
    DEVICE_SYNC,
    STREAM_SYNC,
    EVENT_SYNC,
    BLOCKING_COPY,
    FROM_SYMBOL,
    FREE,
    QUERY_LOOP,
    SYNCS
};
static const char *sync_name[SYNCS] = { "cudaDeviceSynchronize",     "cudaStreamSynchronize",
                                        "cudaEventSynchronize",      "cudaMemcpy (blocking)",
                                        "cudaMemcpyFromSymbol",      "cudaFree",
                                        "cudaStreamQuery until done" };

// Queues a kernel that fails with fault f; d is a device buffer of N ints, set to 0.
static void launch_fault(enum fault f, int *d, int *h)
{
    switch (f) {
    case HOST_POINTER:
        write_ids<<<N / 64, 64>>>(h, N);
        break;
    case WILD_POINTER:
        write_ids<<<N / 64, 64>>>((int *)NULL, N);
        break;
    case ASSERT:
        must_be_positive<<<N / 64, 64>>>(d, N);
        break;
    default:
        diverge<<<1, 32>>>(d);
        break;
    }
}

static cudaError_t synchronize(enum sync_call s, cudaEvent_t ev, int *d, int *h)
{
    cudaError_t e;
    switch (s) {
    case DEVICE_SYNC:
        return cudaDeviceSynchronize();
    case STREAM_SYNC:
        return cudaStreamSynchronize(0);
    case EVENT_SYNC:
        e = cudaEventRecord(ev, 0);
        return e != cudaSuccess ? e : cudaEventSynchronize(ev);
    case BLOCKING_COPY:
        return cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
    case FROM_SYMBOL:
        return cudaMemcpyFromSymbol(h, device_word, sizeof(int));
    case FREE:
        return cudaFree(d); // it waits for the device first
    default:
        while ((e = cudaStreamQuery(0)) == cudaErrorNotReady)
            usleep(100);
        return e;
    }
}

int main(void)
{
    int *h = (int *)calloc(N, sizeof(int));
    int failures = 0;
    for (int round = 0; round < ROUNDS; round++) {
        enum fault f = (enum fault)(round % FAULTS);
        enum sync_call s = (enum sync_call)(round / FAULTS % SYNCS);
        int wait = round / (FAULTS * SYNCS) % 2;
        int *d = NULL, *extra = NULL, *late = NULL;
        cudaEvent_t ev = NULL;
        if (cudaMalloc((void **)&d, N * sizeof(int)) != cudaSuccess ||
            cudaMemset(d, 0, N * sizeof(int)) != cudaSuccess ||
            cudaEventCreate(&ev) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
            printf("FAIL round %d: could not set up\n", round);
            return 1;
        }
        fflush(stdout);
        launch_fault(f, d, h);
        if (wait)
            usleep(1000); // long enough for the kernel to have finished
        cudaError_t got[4], want[4] = { cudaSuccess, cudaSuccess, fault_error[f], fault_error[f] };
        got[0] = cudaGetLastError();
        got[1] = cudaMalloc((void **)&extra, 4);
        got[2] = synchronize(s, ev, d, h);
        got[3] = cudaMalloc((void **)&late, 4);
        static const char *step[4] = { "cudaGetLastError after the launch",
                                       "cudaMalloc before synchronizing", "the synchronizing call",
                                       "cudaMalloc after it (sticky)" };
        for (int k = 0; k < 4; k++) {
            if (got[k] == want[k])
                continue;
            if (++failures <= 10)
                printf("FAIL round %d (%s, %s, %s): %s returned %s, expected %s\n", round,
                       fault_name[f], sync_name[s], wait ? "after 1 ms" : "at once", step[k],
                       cudaGetErrorName(got[k]), cudaGetErrorName(want[k]));
        }
        cudaDeviceReset(); // frees d, extra and the event
        cudaGetLastError();
    }
    free(h);
    printf("%s errors_at_sync (%d rounds, %d wrong answers)\n", failures ? "FAIL" : "PASS", ROUNDS,
           failures);
    return failures ? 1 : 0;
}
