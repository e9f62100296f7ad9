// 20_peer_copy — two devices: cudaSetDevice selects where cudaMalloc allocates,
// cudaMemcpyPeer(Async) copies between them, and after cudaDeviceEnablePeerAccess
// a kernel on device 1 reads device 0's memory. (Skipped with fewer than 2 devices.)
// DEVICES: 2
#include "conformance.h"

#define N 4096

__global__ void scale_from(const float *src, float *dst, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = a * src[i];
}

int main(void)
{
    conf_require_devices(2);

    static float h_a[N], h_b[N];
    for (int i = 0; i < N; i++)
        h_a[i] = (float)i * 0.5f - 7.0f;
    size_t bytes = sizeof(h_a);

    float *d0, *d1, *d1b;
    CHECK_CUDA(cudaSetDevice(0));
    CHECK_CUDA(cudaMalloc(&d0, bytes));
    CHECK_CUDA(cudaMemcpy(d0, h_a, bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaSetDevice(1));
    int dev = -1;
    CHECK_CUDA(cudaGetDevice(&dev));
    conf_check(dev == 1, "cudaGetDevice gave %d after cudaSetDevice(1)", dev);
    CHECK_CUDA(cudaMalloc(&d1, bytes));
    CHECK_CUDA(cudaMalloc(&d1b, bytes));

    struct cudaPointerAttributes attr;
    CHECK_CUDA(cudaPointerGetAttributes(&attr, d0));
    conf_check(attr.type == cudaMemoryTypeDevice && attr.device == 0,
               "d0: type %d on device %d, expected device memory on 0", (int)attr.type,
               attr.device);
    CHECK_CUDA(cudaPointerGetAttributes(&attr, d1));
    conf_check(attr.type == cudaMemoryTypeDevice && attr.device == 1,
               "d1: type %d on device %d, expected device memory on 1", (int)attr.type,
               attr.device);

    // Peer copies need no peer access.
    CHECK_CUDA(cudaMemcpyPeer(d1, 1, d0, 0, bytes));
    CHECK_CUDA(cudaMemcpy(h_b, d1, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        conf_check(h_b[i] == h_a[i], "cudaMemcpyPeer: [%d] = %g, expected %g", i, h_b[i], h_a[i]);
    CHECK_CUDA(cudaMemset(d1b, 0, bytes));
    CHECK_CUDA(cudaMemcpyPeerAsync(d1b, 1, d0, 0, bytes / 2, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(h_b, d1b, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float want = i < N / 2 ? h_a[i] : 0.0f;
        conf_check(h_b[i] == want, "cudaMemcpyPeerAsync: [%d] = %g, expected %g", i, h_b[i], want);
    }

    int can = 0;
    CHECK_CUDA(cudaDeviceCanAccessPeer(&can, 1, 0));
    printf("device 1 can access device 0: %d\n", can);
    if (can) {
        CHECK_CUDA(cudaDeviceEnablePeerAccess(0, 0)); // current device (1) may access 0
        conf_check_err(cudaDeviceEnablePeerAccess(0, 0), cudaErrorPeerAccessAlreadyEnabled);
        conf_check_err(cudaGetLastError(), cudaErrorPeerAccessAlreadyEnabled);
        scale_from<<<(N + 255) / 256, 256>>>(d0, d1, N, 3.0f);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(h_b, d1, bytes, cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++)
            conf_check(h_b[i] == 3.0f * h_a[i], "peer read: [%d] = %g, expected %g", i, h_b[i],
                       3.0f * h_a[i]);
        CHECK_CUDA(cudaDeviceDisablePeerAccess(0));
        conf_check_err(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
        cudaGetLastError();
    } else {
        printf("peer access unsupported between these devices: kernel part not run\n");
    }

    CHECK_CUDA(cudaFree(d1));
    CHECK_CUDA(cudaFree(d1b));
    CHECK_CUDA(cudaSetDevice(0));
    CHECK_CUDA(cudaFree(d0));
    return conf_finish();
}
