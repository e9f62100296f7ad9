// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_streams — a chunked pipeline on two streams: pinned host buffers,
// cudaMemcpyAsync up, a kernel, cudaMemcpyAsync down, each chunk on its own
// stream; both streams synchronized before the host reads; every stream,
// pinned buffer and device buffer released.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 4096
#define CHUNKS 4
#define CHUNK (N / CHUNKS)
#define THREADS 256

// y[i] = 3 x[i] + 1.
__global__ void affine_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 3.0f * x[i] + 1.0f;
}

int main(void)
{
    float *h_x, *h_y, *d_x, *d_y;
    cudaStream_t streams[2];
    cudaMallocHost((void **)&h_x, N * sizeof(float));
    cudaMallocHost((void **)&h_y, N * sizeof(float));
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMalloc((void **)&d_y, N * sizeof(float));
    for (int s = 0; s < 2; s++)
        cudaStreamCreate(&streams[s]);
    for (int i = 0; i < N; i++)
        h_x[i] = (float)(i % 100);
    for (int c = 0; c < CHUNKS; c++) {
        cudaStream_t st = streams[c % 2];
        size_t off = (size_t)c * CHUNK;
        cudaMemcpyAsync(d_x + off, h_x + off, CHUNK * sizeof(float), cudaMemcpyHostToDevice, st);
        affine_kernel<<<CHUNK / THREADS, THREADS, 0, st>>>(d_x + off, d_y + off, CHUNK);
        cudaMemcpyAsync(h_y + off, d_y + off, CHUNK * sizeof(float), cudaMemcpyDeviceToHost, st);
    }
    for (int s = 0; s < 2; s++)
        cudaStreamSynchronize(streams[s]);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (h_y[i] != 3.0f * h_x[i] + 1.0f && bad++ < 5)
            printf("y[%d] = %g, expected %g\n", i, h_y[i], 3.0f * h_x[i] + 1.0f);
    for (int s = 0; s < 2; s++)
        cudaStreamDestroy(streams[s]);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFreeHost(h_x);
    cudaFreeHost(h_y);
    printf("%s ok_streams (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
