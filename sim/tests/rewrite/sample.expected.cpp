#line 1 "sample.cu"
// clang-format off
// sample.cu: input of the unit-rewrite-cli test (expected output: sample.expected.cpp).
// A launch in a comment stays: k<<<1, 2>>>(x);
#include <stdio.h>
#line 5 "sample.cu"

#define CHECK(call) (void)(call)
#define LAUNCH_SCALE(x, n) \
    GPULAB_SIM_LAUNCH((scale), "scale", 8, "x, n")(((n) + 255) / 256, \
            256)(x, n)

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
    GPULAB_SIM_DYNAMIC_SHARED_REF(buf, float);
    typedef float gpulab_sim_shared_first[32]; GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_first, first, 44);
    buf[threadIdx.x] = x[threadIdx.x];
    first[threadIdx.x % 32] = buf[0];
    __syncthreads();
    out[threadIdx.x] = first[0] + buf[blockDim.x - 1];
}

void run(float *d_x, float *d_out, int n, cudaStream_t stream)
{
    const char *msg = "k<<<1, 2>>>(x)";
    GPULAB_SIM_LAUNCH((scale), "scale", 54, "d_x, n")((n + 255) / 256, 256)(d_x, n);
    GPULAB_SIM_LAUNCH((reduce), "reduce", 55, "d_x, d_out, n")(1, 32, 0, stream)(d_x,
                                 d_out, n);
    GPULAB_SIM_LAUNCH((fill<float>), "fill<float>", 57, "d_x, 1.0f")(dim3(1, 1), dim3(32, 1), 32 * sizeof(float))(d_x, 1.0f);
    CHECK(GPULAB_SIM_LAUNCH((scale), "scale", 58, "d_x, 1<<4")(1, n >> 5)(d_x, 1 << 4));
    LAUNCH_SCALE(d_x, n);
    GPULAB_SIM_LAUNCH((stage), "stage", 60, "d_x, d_out")(1, 64, 64 * sizeof(float), stream)(d_x, /* out */ d_out);
    printf("%s %d\n", msg, n << 1);
}
#line 63 "sample.cu"
GPULAB_SIM_KERNEL_TRAITS(scale, 0);
GPULAB_SIM_KERNEL_TRAITS(reduce, 1);
/* gpulab: template kernel fill: traits decided at run time */
GPULAB_SIM_KERNEL_TRAITS(stage, 1);
