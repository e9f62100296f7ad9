// texture.cpp — CUDA arrays, texture objects and the texture fetch
// (docs/simulator.md).
//
// A CUDA array is device memory laid out in rows (the simulator's own
// layout: a GPU's is opaque), filled and read back with the array copies. A
// texture object reads an array, a pitched 2D allocation or linear memory the
// way the Programming Guide's texture-fetching appendix describes: point
// filtering takes the texel the coordinate falls in; linear filtering blends
// the 2, 4 or 8 nearest texels with weights kept, as the hardware keeps them,
// in 9-bit fixed point (8 fractional bits); coordinates outside the texture
// wrap, mirror, clamp or read the border colour as the address mode says
// (wrap and mirror need normalized coordinates; without them a GPU clamps).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>

#include "internal.hpp"
#include "trace.hpp"

struct cudaArray {
    cudaChannelFormatDesc desc;
    size_t width, height, depth; // height, depth: 0 for fewer dimensions, as CUDA reports
    size_t elem;                 // bytes of one element
    unsigned flags;
    char *data; // device memory, rows of width * elem bytes
};

namespace
{

using gpulab_sim::record;
using gpulab_sim::report;

struct texture {
    char *base;
    size_t pitch, slice; // bytes between rows, and between 2D slices
    size_t size[3];      // texels in each dimension (1 for the unused ones)
    int dims;            // 1, 2 or 3
    cudaChannelFormatDesc desc;
    size_t elem;          // bytes of one texel
    cudaResourceDesc res; // as given, for cudaGetTextureObjectResourceDesc
    cudaTextureDesc tex;
};

std::mutex textures_mutex;
std::set<const texture *> textures;
std::set<const cudaArray *> arrays;

int channels(const cudaChannelFormatDesc &d)
{
    return (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0);
}

// Whether d is a format the simulator reads: 1, 2 or 4 channels of the same
// 8, 16 or 32 bits (32 for floats).
bool valid_format(const cudaChannelFormatDesc &d)
{
    int n = channels(d);
    if (n == 0 || n == 3 || d.f == cudaChannelFormatKindNone)
        return false;
    if (d.x != 8 && d.x != 16 && d.x != 32)
        return false;
    if (d.f == cudaChannelFormatKindFloat && d.x != 32 && d.x != 16)
        return false;
    return (n < 2 || d.y == d.x) && (n < 4 || (d.z == d.x && d.w == d.x));
}

size_t element_bytes(const cudaChannelFormatDesc &d)
{
    return (size_t)(d.x + d.y + d.z + d.w) / 8;
}

float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, bits;
    if (e == 0) {
        if (m == 0) {
            bits = sign;
        } else { // subnormal
            e = 127 - 15 + 1;
            while (!(m & 0x400)) {
                m <<= 1;
                e--;
            }
            bits = sign | (e << 23) | ((m & 0x3ff) << 13);
        }
    } else if (e == 31) {
        bits = sign | 0x7f800000u | (m << 13);
    } else {
        bits = sign | ((e + 127 - 15) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

// Channel c of the texel at p as a float: its value, or in normalized-float
// read mode an integer channel scaled to [0, 1] (unsigned) or [-1, 1] (signed).
float channel(const texture &t, const char *p, int c)
{
    int bits = t.desc.x;
    const char *q = p + (size_t)c * bits / 8;
    bool norm = t.tex.readMode == cudaReadModeNormalizedFloat;
    switch (t.desc.f) {
    case cudaChannelFormatKindFloat:
        if (bits == 16) {
            uint16_t h;
            memcpy(&h, q, 2);
            return half_to_float(h);
        } else {
            float f;
            memcpy(&f, q, 4);
            return f;
        }
    case cudaChannelFormatKindSigned: {
        int64_t v = bits == 8 ? *(const int8_t *)q : 0;
        if (bits == 16) {
            int16_t s;
            memcpy(&s, q, 2);
            v = s;
        } else if (bits == 32) {
            int32_t s;
            memcpy(&s, q, 4);
            v = s;
        }
        if (norm && bits < 32) {
            float m = bits == 8 ? 127.0f : 32767.0f;
            return std::fmax((float)v / m, -1.0f);
        }
        return (float)v;
    }
    default: {
        uint64_t v = bits == 8 ? *(const uint8_t *)q : 0;
        if (bits == 16) {
            uint16_t s;
            memcpy(&s, q, 2);
            v = s;
        } else if (bits == 32) {
            uint32_t s;
            memcpy(&s, q, 4);
            v = s;
        }
        if (norm && bits < 32)
            return (float)v / (bits == 8 ? 255.0f : 65535.0f);
        return (float)v;
    }
    }
}

// Texel index i of a dimension of n texels under an address mode; false
// for the border.
bool address(long long i, long long n, cudaTextureAddressMode mode, bool normalized, long long *out)
{
    if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror))
        mode = cudaAddressModeClamp; // a GPU clamps unnormalized coordinates in these modes
    switch (mode) {
    case cudaAddressModeWrap:
        *out = ((i % n) + n) % n;
        return true;
    case cudaAddressModeMirror: {
        long long m = ((i % (2 * n)) + 2 * n) % (2 * n);
        *out = m < n ? m : 2 * n - 1 - m;
        return true;
    }
    case cudaAddressModeBorder:
        *out = i;
        return i >= 0 && i < n;
    default:
        *out = i < 0 ? 0 : (i >= n ? n - 1 : i);
        return true;
    }
}

// The texel at integer coordinates (already addressed), or null for the border.
const char *texel_at(const texture &t, const long long *i, const bool *inside)
{
    for (int d = 0; d < t.dims; d++)
        if (!inside[d])
            return nullptr;
    return t.base + (size_t)i[2] * t.slice + (size_t)i[1] * t.pitch + (size_t)i[0] * t.elem;
}

void texel_floats(const texture &t, const char *p, float *v)
{
    int n = channels(t.desc);
    for (int c = 0; c < 4; c++)
        v[c] = p ? (c < n ? channel(t, p, c) : 0.0f) : t.tex.borderColor[c];
}

// Rounds a filtering weight to the hardware's 9-bit fixed point (8 fractional bits).
float weight(float a)
{
    return std::round(a * 256.0f) / 256.0f;
}

} // namespace

