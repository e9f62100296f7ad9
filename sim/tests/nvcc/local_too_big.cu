// local_too_big.cu — the nvcc driver test: a kernel whose threads each need
// 1 MiB of local memory is refused, as ptxas refuses it (at most 512 KiB a
// thread); the 256 KiB kernel and the host function's big array are legal.
namespace lab
{
__global__ void too_big(float *out, int n)
{
    float scratch[262144]; // 1 MiB per thread
    for (int i = 0; i < n; i++)
        scratch[i] = (float)i;
    out[threadIdx.x] = scratch[n - 1];
}
} // namespace lab

__global__ void fits(float *out, int n)
{
    float scratch[65536]; // 256 KiB per thread
    for (int i = 0; i < n; i++)
        scratch[i] = (float)i;
    out[threadIdx.x] = scratch[n - 1];
}

int host_side(int n)
{
    volatile char buffer[1 << 20]; // host code: no such limit
    buffer[n] = 1;
    return buffer[n];
}
