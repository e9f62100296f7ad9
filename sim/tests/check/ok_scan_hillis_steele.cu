// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_scan_hillis_steele — an inclusive scan of each block (Hillis-Steele) with
// two shared buffers: each step reads one and writes the other, and a barrier
// separates the steps, so no element is written while it may be read.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256

// out[i] = in[first of i's block] + ... + in[i].
__global__ void scan_kernel(const int *in, int *out, int n)
{
    __shared__ int buf[2][THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    int from = 0;
    buf[0][tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        int v = buf[from][tid];
        if (tid >= d)
            v += buf[from][tid - d];
        buf[1 - from][tid] = v;
        __syncthreads();
        from = 1 - from;
    }
    if (i < n)
        out[i] = buf[from][tid];
}

int main(void)
{
    static int h_in[N], h_out[N];
    for (int i = 0; i < N; i++)
        h_in[i] = i % 9 - 4;
    int *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    scan_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_in, d_out, N);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0, run = 0;
    for (int i = 0; i < N; i++) {
        run = (i % THREADS == 0 ? 0 : run) + h_in[i];
        if (h_out[i] != run && bad++ < 5)
            printf("out[%d] = %d, expected %d\n", i, h_out[i], run);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    printf("%s ok_scan_hillis_steele (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
