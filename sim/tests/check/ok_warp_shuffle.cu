// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_warp_shuffle — warp functions with the right masks: a block sum by
// __shfl_down_sync with the full mask (every lane calls it, the lanes past n
// with 0), and a stream compaction with warp-aggregated atomics, where only
// the lanes that keep a value go on, with the mask __ballot_sync gave them.
#include <cuda_runtime.h>

#include <stdio.h>

#define N 1000
#define THREADS 256
#define BLOCKS ((N + THREADS - 1) / THREADS)

// sums[b] = the sum of in[i] over block b's elements (i < n).
__global__ void block_sum_kernel(const int *in, int *sums, int n)
{
    __shared__ int warp_sums[THREADS / 32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < THREADS / 32 ? warp_sums[lane] : 0;
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffff, v, offset);
        if (lane == 0)
            sums[blockIdx.x] = v;
    }
}

// Appends the positive values of in to out (in no particular order); *count
// must be 0 before, and is their number after.
__global__ void compact_kernel(const int *in, int *out, int *count, int n)
{
    int lane = threadIdx.x % 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = i < n && in[i] > 0;
    unsigned mask = __ballot_sync(0xffffffff, keep);
    if (keep) {
        int leader = __ffs(mask) - 1, base = 0;
        if (lane == leader)
            base = atomicAdd(count, __popc(mask));
        base = __shfl_sync(mask, base, leader);
        out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
    }
}

int main(void)
{
    static int h_in[N], h_sums[BLOCKS], h_out[N];
    int want_count = 0, want_sum = 0, count = 0, sum = 0, bad = 0;
    for (int i = 0; i < N; i++) {
        h_in[i] = (i * 37) % 11 - 5;
        want_count += h_in[i] > 0;
        want_sum += h_in[i] > 0 ? h_in[i] : 0;
    }
    int *d_in, *d_sums, *d_out, *d_count;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_sums, sizeof(h_sums));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMalloc((void **)&d_count, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMemset(d_count, 0, sizeof(int));
    block_sum_kernel<<<BLOCKS, THREADS>>>(d_in, d_sums, N);
    compact_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, d_count, N);
    cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost);
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_out, d_out, count * sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    for (int b = 0; b < BLOCKS; b++) {
        int want = 0;
        for (int i = b * THREADS; i < (b + 1) * THREADS && i < N; i++)
            want += h_in[i];
        bad += h_sums[b] != want;
    }
    for (int k = 0; k < count && k < N; k++) {
        bad += h_out[k] <= 0;
        sum += h_out[k];
    }
    bad += count != want_count || sum != want_sum;
    cudaFree(d_in);
    cudaFree(d_sums);
    cudaFree(d_out);
    cudaFree(d_count);
    printf("%s ok_warp_shuffle: %d kept, sum %d (expected %d, %d); %s\n",
           bad || e ? "FAIL" : "PASS", count, sum, want_count, want_sum, cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
