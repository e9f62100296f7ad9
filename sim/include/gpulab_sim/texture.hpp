// gpulab_sim/texture.hpp — what kernels read textures with (tex1Dfetch,
// tex1D, tex2D, tex3D, with the object's filtering, addressing and read
// mode) and cudaCreateChannelDesc<T>(). The fetch itself is the runtime's
// (runtime/texture.cpp): a GPU's texture unit, not the kernel's own loads,
// so the check tools do not count it as the kernel's memory access.
// Included by cuda_runtime.h in C++.
#ifndef GPULAB_SIM_TEXTURE_HPP
#define GPULAB_SIM_TEXTURE_HPP

#include <cstring>
#include <type_traits>

// One fetch's result: the texel's own bytes (`raw`: point filtering in
// element-type read mode), else up to four channels as floats.
struct gpulab_sim_texel {
    int raw;
    unsigned char bytes[16];
    float v[4];
};

extern "C" void gpulab_sim_tex_fetch(cudaTextureObject_t t, int dims, float x, float y, float z,
                                     int integer_index, gpulab_sim_texel *out);

namespace gpulab_sim
{
template <class T>
inline void texel_to(T *r, const float *v, std::true_type /* arithmetic */)
{
    *r = (T)v[0];
}
inline void texel_to(float2 *r, const float *v, std::false_type)
{
    *r = float2{ v[0], v[1] };
}
inline void texel_to(float3 *r, const float *v, std::false_type)
{
    *r = float3{ v[0], v[1], v[2] };
}
inline void texel_to(float4 *r, const float *v, std::false_type)
{
    *r = float4{ v[0], v[1], v[2], v[3] };
}
template <class T>
inline T texel_as(const gpulab_sim_texel &t)
{
    T r;
    if (t.raw) {
        memset(&r, 0, sizeof(r));
        memcpy(&r, t.bytes, sizeof(T) < sizeof(t.bytes) ? sizeof(T) : sizeof(t.bytes));
    } else {
        texel_to(&r, t.v, std::is_arithmetic<T>());
    }
    return r;
}
template <class T>
inline T tex_read(cudaTextureObject_t t, int dims, float x, float y, float z, int index)
{
    gpulab_sim_texel out;
    gpulab_sim_tex_fetch(t, dims, x, y, z, index, &out);
    return texel_as<T>(out);
}

// The channel description of a texel type.
template <class T>
struct channel_of {
    static constexpr int n = 1, bits = 8 * (int)sizeof(T);
    static constexpr cudaChannelFormatKind kind =
        std::is_floating_point<T>::value
            ? cudaChannelFormatKindFloat
            : (std::is_signed<T>::value ? cudaChannelFormatKindSigned
                                        : cudaChannelFormatKindUnsigned);
};
#define GPULAB_SIM_CHANNELS(V, T, N)                                                               \
    template <>                                                                                    \
    struct channel_of<V> {                                                                         \
        static constexpr int n = N, bits = channel_of<T>::bits;                                    \
        static constexpr cudaChannelFormatKind kind = channel_of<T>::kind;                         \
    };
GPULAB_SIM_CHANNELS(char2, char, 2)
GPULAB_SIM_CHANNELS(char4, char, 4)
GPULAB_SIM_CHANNELS(uchar2, unsigned char, 2)
GPULAB_SIM_CHANNELS(uchar4, unsigned char, 4)
GPULAB_SIM_CHANNELS(int2, int, 2)
GPULAB_SIM_CHANNELS(int4, int, 4)
GPULAB_SIM_CHANNELS(uint2, unsigned int, 2)
GPULAB_SIM_CHANNELS(uint4, unsigned int, 4)
GPULAB_SIM_CHANNELS(float2, float, 2)
GPULAB_SIM_CHANNELS(float4, float, 4)
#undef GPULAB_SIM_CHANNELS
} // namespace gpulab_sim

template <class T>
static inline cudaChannelFormatDesc cudaCreateChannelDesc(void)
{
    typedef gpulab_sim::channel_of<T> c;
    return cudaCreateChannelDesc(c::bits, c::n > 1 ? c::bits : 0, c::n > 2 ? c::bits : 0,
                                 c::n > 3 ? c::bits : 0, c::kind);
}

template <class T>
static inline T tex1Dfetch(cudaTextureObject_t t, int x)
{
    return gpulab_sim::tex_read<T>(t, 1, (float)x, 0, 0, 1);
}
template <class T>
static inline T tex1D(cudaTextureObject_t t, float x)
{
    return gpulab_sim::tex_read<T>(t, 1, x, 0, 0, 0);
}
template <class T>
static inline T tex2D(cudaTextureObject_t t, float x, float y)
{
    return gpulab_sim::tex_read<T>(t, 2, x, y, 0, 0);
}
template <class T>
static inline T tex3D(cudaTextureObject_t t, float x, float y, float z)
{
    return gpulab_sim::tex_read<T>(t, 3, x, y, z, 0);
}
// The forms that return through a pointer.
template <class T>
static inline void tex1Dfetch(T *r, cudaTextureObject_t t, int x)
{
    *r = tex1Dfetch<T>(t, x);
}
template <class T>
static inline void tex1D(T *r, cudaTextureObject_t t, float x)
{
    *r = tex1D<T>(t, x);
}
template <class T>
static inline void tex2D(T *r, cudaTextureObject_t t, float x, float y)
{
    *r = tex2D<T>(t, x, y);
}
template <class T>
static inline void tex3D(T *r, cudaTextureObject_t t, float x, float y, float z)
{
    *r = tex3D<T>(t, x, y, z);
}

#endif