extern "C" void gpulab_sim_tex_fetch(cudaTextureObject_t handle, int dims, float x, float y,
                                     float z, int integer_index, gpulab_sim_texel *out)
{
    const texture &t = *(const texture *)(uintptr_t)handle;
    memset(out, 0, sizeof(*out));
    float c[3] = { x, y, z };
    bool normalized = t.tex.normalizedCoords && !integer_index;
    for (int d = 0; d < 3; d++)
        if (normalized && d < dims)
            c[d] *= (float)t.size[d];
    if (integer_index) {
        // tex1Dfetch: an element index into linear memory; outside it, zero.
        long long i = (long long)x;
        if (i < 0 || (size_t)i >= t.size[0])
            return;
        const char *p = t.base + (size_t)i * t.elem;
        if (t.tex.readMode == cudaReadModeElementType) {
            out->raw = 1;
            memcpy(out->bytes, p, t.elem < sizeof(out->bytes) ? t.elem : sizeof(out->bytes));
        } else {
            texel_floats(t, p, out->v);
        }
        return;
    }
    long long base[3] = { 0, 0, 0 };
    float frac[3] = { 0, 0, 0 };
    bool linear = t.tex.filterMode == cudaFilterModeLinear;
    for (int d = 0; d < dims; d++) {
        float b = linear ? c[d] - 0.5f : c[d];
        float f = std::floor(b);
        base[d] = (long long)f;
        frac[d] = linear ? weight(b - f) : 0.0f;
    }
    if (!linear) {
        long long i[3] = { 0, 0, 0 };
        bool inside[3] = { true, true, true };
        for (int d = 0; d < dims; d++)
            inside[d] =
                address(base[d], (long long)t.size[d], t.tex.addressMode[d], normalized, &i[d]);
        const char *p = texel_at(t, i, inside);
        if (p && t.tex.readMode == cudaReadModeElementType) {
            out->raw = 1;
            memcpy(out->bytes, p, t.elem < sizeof(out->bytes) ? t.elem : sizeof(out->bytes));
        } else {
            texel_floats(t, p, out->v);
        }
        return;
    }
    // Linear: the 2^dims corners, each weighted by its share in every dimension.
    for (int corner = 0; corner < (1 << dims); corner++) {
        long long i[3] = { 0, 0, 0 };
        bool inside[3] = { true, true, true };
        float w = 1.0f;
        for (int d = 0; d < dims; d++) {
            int up = corner >> d & 1;
            w *= up ? frac[d] : 1.0f - frac[d];
            inside[d] = address(base[d] + up, (long long)t.size[d], t.tex.addressMode[d],
                                normalized, &i[d]);
        }
        if (w == 0.0f)
            continue;
        float v[4];
        texel_floats(t, texel_at(t, i, inside), v);
        for (int k = 0; k < 4; k++)
            out->v[k] += w * v[k];
    }
}

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f)
{
    cudaChannelFormatDesc d = { x, y, z, w, f };
    return d;
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const cudaChannelFormatDesc *desc,
                              cudaExtent extent, unsigned int flags)
{
    gpulab_sim::trace_api api_call_("cudaMalloc3DArray");
    int d;
    cudaError_t e = gpulab_sim::enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!array || !desc || extent.width == 0 || !valid_format(*desc) ||
        (extent.depth && !extent.height)) {
        if (desc && !valid_format(*desc))
            report("cudaMallocArray: channel format (%d, %d, %d, %d bits, kind %d) is not one "
                   "the simulator reads: 1, 2 or 4 channels of 8, 16 or 32 bits",
                   desc->x, desc->y, desc->z, desc->w, (int)desc->f);
        return record(cudaErrorInvalidValue);
    }
    cudaArray *a =
        new cudaArray{ *desc, extent.width, extent.height, extent.depth, element_bytes(*desc),
                       flags, nullptr };
    size_t bytes = a->width * a->elem * (a->height ? a->height : 1) * (a->depth ? a->depth : 1);
    a->data = (char *)gpulab_sim::allocate_on(d, bytes, "cudaMallocArray");
    if (!a->data) {
        delete a;
        return record(cudaErrorMemoryAllocation);
    }
    std::lock_guard<std::mutex> lock(textures_mutex);
    arrays.insert(a);
    *array = a;
    return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned int flags)
{
    return cudaMalloc3DArray(array, desc, make_cudaExtent(width, height, 0), flags);
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    gpulab_sim::trace_api api_call_("cudaFreeArray");
    if (!array)
        return cudaSuccess;
    {
        std::lock_guard<std::mutex> lock(textures_mutex);
        if (!arrays.erase(array))
            return record(cudaErrorInvalidValue);
    }
    int d;
    if (gpulab_sim::enter(&d) == cudaSuccess)
        gpulab_sim::device_sync(d); // as cudaFree: work that may still read it ends first
    cudaError_t e = gpulab_sim::free_allocation(array->data, "cudaFreeArray");
    delete array;
    return record(e);
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *desc, cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array)
{
    if (!array)
        return record(cudaErrorInvalidValue);
    if (desc)
        *desc = array->desc;
    if (extent)
        *extent = make_cudaExtent(array->width, array->height, array->depth);
    if (flags)
        *flags = array->flags;
    return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    if (!desc || !array)
        return record(cudaErrorInvalidValue);
    *desc = array->desc;
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind)
{
    if (!dst)
        return record(cudaErrorInvalidValue);
    size_t row = dst->width * dst->elem, rows = dst->height ? dst->height : 1;
    if (wOffset + width > row || hOffset + height > rows)
        return record(cudaErrorInvalidValue);
    return cudaMemcpy2D(dst->data + hOffset * row + wOffset, row, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind)
{
    if (!src)
        return record(cudaErrorInvalidValue);
    size_t row = src->width * src->elem, rows = src->height ? src->height : 1;
    if (wOffset + width > row || hOffset + height > rows)
        return record(cudaErrorInvalidValue);
    return cudaMemcpy2D(dst, dpitch, src->data + hOffset * row + wOffset, row, width, height, kind);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, cudaMemcpyKind kind)
{
    if (!dst)
        return record(cudaErrorInvalidValue);
    size_t row = dst->width * dst->elem, rows = dst->height ? dst->height : 1;
    size_t at = hOffset * row + wOffset;
    if (wOffset > row || at + count > row * rows)
        return record(cudaErrorInvalidValue);
    return cudaMemcpy(dst->data + at, src, count, kind);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, cudaMemcpyKind kind)
{
    if (!src)
        return record(cudaErrorInvalidValue);
    size_t row = src->width * src->elem, rows = src->height ? src->height : 1;
    size_t at = hOffset * row + wOffset;
    if (wOffset > row || at + count > row * rows)
        return record(cudaErrorInvalidValue);
    return cudaMemcpy(dst, src->data + at, count, kind);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const cudaResourceDesc *pResDesc,
                                    const cudaTextureDesc *pTexDesc,
                                    const cudaResourceViewDesc *pResViewDesc)
{
    gpulab_sim::trace_api api_call_("cudaCreateTextureObject");
    if (!pTexObject || !pResDesc || !pTexDesc)
        return record(cudaErrorInvalidValue);
    if (pResViewDesc) {
        report("cudaCreateTextureObject: resource views are not simulated");
        return record(cudaErrorNotSupported);
    }
    texture t{};
    t.res = *pResDesc;
    t.tex = *pTexDesc;
    t.size[0] = t.size[1] = t.size[2] = 1;
    switch (pResDesc->resType) {
    case cudaResourceTypeArray: {
        cudaArray_t a = pResDesc->res.array.array;
        {
            std::lock_guard<std::mutex> lock(textures_mutex);
            if (!a || !arrays.count(a))
                return record(cudaErrorInvalidValue);
        }
        t.base = a->data;
        t.desc = a->desc;
        t.elem = a->elem;
        t.size[0] = a->width;
        t.size[1] = a->height ? a->height : 1;
        t.size[2] = a->depth ? a->depth : 1;
        t.dims = a->depth ? 3 : a->height ? 2 : 1;
        t.pitch = a->width * a->elem;
        t.slice = t.pitch * t.size[1];
        break;
    }
    case cudaResourceTypeLinear:
        t.base = (char *)pResDesc->res.linear.devPtr;
        t.desc = pResDesc->res.linear.desc;
        t.elem = element_bytes(t.desc);
        t.dims = 1;
        t.size[0] = t.elem ? pResDesc->res.linear.sizeInBytes / t.elem : 0;
        t.pitch = t.slice = pResDesc->res.linear.sizeInBytes;
        break;
    case cudaResourceTypePitch2D:
        t.base = (char *)pResDesc->res.pitch2D.devPtr;
        t.desc = pResDesc->res.pitch2D.desc;
        t.elem = element_bytes(t.desc);
        t.dims = 2;
        t.size[0] = pResDesc->res.pitch2D.width;
        t.size[1] = pResDesc->res.pitch2D.height;
        t.pitch = pResDesc->res.pitch2D.pitchInBytes;
        t.slice = t.pitch * t.size[1];
        if (t.pitch < t.size[0] * t.elem)
            return record(cudaErrorInvalidValue);
        break;
    default:
        report("cudaCreateTextureObject: mipmapped arrays are not simulated");
        return record(cudaErrorNotSupported);
    }
    if (!t.base || !valid_format(t.desc) || t.size[0] == 0) {
        if (t.base && !valid_format(t.desc))
            report("cudaCreateTextureObject: channel format (%d, %d, %d, %d bits, kind %d) is "
                   "not one the simulator reads",
                   t.desc.x, t.desc.y, t.desc.z, t.desc.w, (int)t.desc.f);
        return record(cudaErrorInvalidValue);
    }
    if (pResDesc->resType != cudaResourceTypeArray) {
        gpulab_sim::allocation a;
        size_t span = pResDesc->resType == cudaResourceTypeLinear
                          ? pResDesc->res.linear.sizeInBytes
                          : t.pitch * (t.size[1] - 1) + t.size[0] * t.elem;
        if (!gpulab_sim::range_in_allocation(t.base, span, &a)) {
            report("cudaCreateTextureObject: %zu bytes from %p are not inside one device "
                   "allocation",
                   span, (void *)t.base);
            return record(cudaErrorInvalidValue);
        }
    }
    if (t.tex.filterMode == cudaFilterModeLinear && t.tex.readMode == cudaReadModeElementType &&
        t.desc.f != cudaChannelFormatKindFloat) {
        report("cudaCreateTextureObject: linear filtering of integer texels needs "
               "cudaReadModeNormalizedFloat");
        return record(cudaErrorInvalidValue);
    }
    texture *p = new texture(t);
    std::lock_guard<std::mutex> lock(textures_mutex);
    textures.insert(p);
    *pTexObject = (cudaTextureObject_t)(uintptr_t)p;
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    const texture *t = (const texture *)(uintptr_t)texObject;
    std::lock_guard<std::mutex> lock(textures_mutex);
    if (!textures.erase(t))
        return record(cudaErrorInvalidValue);
    delete t;
    return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject)
{
    const texture *t = (const texture *)(uintptr_t)texObject;
    std::lock_guard<std::mutex> lock(textures_mutex);
    if (!pResDesc || !textures.count(t))
        return record(cudaErrorInvalidValue);
    *pResDesc = t->res;
    return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject)
{
    const texture *t = (const texture *)(uintptr_t)texObject;
    std::lock_guard<std::mutex> lock(textures_mutex);
    if (!pTexDesc || !textures.count(t))
        return record(cudaErrorInvalidValue);
    *pTexDesc = t->tex;
    return cudaSuccess;
}

} // extern "C"
