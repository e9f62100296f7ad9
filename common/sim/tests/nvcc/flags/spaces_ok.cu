// spaces_ok.cu — calls across host and device code that nvcc accepts: the
// execution-space checks must let every one through.
#include <stdio.h>

#define HD __host__ __device__

HD float both(float x) { return x + 1.0f; }                 // callable from both sides
__device__ float pick(float x) { return x; }               // overloaded by space:
float pick(double x) { return (float)x; }                  //   host and device versions
HD float via_macro(float x) { return 2.0f * x; }           // qualified through a macro
constexpr float half_of(float x) { return x / 2; }         // constexpr (host, evaluated early)
__device__ float on_device(float x) { return both(x); }    // device calls host-device

struct Scaler {
    float k;
    __device__ float apply(float x) const { return k * x; } // a member function
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
