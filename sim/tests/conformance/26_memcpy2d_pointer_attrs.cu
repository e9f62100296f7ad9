// 26_memcpy2d_pointer_attrs — cudaMemcpy2D between buffers of different
// pitches (and a cudaMallocPitch pitch), cudaPointerGetAttributes for device,
// pinned, managed and plain host memory, and cudaMemGetInfo after a 64 MiB cudaMalloc.
#include "conformance.h"

#define W 37         // floats per row copied
#define H 11         // rows
#define SRC_PITCH 50 // floats
#define DST_PITCH 41 // floats

int main(void)
{
    conf_require_device();

    // 2-D copies: host (pitch 50) -> device (cudaMallocPitch) -> host (pitch 41).
    static float src[H * SRC_PITCH], dst[H * DST_PITCH];
    for (int i = 0; i < H * SRC_PITCH; i++)
        src[i] = (float)i;
    for (int i = 0; i < H * DST_PITCH; i++)
        dst[i] = -1.0f;
    float *d;
    size_t pitch = 0;
    CHECK_CUDA(cudaMallocPitch((void **)&d, &pitch, W * sizeof(float), H));
    conf_check(pitch >= W * sizeof(float), "pitch %zu < row width %zu", pitch, W * sizeof(float));
    CHECK_CUDA(cudaMemcpy2D(d, pitch, src, SRC_PITCH * sizeof(float), W * sizeof(float), H,
                            cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy2D(dst, DST_PITCH * sizeof(float), d, pitch, W * sizeof(float), H,
                            cudaMemcpyDeviceToHost));
    for (int r = 0; r < H; r++)
        for (int c = 0; c < DST_PITCH; c++) {
            float want = c < W ? src[r * SRC_PITCH + c] : -1.0f; // padding untouched
            conf_check(dst[r * DST_PITCH + c] == want, "2-D copy [%d][%d] = %g, expected %g", r, c,
                       dst[r * DST_PITCH + c], want);
        }
    // dpitch < width: the runtime documents cudaErrorInvalidPitchValue; the
    // driver's own check would say cudaErrorInvalidValue.
    cudaError_t e = cudaMemcpy2D(dst, 4, src, SRC_PITCH * sizeof(float), W * sizeof(float), H,
                                 cudaMemcpyHostToHost);
    conf_check(e == cudaErrorInvalidPitchValue || e == cudaErrorInvalidValue,
               "cudaMemcpy2D with dpitch < width: %s", cudaGetErrorName(e));
    cudaGetLastError();

    // What a pointer is.
    float *pinned, *managed;
    CHECK_CUDA(cudaMallocHost(&pinned, 256));
    CHECK_CUDA(cudaMallocManaged(&managed, 256));
    float *plain = (float *)malloc(256);
    struct cudaPointerAttributes a;
    CHECK_CUDA(cudaPointerGetAttributes(&a, d));
    conf_check(a.type == cudaMemoryTypeDevice && a.device == 0 && a.devicePointer == d,
               "device pointer: type %d device %d", (int)a.type, a.device);
    CHECK_CUDA(cudaPointerGetAttributes(&a, (char *)d + 8)); // interior pointers count
    conf_check(a.type == cudaMemoryTypeDevice, "interior device pointer: type %d", (int)a.type);
    CHECK_CUDA(cudaPointerGetAttributes(&a, pinned));
    conf_check(a.type == cudaMemoryTypeHost && a.hostPointer == pinned, "pinned pointer: type %d",
               (int)a.type);
    CHECK_CUDA(cudaPointerGetAttributes(&a, managed));
    conf_check(a.type == cudaMemoryTypeManaged, "managed pointer: type %d", (int)a.type);
    CHECK_CUDA(cudaPointerGetAttributes(&a, plain));
    conf_check(a.type == cudaMemoryTypeUnregistered, "malloc'd pointer: type %d", (int)a.type);

    // Free memory goes down by about what was allocated.
    size_t free0, total0, free1, total1, big = (size_t)64 << 20;
    void *blob;
    CHECK_CUDA(cudaMemGetInfo(&free0, &total0));
    CHECK_CUDA(cudaMalloc(&blob, big));
    CHECK_CUDA(cudaMemGetInfo(&free1, &total1));
    conf_check(total0 > 0 && total1 == total0 && free0 <= total0, "total %zu then %zu, free %zu",
               total0, total1, free0);
    conf_check(free1 < free0 && free0 - free1 >= big / 2,
               "free went from %zu to %zu after a %zu-byte cudaMalloc", free0, free1, big);

    CHECK_CUDA(cudaFree(blob));
    CHECK_CUDA(cudaFree(d));
    CHECK_CUDA(cudaFreeHost(pinned));
    CHECK_CUDA(cudaFree(managed));
    free(plain);
    return conf_finish();
}
