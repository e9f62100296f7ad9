// copy.cpp — copies and sets of device memory (cudaMemcpy and its 2D, peer,
// symbol and async forms, cudaMemset), synchronous or queued on streams, with
// CUDA's argument checks: pointers, ranges, and the direction against where
// the pointers really are (memory.cpp says where they are). Each opens only
// the device memory it touches (protect.cpp) and marks what it wrote for
// initcheck.
#include "check.hpp"
#include "internal.hpp"
#include "trace.hpp"
#include "memory.hpp"
#include "model.hpp"

#include <cstring>

namespace gpulab_sim
{
namespace
{

const char *kind_name(cudaMemcpyKind k)
{
    switch (k) {
    case cudaMemcpyHostToHost:
        return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice:
        return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost:
        return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice:
        return "cudaMemcpyDeviceToDevice";
    default:
        return "cudaMemcpyDefault";
    }
}

// The checks of every copy: pointers, ranges, and the direction against
// where the pointers really are.
cudaError_t check_copy(void *dst, size_t dst_n, const void *src, size_t src_n, cudaMemcpyKind kind,
                       const char *call)
{
    span ds, ss;
    if ((unsigned)kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (dst_n == 0 && src_n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    cudaError_t e = classify(dst, dst_n, &ds, "destination", call);
    if (e == cudaSuccess)
        e = classify(src, src_n, &ss, "source", call);
    if (e != cudaSuccess)
        return e;
    bool want_dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool want_src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind == cudaMemcpyDefault)
        return cudaSuccess;
    if (want_dst_dev && ds.kind != where::device) {
        report("%s with %s: the destination %p is not device memory", call, kind_name(kind), dst);
        return cudaErrorInvalidValue;
    }
    if (want_src_dev && ss.kind != where::device) {
        report("%s with %s: the source %p is not device memory", call, kind_name(kind), src);
        return cudaErrorInvalidValue;
    }
    if (!want_dst_dev && ds.kind == where::device && kind != cudaMemcpyHostToHost) {
        report("%s with %s: the destination %p is device memory, not host memory", call,
               kind_name(kind), dst);
        return cudaErrorInvalidValue;
    }
    if (!want_src_dev && ss.kind == where::device && kind != cudaMemcpyHostToHost) {
        report("%s with %s: the source %p is device memory, not host memory", call, kind_name(kind),
               src);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

cudaError_t copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind, cudaStream_t s,
                 bool wait, const char *call)
{
    int d;
    cudaError_t e = enter(&d, call);
    if (e != cudaSuccess)
        return e;
    e = check_copy(dst, n, src, n, kind, call);
    if (e != cudaSuccess || n == 0)
        return record(e, call);
    e = enqueue(s, call, [dst, src, n, s, call]() {
        device_memory_scope to(dst, n), from(src, n);
        memmove(dst, src, n);
        check_mark_init(dst, n);
        model_copy(s, dst, src, n, call);
        return cudaSuccess;
    });
    if (e == cudaSuccess && wait)
        e = stream_sync(s);
    return record(e, call);
}

cudaError_t set(void *p, int value, size_t n, cudaStream_t s, bool wait, const char *call)
{
    int d;
    span sp;
    cudaError_t e = enter(&d, call);
    if (e != cudaSuccess)
        return e;
    if (n == 0)
        return cudaSuccess;
    if (!p)
        return record(cudaErrorInvalidValue, call);
    e = classify(p, n, &sp, "destination", call);
    if (e == cudaSuccess && sp.kind != where::device) {
        report("%s: %p is not device memory", call, p);
        e = cudaErrorInvalidValue;
    }
    if (e != cudaSuccess)
        return record(e, call);
    e = enqueue(s, call, [p, value, n, s]() {
        device_memory_scope to(p, n);
        memset(p, value, n);
        check_mark_init(p, n);
        model_memset(s, n);
        return cudaSuccess;
    });
    if (e == cudaSuccess && wait)
        e = stream_sync(s);
    return record(e, call);
}

} // namespace
} // namespace gpulab_sim

using namespace gpulab_sim;

extern "C" {

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    gpulab_sim::trace_api api_call_("cudaMemcpy");
    return copy(dst, src, n, kind, 0, true, "cudaMemcpy");
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                            cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaMemcpyAsync");
    return copy(dst, src, n, kind, s, false, "cudaMemcpyAsync");
}

static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                           size_t height, cudaMemcpyKind kind, cudaStream_t s, bool wait)
{
    int d;
    cudaError_t e = enter(&d, "cudaMemcpy2D");
    if (e != cudaSuccess)
        return e;
    if (width > dpitch || width > spitch)
        return record(cudaErrorInvalidPitchValue, "cudaMemcpy2D");
    if (width == 0 || height == 0)
        return cudaSuccess;
    e = check_copy(dst, dpitch * (height - 1) + width, src, spitch * (height - 1) + width, kind,
                   "cudaMemcpy2D");
    if (e != cudaSuccess)
        return record(e, "cudaMemcpy2D");
    e = enqueue(s, "cudaMemcpy2D", [=]() {
        device_memory_scope to(dst, dpitch * (height - 1) + width),
            from(src, spitch * (height - 1) + width);
        for (size_t r = 0; r < height; r++) {
            memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
            check_mark_init((char *)dst + r * dpitch, width);
        }
        model_copy(s, dst, src, width * height, "cudaMemcpy2D");
        return cudaSuccess;
    });
    if (e == cudaSuccess && wait)
        e = stream_sync(s);
    return record(e, "cudaMemcpy2D");
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind)
{
    gpulab_sim::trace_api api_call_("cudaMemcpy2D");
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, 0, true);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaMemcpy2DAsync");
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, s, false);
}

