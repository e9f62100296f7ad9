// clang-format off
// sample.cu: input of the unit-rewrite-cli test (expected output: sample.expected.cpp).
// A launch in a comment stays: k<<<1, 2>>>(x);
#include <stdio.h>

#define CHECK(call) (void)(call)
#define LAUNCH_SCALE(x, n) \
    scale<<<((n) + 255) / 256, \
            256>>>(x, n)

/* A helper that reaches a warp function, so reduce below is "sync". */
__device__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void __launch_bounds__(256, 2) scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2.0f * x[i]; // not "__syncthreads()"
}

__global__ void reduce(const float *x, float *out, int n)
{
    float v = threadIdx.x < (unsigned)n ? x[threadIdx.x] : 0.0f;
    v = warp_sum(v);
    if (threadIdx.x == 0)
        *out = v;
}

template <typename T>
__global__ void fill(T *x, T v)
{
    x[threadIdx.x] = v;
}

// Dynamic shared memory next to a fixed-size array: both rewritten.
__global__ void stage(const float *x, float *out)
{
    extern __shared__ __align__(16) float buf[];
    __shared__ float first[32];
    buf[threadIdx.x] = x[threadIdx.x];
    first[threadIdx.x % 32] = buf[0];
    __syncthreads();
    out[threadIdx.x] = first[0] + buf[blockDim.x - 1];
}

void run(float *d_x, float *d_out, int n, cudaStream_t stream)
{
    const char *msg = "k<<<1, 2>>>(x)";
    scale<<<(n + 255) / 256, 256>>>(d_x, n);
    reduce<<<1, 32, 0, stream>>>(d_x,
                                 d_out, n);
    fill<float><<<dim3(1, 1), dim3(32, 1), 32 * sizeof(float)>>>(d_x, 1.0f);
    CHECK(scale<<<1, n >> 5>>>(d_x, 1 << 4));
    LAUNCH_SCALE(d_x, n);
    stage<<<1, 64, 64 * sizeof(float), stream>>>(d_x, /* out */ d_out);
    printf("%s %d\n", msg, n << 1);
}
