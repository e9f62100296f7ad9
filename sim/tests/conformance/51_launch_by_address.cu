// 51_launch_by_address — cudaLaunchKernel with the kernel cast to void * and
// with the kernel itself, cudaLaunchCooperativeKernel with the kernel cast to
// void * (grid.sync() inside), each argument read through its pointer with its
// parameter's type; the scoped atomics (_block, _system), umin/umax/llmin/
// llmax/ullmin/ullmax, and min/max of mixed signed and unsigned or float and
// double arguments.
#include "conformance.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define THREADS 64
#define BLOCKS 4
#define N (THREADS * BLOCKS)

struct affine {
    double a;
    int b;
};

__global__ void apply_affine(const int *in, double *out, struct affine f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = f.a * in[i] + f.b;
}

// Block sums, grid.sync(), then block 0's first thread adds them.
__global__ void grid_total(const int *in, int *partial, long long *total)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[THREADS];
    s[threadIdx.x] = in[blockIdx.x * THREADS + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        int t = 0;
        for (int k = 0; k < THREADS; k++)
            t += s[k];
        partial[blockIdx.x] = t;
    }
    grid.sync();
    if (grid.thread_rank() == 0) {
        long long t = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += partial[b];
        *total = t;
    }
}

// out: [0] sum (_system), [1] count (_block), [2] max (_block), [3] min
// (_system), [4] or (_system), [5] exchanged in (_system), [6] CAS winners
// (_block); mins holds the min/max helpers' disagreements.
__global__ void scoped_atomics(const int *in, int *out, int *mins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    atomicAdd_system(&out[0], v);
    atomicAdd_block(&out[1], 1);
    atomicMax_block(&out[2], v);
    atomicMin_system(&out[3], v);
    atomicOr_system(&out[4], 1 << (i % 31));
    atomicExch_system(&out[5], 1);
    if (atomicCAS_block(&out[6 + 1 + blockIdx.x], 0, i + 1) == 0)
        atomicAdd(&out[6], 1);
    unsigned u = (unsigned)v * 2654435761u, w = 0x80000000u;
    long long a = (long long)v * -3000000000LL, b = 42;
    unsigned long long x = (unsigned long long)u << 20, y = 1ull << 40;
    int wrong = 0;
    wrong += umin(u, w) != (u < w ? u : w) || umax(u, w) != (u > w ? u : w);
    wrong += llmin(a, b) != (a < b ? a : b) || llmax(a, b) != (a > b ? a : b);
    wrong += ullmin(x, y) != (x < y ? x : y) || ullmax(x, y) != (x > y ? x : y);
    // Mixed types: the unsigned (or the double) one wins.
    wrong +=
        min(u, -1) != u || max(-1, u) != 0xffffffffu || max(0.5f, (double)v) != (v > 0 ? v : 0.5);
    if (wrong)
        atomicAdd(mins, wrong);
}

int main(void)
{
    conf_require_device();
    int h_in[N];
    long long want_total = 0;
    int want_max = -1000000, want_min = 1000000;
    unsigned seed = 51;
    for (int i = 0; i < N; i++) {
        h_in[i] = (int)(conf_lcg(&seed) % 2001) - 1000;
        want_total += h_in[i];
        want_max = h_in[i] > want_max ? h_in[i] : want_max;
        want_min = h_in[i] < want_min ? h_in[i] : want_min;
    }
    int *d_in, *d_partial, *d_out, *d_mins;
    double *d_res;
    long long *d_total;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_res, N * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&d_partial, BLOCKS * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_total, sizeof(long long)));
    CHECK_CUDA(cudaMalloc(&d_out, (7 + BLOCKS) * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_mins, sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));

    // cudaLaunchKernel by address: a struct by value and an int among pointers.
    struct affine f = { 0.5, -7 };
    int n = N - 3;
    void *args[] = { &d_in, &d_res, &f, &n };
    CHECK_CUDA(cudaMemset(d_res, 0, N * sizeof(double)));
    CHECK_CUDA(
        cudaLaunchKernel((const void *)apply_affine, dim3(BLOCKS), dim3(THREADS), args, 0, 0));
    static double h_res[N];
    CHECK_CUDA(cudaMemcpy(h_res, d_res, sizeof(h_res), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += h_res[i] != (i < n ? 0.5 * h_in[i] - 7 : 0.0);
    conf_check(bad == 0, "cudaLaunchKernel((void *)k): %d results wrong", bad);

    // The typed form (the kernel itself), on a stream.
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    f.a = -2.0;
    f.b = 3;
    n = N;
    CHECK_CUDA(cudaLaunchKernel(apply_affine, dim3(BLOCKS), dim3(THREADS), args, 0, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(h_res, d_res, sizeof(h_res), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += h_res[i] != -2.0 * h_in[i] + 3;
    conf_check(bad == 0, "cudaLaunchKernel(k) on a stream: %d results wrong", bad);
    CHECK_CUDA(cudaStreamDestroy(stream));

    // A cooperative launch by address.
    int coop = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    if (coop) {
        void *gargs[] = { &d_in, &d_partial, &d_total };
        long long total = 0;
        CHECK_CUDA(cudaMemset(d_total, 0, sizeof(long long)));
        CHECK_CUDA(cudaLaunchCooperativeKernel((const void *)grid_total, dim3(BLOCKS),
                                               dim3(THREADS), gargs, 0, 0));
        CHECK_CUDA(cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost));
        conf_check(total == want_total, "cooperative by address: total %lld, want %lld", total,
                   want_total);
    }

    // Scoped atomics and the integer min/max helpers.
    int h_out[7 + BLOCKS] = { 0, 0, -1000000, 1000000, 0, 0, 0 };
    CHECK_CUDA(cudaMemcpy(d_out, h_out, sizeof(h_out), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_mins, 0, sizeof(int)));
    scoped_atomics<<<BLOCKS, THREADS>>>(d_in, d_out, d_mins);
    CHECK_CUDA(cudaGetLastError());
    int mins = -1;
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&mins, d_mins, sizeof(int), cudaMemcpyDeviceToHost));
    conf_check(h_out[0] == (int)want_total, "atomicAdd_system: %d, want %lld", h_out[0],
               want_total);
    conf_check(h_out[1] == N, "atomicAdd_block: %d, want %d", h_out[1], N);
    conf_check(h_out[2] == want_max, "atomicMax_block: %d, want %d", h_out[2], want_max);
    conf_check(h_out[3] == want_min, "atomicMin_system: %d, want %d", h_out[3], want_min);
    conf_check(h_out[4] == 0x7fffffff, "atomicOr_system: %#x, want 0x7fffffff", h_out[4]);
    conf_check(h_out[5] == 1, "atomicExch_system: %d, want 1", h_out[5]);
    conf_check(h_out[6] == BLOCKS, "atomicCAS_block: %d winners, want one per block (%d)", h_out[6],
               BLOCKS);
    conf_check(mins == 0, "umin/umax/llmin/llmax/ullmin/ullmax: %d disagree", mins);

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_res));
    CHECK_CUDA(cudaFree(d_partial));
    CHECK_CUDA(cudaFree(d_total));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_mins));
    return conf_finish();
}
