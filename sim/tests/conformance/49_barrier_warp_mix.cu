// 49_barrier_warp_mix — barriers and warp functions in one block of 80 threads
// (two full warps and one of 16 lanes): 601 barriers in a loop, shuffles whose
// delta or source lane differs from lane to lane, uniform shuffles on the
// partial warp, votes, __syncthreads_count, lanes that exited before a shuffle,
// and a shuffle whose lanes go on to a __syncthreads before using the result.
#include "conformance.h"

#define T 80
#define BLOCKS 3
#define N (T * BLOCKS)
#define ROUNDS 300
#define FULL 0xffffffffu

// The lanes of thread t's warp that exist in a block of T threads.
static __host__ __device__ unsigned warp_lanes(int t)
{
    int left = T - t / 32 * 32;
    return left >= 32 ? FULL : (1u << left) - 1u;
}

// Each round: every thread reads its right neighbour (around the block), then
// all write: two barriers per round.
__global__ void many_barriers(const unsigned *in, unsigned *out)
{
    __shared__ unsigned s[T];
    int t = threadIdx.x, i = blockIdx.x * T + t;
    s[t] = in[i];
    __syncthreads();
    for (int r = 0; r < ROUNDS; r++) {
        unsigned v = s[t] * 3u + s[(t + 1) % T] + (unsigned)r;
        __syncthreads();
        s[t] = v;
        __syncthreads();
    }
    out[i] = s[t];
}

// out[8 * i + k]: the results of eight warp functions for thread i.
__global__ void warp_mix(const int *in, int *out)
{
    int t = threadIdx.x, i = blockIdx.x * T + t, lane = t % 32;
    unsigned m = warp_lanes(t);
    int v = in[i];
    int *o = out + 8 * i;
    int before_barrier = __shfl_xor_sync(m, v, 1);
    __syncthreads(); // lanes resumed here from the shuffle still get its result
    out[8 * N + i] = before_barrier;
    o[0] = __shfl_down_sync(m, v, lane % 3);       // delta differs by lane
    o[1] = __shfl_sync(m, v, (lane * 7 + 5) % 32); // source differs by lane
    o[2] = __shfl_down_sync(m, v, 4);              // uniform, partial warp too
    o[3] = __shfl_xor_sync(m, v, 8);               // uniform
    o[4] = (int)__ballot_sync(m, v > 50);
    o[5] = __syncthreads_count(v % 2 == 0);
    o[6] = __shfl_up_sync(m, v, 2, 16);
    if (lane >= 24)
        return; // lanes 24..31 of each warp have exited before the next shuffle
    o[7] = __shfl_down_sync(m & 0x00ffffffu, v, 1);
}

static int shfl_src_down(int lane, int d, int width)
{
    int seg = lane / width * width;
    return lane + d < seg + width ? lane + d : lane;
}

int main(void)
{
    conf_require_device();

    static unsigned h_in[N], h_out[N], want[N];
    static int h_v[N], h_r[9 * N];
    unsigned seed = 40;
    for (int i = 0; i < N; i++) {
        h_in[i] = conf_lcg(&seed);
        h_v[i] = (int)(conf_lcg(&seed) % 100);
    }
    for (int b = 0; b < BLOCKS; b++) {
        unsigned s[T], n[T];
        for (int t = 0; t < T; t++)
            s[t] = h_in[b * T + t];
        for (int r = 0; r < ROUNDS; r++) {
            for (int t = 0; t < T; t++)
                n[t] = s[t] * 3u + s[(t + 1) % T] + (unsigned)r;
            for (int t = 0; t < T; t++)
                s[t] = n[t];
        }
        for (int t = 0; t < T; t++)
            want[b * T + t] = s[t];
    }

    unsigned *d_in, *d_out;
    int *d_v, *d_r;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMalloc(&d_v, sizeof(h_v)));
    CHECK_CUDA(cudaMalloc(&d_r, sizeof(h_r)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_v, h_v, sizeof(h_v), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_r, 0, sizeof(h_r)));
    many_barriers<<<BLOCKS, T>>>(d_in, d_out);
    CHECK_CUDA(cudaGetLastError());
    warp_mix<<<BLOCKS, T>>>(d_v, d_r);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_r, d_r, sizeof(h_r), cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int i = 0; i < N; i++) {
        if (h_out[i] != want[i] && bad++ < 5)
            conf_check(0, "many_barriers: thread %d: got %u, want %u", i, h_out[i], want[i]);
    }
    conf_check(bad == 0, "601 barriers per thread give the CPU's result");

    bad = 0;
    for (int i = 0; i < N; i++) {
        int b = i / T, t = i % T, lane = t % 32, base = b * T + t / 32 * 32;
        unsigned m = warp_lanes(t);
        int width = 32, count = 0;
        unsigned ballot = 0;
        for (int l = 0; l < 32; l++)
            if ((m >> l) & 1u)
                ballot |= (unsigned)(h_v[base + l] > 50) << l;
        for (int k = 0; k < T; k++)
            count += h_v[b * T + k] % 2 == 0;
        int src[8];
        src[0] = shfl_src_down(lane, lane % 3, width);
        src[1] = (lane * 7 + 5) % 32;
        src[2] = shfl_src_down(lane, 4, width);
        src[3] = lane ^ 8;
        src[6] = lane % 16 >= 2 ? lane - 2 : lane;
        src[7] = shfl_src_down(lane, 1, width);
        int want_r[8];
        for (int k = 0; k < 8; k++) {
            if (k == 4 || k == 5)
                continue;
            unsigned mk = k == 7 ? m & 0x00ffffffu : m;
            // A source outside the mask: the result is undefined; skip it.
            want_r[k] = (mk >> src[k]) & 1u ? h_v[base + src[k]] : -1;
        }
        want_r[4] = (int)ballot;
        want_r[5] = count;
        for (int k = 0; k < 8; k++) {
            if (k == 7 && lane >= 24)
                want_r[k] = 0; // exited: wrote nothing
            if (want_r[k] == -1 && k != 4 && k != 5)
                continue;
            if (h_r[8 * i + k] != want_r[k] && bad++ < 5)
                conf_check(0, "warp_mix: thread %d, result %d: got %d, want %d", i, k,
                           h_r[8 * i + k], want_r[k]);
        }
    }
    conf_check(bad == 0, "every warp function's result is CUDA's");
    bad = 0;
    for (int i = 0; i < N; i++) {
        int want_x = (warp_lanes(i % T) >> (i % T % 32 ^ 1)) & 1u ? h_v[i ^ 1] : -1;
        if (want_x != -1 && h_r[8 * N + i] != want_x && bad++ < 5)
            conf_check(0, "shuffle, then __syncthreads: thread %d got %d, want %d", i,
                       h_r[8 * N + i], want_x);
    }
    conf_check(bad == 0, "a shuffle's result survives a __syncthreads that follows it");
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_v));
    CHECK_CUDA(cudaFree(d_r));
    return conf_finish();
}
