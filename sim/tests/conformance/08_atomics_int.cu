// 08_atomics_int — integer atomics return the old value and never lose an
// update: a 64-bin histogram (atomicAdd), distinct tickets, atomicSub to zero,
// atomicMin/Max, atomicExch chains, one atomicCAS winner, atomicOr/And masks.
#include "conformance.h"

#include <limits.h>

#define N 40000
#define BINS 64
#define THREADS 256

// state: [0] ticket counter, [1] down-counter, [2] min, [3] max, [4] exch slot,
// [5] CAS slot, [6] CAS winners, [7] or-mask, [8] and-mask
__global__ void atomics(const int *v, int n, int *hist, int *tickets, int *exch_old, int *state)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicAdd(&hist[v[i] % BINS], 1);
    tickets[i] = atomicAdd(&state[0], 1);
    atomicSub(&state[1], 3);
    atomicMin(&state[2], v[i]);
    atomicMax(&state[3], v[i]);
    exch_old[i] = atomicExch(&state[4], i);
    if (atomicCAS(&state[5], -1, i) == -1)
        atomicAdd(&state[6], 1);
    atomicOr(&state[7], 1 << (i % 31));
    atomicAnd(&state[8], ~(1 << (i % 29)));
}

int main(void)
{
    conf_require_device();

    static int h_v[N], h_hist[BINS], h_tickets[N], h_exch[N];
    unsigned seed = 8;
    int want_min = INT_MAX, want_max = INT_MIN, want_hist[BINS] = { 0 };
    for (int i = 0; i < N; i++) {
        h_v[i] = (int)(conf_lcg(&seed) % 1000000);
        want_hist[h_v[i] % BINS]++;
        want_min = h_v[i] < want_min ? h_v[i] : want_min;
        want_max = h_v[i] > want_max ? h_v[i] : want_max;
    }
    int h_state[9] = { 0, 3 * N, INT_MAX, INT_MIN, -1, -1, 0, 0, -1 };

    int *d_v, *d_hist, *d_tickets, *d_exch, *d_state;
    CHECK_CUDA(cudaMalloc(&d_v, sizeof(h_v)));
    CHECK_CUDA(cudaMalloc(&d_hist, sizeof(h_hist)));
    CHECK_CUDA(cudaMalloc(&d_tickets, sizeof(h_tickets)));
    CHECK_CUDA(cudaMalloc(&d_exch, sizeof(h_exch)));
    CHECK_CUDA(cudaMalloc(&d_state, sizeof(h_state)));
    CHECK_CUDA(cudaMemcpy(d_v, h_v, sizeof(h_v), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_hist, 0, sizeof(h_hist)));
    CHECK_CUDA(cudaMemcpy(d_state, h_state, sizeof(h_state), cudaMemcpyHostToDevice));
    atomics<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_v, N, d_hist, d_tickets, d_exch, d_state);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_hist, d_hist, sizeof(h_hist), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_tickets, d_tickets, sizeof(h_tickets), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_exch, d_exch, sizeof(h_exch), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_state, d_state, sizeof(h_state), cudaMemcpyDeviceToHost));

    for (int b = 0; b < BINS; b++)
        conf_check(h_hist[b] == want_hist[b], "bin %d: %d, expected %d", b, h_hist[b],
                   want_hist[b]);
    // Tickets are a permutation of 0..N-1: each old value returned exactly once.
    static unsigned char seen[N];
    for (int i = 0; i < N; i++) {
        int t = h_tickets[i];
        conf_check(t >= 0 && t < N && !seen[t], "thread %d got ticket %d (out of range or twice)",
                   i, t);
        if (t >= 0 && t < N)
            seen[t] = 1;
    }
    conf_check(h_state[0] == N, "ticket counter %d, expected %d", h_state[0], N);
    conf_check(h_state[1] == 0, "atomicSub left %d, expected 0", h_state[1]);
    conf_check(h_state[2] == want_min, "atomicMin %d, expected %d", h_state[2], want_min);
    conf_check(h_state[3] == want_max, "atomicMax %d, expected %d", h_state[3], want_max);
    // atomicExch forms one chain: the old values plus the final value are
    // exactly -1 and every thread id, each once.
    long long sum = h_state[4];
    memset(seen, 0, sizeof(seen));
    int minus_ones = h_state[4] == -1;
    for (int i = 0; i < N; i++) {
        sum += h_exch[i];
        if (h_exch[i] == -1)
            minus_ones++;
        else if (h_exch[i] >= 0 && h_exch[i] < N)
            seen[h_exch[i]]++;
    }
    conf_check(minus_ones == 1, "atomicExch: the initial value came back %d times", minus_ones);
    conf_check(sum == (long long)N * (N - 1) / 2 - 1, "atomicExch: values sum to %lld", sum);
    conf_check(h_state[6] == 1, "atomicCAS: %d winners, expected 1", h_state[6]);
    conf_check(h_state[5] >= 0 && h_state[5] < N, "atomicCAS slot %d", h_state[5]);
    conf_check((unsigned)h_state[7] == 0x7fffffffu, "atomicOr mask 0x%08x, expected 0x7fffffff",
               (unsigned)h_state[7]);
    conf_check((unsigned)h_state[8] == 0xe0000000u, "atomicAnd mask 0x%08x, expected 0xe0000000",
               (unsigned)h_state[8]);

    CHECK_CUDA(cudaFree(d_v));
    CHECK_CUDA(cudaFree(d_hist));
    CHECK_CUDA(cudaFree(d_tickets));
    CHECK_CUDA(cudaFree(d_exch));
    CHECK_CUDA(cudaFree(d_state));
    return conf_finish();
}
