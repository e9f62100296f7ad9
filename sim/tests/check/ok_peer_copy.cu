// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// DEVICES: 2
// clang-format on
// ok_peer_copy — a buffer filled by a kernel on device 0, copied to device 1
// with cudaMemcpyPeer and cudaMemcpyPeerAsync, and read there by a kernel:
// a peer copy writes its destination as any copy does.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 777

// x[i] = i.
__global__ void iota_kernel(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (float)i;
}

// out[i] = a[i] + b[i].
__global__ void add_kernel(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

int main(void)
{
    int count = 0;
    cudaGetDeviceCount(&count);
    if (count < 2) {
        printf("SKIP ok_peer_copy: needs 2 devices (GPULAB_SIM_DEVICES=2 on the simulator)\n");
        return 77;
    }
    static float h_out[N];
    float *d0, *d1a, *d1b, *d1out;
    cudaStream_t st1;
    cudaSetDevice(0);
    cudaMalloc((void **)&d0, N * sizeof(float));
    iota_kernel<<<(N + 255) / 256, 256>>>(d0, N);
    cudaDeviceSynchronize();
    cudaSetDevice(1);
    cudaStreamCreate(&st1);
    cudaMalloc((void **)&d1a, N * sizeof(float));
    cudaMalloc((void **)&d1b, N * sizeof(float));
    cudaMalloc((void **)&d1out, N * sizeof(float));
    cudaMemcpyPeer(d1a, 1, d0, 0, N * sizeof(float));
    cudaMemcpyPeerAsync(d1b, 1, d0, 0, N * sizeof(float), st1);
    add_kernel<<<(N + 255) / 256, 256, 0, st1>>>(d1a, d1b, d1out, N);
    cudaMemcpyAsync(h_out, d1out, sizeof(h_out), cudaMemcpyDeviceToHost, st1);
    cudaStreamSynchronize(st1);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (h_out[i] != 2.0f * i && bad++ < 5)
            printf("out[%d] = %g, expected %g\n", i, h_out[i], 2.0f * i);
    cudaStreamDestroy(st1);
    cudaFree(d1a);
    cudaFree(d1b);
    cudaFree(d1out);
    cudaSetDevice(0);
    cudaFree(d0);
    printf("%s ok_peer_copy (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
