// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_shared_bytes — each thread writes its own byte of a shared flag array
// (four threads share each 4-byte word), then, after a barrier, thread 0
// counts them. Shared memory is byte-addressable: neighbouring bytes written
// by different threads are not a race.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256
#define BLOCKS ((N + THREADS - 1) / THREADS)

// counts[b] = how many values of block b are multiples of 3.
__global__ void count_kernel(const int *in, int *counts, int n)
{
    __shared__ unsigned char flag[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    flag[tid] = i < n && in[i] % 3 == 0;
    __syncthreads();
    if (tid == 0) {
        int c = 0;
        for (unsigned k = 0; k < blockDim.x; k++)
            c += flag[k];
        counts[blockIdx.x] = c;
    }
}

int main(void)
{
    static int h_in[N], h_counts[BLOCKS];
    for (int i = 0; i < N; i++)
        h_in[i] = i * 7 + 1;
    int *d_in, *d_counts;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_counts, sizeof(h_counts));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    count_kernel<<<BLOCKS, THREADS>>>(d_in, d_counts, N);
    cudaMemcpy(h_counts, d_counts, sizeof(h_counts), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int b = 0; b < BLOCKS; b++) {
        int want = 0;
        for (int i = b * THREADS; i < (b + 1) * THREADS && i < N; i++)
            want += h_in[i] % 3 == 0;
        if (h_counts[b] != want && bad++ < 5)
            printf("block %d: %d, expected %d\n", b, h_counts[b], want);
    }
    cudaFree(d_in);
    cudaFree(d_counts);
    printf("%s ok_shared_bytes (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
