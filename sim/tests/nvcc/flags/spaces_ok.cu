// spaces_ok.cu — calls across host and device code that nvcc accepts: the
// execution-space checks must let every one through.
#include <stdio.h>

#define HD __host__ __device__

// callable from both sides
HD float both(float x)
{
    return x + 1.0f;
}
// overloaded by space: a device version
__device__ float pick(float x)
{
    return x;
}
// and a host version
float pick(double x)
{
    return (float)x;
}
// qualified through a macro
HD float via_macro(float x)
{
    return 2.0f * x;
}
// constexpr (host, evaluated early)
constexpr float half_of(float x)
{
    return x / 2;
}
// device calls host-device
__device__ float on_device(float x)
{
    return both(x);
}

// a member function
struct Scaler {
    float k;
    __device__ float apply(float x) const
    {
        return k * x;
    }
};

__host__ __device__ float arch_dependent(float x)
{
#ifdef __CUDA_ARCH__
    return pick(x); // the device version, on a GPU
#else
    return x;
#endif
}

__global__ void kernel(float *out)
{
    Scaler s = { 3.0f };
    out[0] = on_device(1.0f) + pick(1.0f) + via_macro(1.0f) + s.apply(1.0f) + arch_dependent(0.0f);
}

int main(void)
{
    float *d, h = 0.0f;
    cudaMalloc((void **)&d, sizeof(float));
    kernel<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    float host = both(1.0f) + pick(1.0) + via_macro(1.0f) + half_of(2.0f);
    printf("spaces-ok %.0f %.0f\n", h, host);
    return 0;
}
