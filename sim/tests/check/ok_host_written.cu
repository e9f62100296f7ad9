// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_host_written — memory the host writes directly and a kernel reads:
// managed memory (cudaMallocManaged) and mapped pinned memory (cudaHostAlloc
// with cudaHostAllocMapped, through cudaHostGetDevicePointer). No copy is
// involved, and neither is uninitialized.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 500

// out[i] = a[i] * b[i].
__global__ void mul_kernel(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] * b[i];
}

int main(void)
{
    float *managed, *mapped, *d_mapped, *out;
    cudaMallocManaged((void **)&managed, N * sizeof(float), cudaMemAttachGlobal);
    cudaMallocManaged((void **)&out, N * sizeof(float), cudaMemAttachGlobal);
    cudaHostAlloc((void **)&mapped, N * sizeof(float), cudaHostAllocMapped);
    for (int i = 0; i < N; i++) {
        managed[i] = (float)i;
        mapped[i] = 2.0f;
    }
    cudaHostGetDevicePointer((void **)&d_mapped, mapped, 0);
    mul_kernel<<<(N + 127) / 128, 128>>>(managed, d_mapped, out, N);
    cudaDeviceSynchronize();
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (out[i] != 2.0f * i && bad++ < 5)
            printf("out[%d] = %g, expected %g\n", i, out[i], 2.0f * i);
    cudaFree(managed);
    cudaFree(out);
    cudaFreeHost(mapped);
    printf("%s ok_host_written (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