// A 3D copy between pitched pointers, as slices of 2D copies. CUDA arrays
// (textures' memory) are not simulated.
static cudaError_t copy_3d(const cudaMemcpy3DParms *p, cudaStream_t s, bool wait, const char *call)
{
    if (!p)
        return record(cudaErrorInvalidValue, call);
    if (p->srcArray || p->dstArray) {
        report("%s: CUDA arrays (cudaArray_t) are not simulated", call);
        return record(cudaErrorNotSupported, call);
    }
    const cudaExtent &x = p->extent;
    size_t sslice = p->srcPtr.pitch * p->srcPtr.ysize, dslice = p->dstPtr.pitch * p->dstPtr.ysize;
    const char *src = (const char *)p->srcPtr.ptr + p->srcPos.z * sslice +
                      p->srcPos.y * p->srcPtr.pitch + p->srcPos.x;
    char *dst =
        (char *)p->dstPtr.ptr + p->dstPos.z * dslice + p->dstPos.y * p->dstPtr.pitch + p->dstPos.x;
    for (size_t z = 0; z < x.depth; z++) {
        cudaError_t e = copy_2d(dst + z * dslice, p->dstPtr.pitch, src + z * sslice,
                                p->srcPtr.pitch, x.width, x.height, p->kind, s, false);
        if (e != cudaSuccess)
            return e;
    }
    return wait ? record(stream_sync(s), call) : cudaSuccess;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p)
{
    gpulab_sim::trace_api api_call_("cudaMemcpy3D");
    return copy_3d(p, 0, true, "cudaMemcpy3D");
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaMemcpy3DAsync");
    return copy_3d(p, s, false, "cudaMemcpy3DAsync");
}

static cudaError_t copy_peer(void *dst, int dd, const void *src, int sd, size_t n, cudaStream_t s,
                             bool wait)
{
    allocation da, sa;
    if (!valid_device(dd) || !valid_device(sd))
        return record(cudaErrorInvalidDevice, "cudaMemcpyPeer");
    if (n == 0)
        return cudaSuccess;
    if (!range_in_allocation(dst, n, &da) || !range_in_allocation(src, n, &sa)) {
        report("cudaMemcpyPeer: %p or %p (+%zu bytes) is not inside a device allocation", dst, src,
               n);
        return record(cudaErrorInvalidValue, "cudaMemcpyPeer");
    }
    if ((!da.managed && da.device != dd) || (!sa.managed && sa.device != sd)) {
        report("cudaMemcpyPeer: the destination is memory of device %d and the source of device "
               "%d, but the call names devices %d and %d",
               da.device, sa.device, dd, sd);
        return record(cudaErrorInvalidValue, "cudaMemcpyPeer");
    }
    return copy(dst, src, n, cudaMemcpyDeviceToDevice, s, wait, "cudaMemcpyPeer");
}

cudaError_t cudaMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n)
{
    gpulab_sim::trace_api api_call_("cudaMemcpyPeer");
    cudaError_t e = copy_peer(dst, dd, src, sd, n, 0, true);
    if (e == cudaSuccess && dd != current_device())
        e = record(device_sync(dd));
    return e;
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dd, const void *src, int sd, size_t n,
                                cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaMemcpyPeerAsync");
    return copy_peer(dst, dd, src, sd, n, s, false);
}

cudaError_t cudaMemset(void *p, int value, size_t n)
{
    gpulab_sim::trace_api api_call_("cudaMemset");
    return set(p, value, n, 0, true, "cudaMemset");
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaMemsetAsync");
    return set(p, value, n, s, false, "cudaMemsetAsync");
}

// __constant__ and __device__ variables are host globals in the simulator;
// copies to and from them wait for the device, as CUDA's do.
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset,
                               cudaMemcpyKind kind)
{
    gpulab_sim::trace_api api_call_("cudaMemcpyToSymbol");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return record(cudaErrorInvalidMemcpyDirection);
    if (!symbol || (!src && n))
        return record(cudaErrorInvalidSymbol);
    e = device_sync(d); // a blocking copy: the error of work before it shows here
    if (e != cudaSuccess)
        return record(e);
    device_memory_scope open(src, n); // src may be device memory (cudaMemcpyDeviceToDevice)
    memmove((char *)symbol + offset, src, n);
    return cudaSuccess;
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset,
                                 cudaMemcpyKind kind)
{
    gpulab_sim::trace_api api_call_("cudaMemcpyFromSymbol");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return record(cudaErrorInvalidMemcpyDirection);
    if (!symbol || (!dst && n))
        return record(cudaErrorInvalidSymbol);
    e = device_sync(d); // a blocking copy: the error of work before it shows here
    if (e != cudaSuccess)
        return record(e);
    device_memory_scope open(dst, n); // dst may be device memory (cudaMemcpyDeviceToDevice)
    memmove(dst, (const char *)symbol + offset, n);
    return cudaSuccess;
}
} // extern "C"
