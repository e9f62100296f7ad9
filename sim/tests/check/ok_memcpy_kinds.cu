// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_memcpy_kinds — kernels reading memory written by every kind of copy: an
// asynchronous upload from pinned memory, a device-to-device copy on the same
// stream, a cudaMemcpyDefault copy to an odd offset, and cudaMemcpy2D and
// cudaMemcpy2DAsync into a pitched allocation (the kernel reads each row's
// width, never the pitch's padding).
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define W 37 // floats per row of the pitched matrix
#define H 11

// out[i] = x[i] + y[i] + z[i].
__global__ void add3_kernel(const float *x, const float *y, const float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] + y[i] + z[i];
}

// out[r * w + c] = m[r][c] + 1 for the w x h matrix m of pitch bytes per row.
__global__ void unpitch_kernel(const float *m, size_t pitch, float *out, int w, int h)
{
    int c = threadIdx.x, r = blockIdx.x;
    if (c < w && r < h)
        out[r * w + c] = ((const float *)((const char *)m + r * pitch))[c] + 1.0f;
}

int main(void)
{
    float *h_x, *d_x, *d_y, *d_z, *d_m, *d_out;
    static float h_out[N], h_m[W * H];
    size_t pitch;
    cudaStream_t st;
    cudaStreamCreate(&st);
    cudaMallocHost((void **)&h_x, N * sizeof(float));
    for (int i = 0; i < N; i++)
        h_x[i] = (float)i;
    for (int i = 0; i < W * H; i++)
        h_m[i] = (float)i;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMalloc((void **)&d_y, N * sizeof(float));
    cudaMalloc((void **)&d_z, N * sizeof(float));
    cudaMalloc((void **)&d_out, N * sizeof(float));
    cudaMallocPitch((void **)&d_m, &pitch, W * sizeof(float), H);

    cudaMemcpyAsync(d_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice, st);
    cudaMemcpyAsync(d_y, d_x, N * sizeof(float), cudaMemcpyDeviceToDevice, st);
    cudaStreamSynchronize(st);
    cudaMemcpy(d_z + 1, h_x + 1, (N - 1) * sizeof(float), cudaMemcpyDefault);
    cudaMemcpy(d_z, h_x, sizeof(float), cudaMemcpyHostToDevice);
    add3_kernel<<<(N + 255) / 256, 256>>>(d_x, d_y, d_z, d_out, N);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (h_out[i] != 3.0f * i && bad++ < 5)
            printf("out[%d] = %g, expected %g\n", i, h_out[i], 3.0f * i);

    // The first H - 2 rows synchronously, the last two on the stream.
    cudaMemcpy2D(d_m, pitch, h_m, W * sizeof(float), W * sizeof(float), H - 2,
                 cudaMemcpyHostToDevice);
    cudaMemcpy2DAsync((char *)d_m + (H - 2) * pitch, pitch, h_m + (H - 2) * W, W * sizeof(float),
                      W * sizeof(float), 2, cudaMemcpyHostToDevice, st);
    unpitch_kernel<<<H, W, 0, st>>>(d_m, pitch, d_out, W, H);
    cudaMemcpyAsync(h_out, d_out, W * H * sizeof(float), cudaMemcpyDeviceToHost, st);
    cudaStreamSynchronize(st);
    for (int i = 0; i < W * H; i++)
        if (h_out[i] != i + 1.0f && bad++ < 5)
            printf("m[%d] + 1 = %g, expected %g\n", i, h_out[i], i + 1.0f);

    cudaError_t e = cudaGetLastError();
    cudaStreamDestroy(st);
    cudaFreeHost(h_x);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_z);
    cudaFree(d_m);
    cudaFree(d_out);
    printf("%s ok_memcpy_kinds (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
