// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_memset_bytes — memory cleared by cudaMemset and cudaMemsetAsync, read by
// kernels: a byte array of odd length set in two pieces that meet at an odd
// offset (3 bytes, then the 998 after them, on a stream), and float sums
// cleared on a stream before a kernel of that stream adds to them.
#include <cuda_runtime.h>

#include <stdio.h>

#define BYTES 1001
#define N 300

// count[0] += the number of bytes of b equal to v (one thread per byte).
__global__ void count_kernel(const unsigned char *b, int n, unsigned char v, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && b[i] == v)
        atomicAdd(count, 1);
}

// sum[i] += x (sum was cleared by cudaMemsetAsync).
__global__ void add_kernel(float *sum, float x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        sum[i] += x;
}

int main(void)
{
    unsigned char *d_b;
    int *d_count, h_count = 0;
    float *d_sum;
    static float h_sum[N];
    cudaStream_t st;
    cudaStreamCreate(&st);
    cudaMalloc((void **)&d_b, BYTES);
    cudaMalloc((void **)&d_count, sizeof(int));
    cudaMalloc((void **)&d_sum, sizeof(h_sum));
    cudaMemset(d_b, 7, 3);
    cudaMemsetAsync(d_b + 3, 7, BYTES - 3, st);
    cudaMemsetAsync(d_count, 0, sizeof(int), st);
    count_kernel<<<(BYTES + 127) / 128, 128, 0, st>>>(d_b, BYTES, 7, d_count);
    cudaMemsetAsync(d_sum, 0, sizeof(h_sum), st);
    add_kernel<<<(N + 127) / 128, 128, 0, st>>>(d_sum, 1.5f, N);
    add_kernel<<<(N + 127) / 128, 128, 0, st>>>(d_sum, 1.5f, N);
    cudaMemcpyAsync(&h_count, d_count, sizeof(int), cudaMemcpyDeviceToHost, st);
    cudaMemcpyAsync(h_sum, d_sum, sizeof(h_sum), cudaMemcpyDeviceToHost, st);
    cudaStreamSynchronize(st);
    cudaError_t e = cudaGetLastError();
    int bad = h_count != BYTES;
    if (bad)
        printf("count = %d, expected %d\n", h_count, BYTES);
    for (int i = 0; i < N; i++)
        if (h_sum[i] != 3.0f && bad++ < 5)
            printf("sum[%d] = %g, expected 3\n", i, h_sum[i]);
    cudaStreamDestroy(st);
    cudaFree(d_b);
    cudaFree(d_count);
    cudaFree(d_sum);
    printf("%s ok_memset_bytes (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
