// model_engines — simulator only, run with GPULAB_SIM_MODEL=t4: copies on two
// streams share the GPU's copy engines. Two host-to-device copies side by side
// take as long as one after the other (one engine per direction), a
// host-to-device and a device-to-host copy overlap (an engine each, and the
// link carries both directions at once), and two device-to-device copies
// share the device memory's bandwidth.
#include <cuda_runtime.h>

#include <stdio.h>

#define BYTES (64u << 20)

static int failures;

// Modeled ms from an event on the legacy stream to the later of two events
// recorded after `first` on stream a and `second` on stream b.
static float side_by_side(void *dst[2], const void *src[2], cudaMemcpyKind kind[2], cudaStream_t a,
                          cudaStream_t b)
{
    cudaEvent_t e0, ea, eb;
    cudaEventCreate(&e0);
    cudaEventCreate(&ea);
    cudaEventCreate(&eb);
    cudaEventRecord(e0, 0);
    cudaMemcpyAsync(dst[0], src[0], BYTES, kind[0], a);
    cudaEventRecord(ea, a);
    if (b) {
        cudaMemcpyAsync(dst[1], src[1], BYTES, kind[1], b);
        cudaEventRecord(eb, b);
    } else {
        cudaEventRecord(eb, a);
    }
    cudaEventSynchronize(ea);
    cudaEventSynchronize(eb);
    float ta = 0, tb = 0;
    cudaEventElapsedTime(&ta, e0, ea);
    cudaEventElapsedTime(&tb, e0, eb);
    cudaEventDestroy(e0);
    cudaEventDestroy(ea);
    cudaEventDestroy(eb);
    return ta > tb ? ta : tb;
}

static void check(int ok, const char *what, float got, float one)
{
    printf("%s: %.3f ms (one copy alone: %.3f ms)\n", what, got, one);
    if (!ok) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

int main(void)
{
    void *h[2], *d[4];
    cudaStream_t a, b;
    for (int i = 0; i < 2; i++)
        cudaMallocHost(&h[i], BYTES);
    for (int i = 0; i < 4; i++)
        cudaMalloc(&d[i], BYTES);
    cudaStreamCreate(&a);
    cudaStreamCreate(&b);
    cudaMemcpyKind up[2] = { cudaMemcpyHostToDevice, cudaMemcpyHostToDevice };
    cudaMemcpyKind both[2] = { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost };
    cudaMemcpyKind dd[2] = { cudaMemcpyDeviceToDevice, cudaMemcpyDeviceToDevice };

    void *to_dev[2] = { d[0], d[1] };
    const void *from_host[2] = { h[0], h[1] };
    float one_up = side_by_side(to_dev, from_host, up, a, nullptr);
    float two_up = side_by_side(to_dev, from_host, up, a, b);
    check(two_up > 1.95f * one_up, "two host-to-device copies on two streams", two_up, one_up);

    void *mixed_dst[2] = { d[0], h[1] };
    const void *mixed_src[2] = { h[0], d[1] };
    float mixed = side_by_side(mixed_dst, mixed_src, both, a, b);
    check(mixed < 1.5f * one_up, "a host-to-device and a device-to-host copy", mixed, one_up);

    void *dd_dst[2] = { d[2], d[3] };
    const void *dd_src[2] = { d[0], d[1] };
    float one_dd = side_by_side(dd_dst, dd_src, dd, a, nullptr);
    float two_dd = side_by_side(dd_dst, dd_src, dd, a, b);
    check(two_dd > 1.95f * one_dd, "two device-to-device copies on two streams", two_dd, one_dd);

    printf("%s model_engines\n", failures ? "FAIL" : "PASS");
    for (int i = 0; i < 2; i++)
        cudaFreeHost(h[i]);
    for (int i = 0; i < 4; i++)
        cudaFree(d[i]);
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    return failures ? 1 : 0;
}
