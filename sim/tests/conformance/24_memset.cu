// 24_memset — cudaMemset and cudaMemsetAsync set bytes, not elements: 0x01
// into ints gives 0x01010101, only the low byte of the value counts, unaligned
// byte ranges are exact, and cudaMemsetAsync is ordered after a kernel in its stream.
#include "conformance.h"

#define N 1000

__global__ void fill(unsigned *p, int n, unsigned v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

int main(void)
{
    conf_require_device();

    size_t bytes = N * sizeof(unsigned);
    unsigned *d, *h;
    CHECK_CUDA(cudaMalloc(&d, bytes));
    h = (unsigned *)malloc(bytes);

    CHECK_CUDA(cudaMemset(d, 1, bytes));
    CHECK_CUDA(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        conf_check(h[i] == 0x01010101u, "memset 1: [%d] = 0x%08x, expected 0x01010101", i, h[i]);

    CHECK_CUDA(cudaMemset(d, 0x1ab, bytes)); // only the low byte, 0xab, is used
    CHECK_CUDA(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        conf_check(h[i] == 0xababababu, "memset 0x1ab: [%d] = 0x%08x, expected 0xabababab", i,
                   h[i]);

    // Bytes 5..17 only, on a zeroed buffer.
    CHECK_CUDA(cudaMemset(d, 0, bytes));
    CHECK_CUDA(cudaMemset((unsigned char *)d + 5, 0x7f, 13));
    unsigned char hb[32];
    CHECK_CUDA(cudaMemcpy(hb, d, sizeof(hb), cudaMemcpyDeviceToHost));
    for (int b = 0; b < 32; b++) {
        unsigned char want = (b >= 5 && b < 18) ? 0x7f : 0;
        conf_check(hb[b] == want, "byte %d = 0x%02x, expected 0x%02x", b, hb[b], want);
    }

    // In a stream: kernel fills everything, then cudaMemsetAsync clears the
    // second half; the memset must come after the kernel.
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    fill<<<(N + 127) / 128, 128, 0, s>>>(d, N, 0xdeadbeefu);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemsetAsync(d + N / 2, 0, bytes / 2, s));
    CHECK_CUDA(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    for (int i = 0; i < N; i++) {
        unsigned want = i < N / 2 ? 0xdeadbeefu : 0u;
        conf_check(h[i] == want, "stream: [%d] = 0x%08x, expected 0x%08x", i, h[i], want);
    }

    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(d));
    free(h);
    return conf_finish();
}
