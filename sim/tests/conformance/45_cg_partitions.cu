// 45_cg_partitions — groups of the lanes that run together: coalesced_threads()
// inside a branch taken by some lanes (its size and ranks: on the simulator
// every lane of the warp that takes it; an atomic aggregated by one lane per
// group), labeled_partition of a tile by a label
// (lane % 3) with cg::reduce over each part, and binary_partition by a
// predicate.
#include "conformance.h"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define THREADS 64
#define BLOCKS 3
#define N (THREADS * BLOCKS)

__global__ void partitions(const int *in, int *count, int *ticket, int *coal, int *labeled,
                           int *binary)
{
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * THREADS + block.thread_rank();
    int v = in[i];
    if (v % 3 == 0) {
        // One atomic per group of lanes that took the branch together.
        cg::coalesced_group active = cg::coalesced_threads();
        int first = 0;
        if (active.thread_rank() == 0)
            first = atomicAdd(count, (int)active.num_threads());
        first = active.shfl(first, 0);
        ticket[i] = first + (int)active.thread_rank();
        coal[i] = (int)active.num_threads() * 100 + (int)active.thread_rank();
    }
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    cg::coalesced_group same = cg::labeled_partition(tile, (int)(tile.thread_rank() % 3));
    labeled[i] = cg::reduce(same, v, cg::plus<int>()) * 100 + (int)same.size();
    cg::coalesced_group side = cg::binary_partition(tile, v > 0);
    binary[i] = cg::reduce(side, v, cg::plus<int>()) * 100 + (int)side.thread_rank();
}

int main(void)
{
    conf_require_device();
    static int h_in[N], ticket[N], coal[N], labeled[N], binary[N];
    int count = 0;
    unsigned seed = 42;
    for (int i = 0; i < N; i++)
        h_in[i] = (int)(conf_lcg(&seed) % 201) - 100;
    int *d_in, *d_count, *d_ticket, *d_coal, *d_lab, *d_bin;
    CHECK_CUDA(cudaMalloc((void **)&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc((void **)&d_count, sizeof(int)));
    CHECK_CUDA(cudaMalloc((void **)&d_ticket, sizeof(ticket)));
    CHECK_CUDA(cudaMalloc((void **)&d_coal, sizeof(coal)));
    CHECK_CUDA(cudaMalloc((void **)&d_lab, sizeof(labeled)));
    CHECK_CUDA(cudaMalloc((void **)&d_bin, sizeof(binary)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_count, 0, sizeof(int)));
    CHECK_CUDA(cudaMemset(d_ticket, 0xff, sizeof(ticket)));
    CHECK_CUDA(cudaMemset(d_coal, 0xff, sizeof(coal)));
    partitions<<<BLOCKS, THREADS>>>(d_in, d_count, d_ticket, d_coal, d_lab, d_bin);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ticket, d_ticket, sizeof(ticket), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(coal, d_coal, sizeof(coal), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(labeled, d_lab, sizeof(labeled), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(binary, d_bin, sizeof(binary), cudaMemcpyDeviceToHost));

    // Coalesced: in each warp, the lanes with v % 3 == 0, ranked by lane.
    int taken = 0;
    static int seen[N];
    for (int i = 0; i < N; i++) {
        if (h_in[i] % 3 != 0) {
            conf_check(ticket[i] == -1 && coal[i] == -1, "thread %d outside the branch wrote", i);
            continue;
        }
        int size = 0, rank = 0;
        for (int k = i / 32 * 32; k < i / 32 * 32 + 32; k++)
            if (h_in[k] % 3 == 0) {
                size++;
                rank += k < i;
            }
#ifdef GPULAB_SIM
        // The simulator groups every lane of the warp that reaches the call.
        conf_check(coal[i] == size * 100 + rank, "thread %d: coalesced size*100+rank %d, want %d",
                   i, coal[i], size * 100 + rank);
#else
        // A GPU need not run all of them together: a group of at most those.
        conf_check(coal[i] / 100 <= size && coal[i] % 100 < coal[i] / 100,
                   "thread %d: coalesced size*100+rank %d, at most %d lanes", i, coal[i], size);
#endif
        conf_check(ticket[i] >= 0 && ticket[i] < N && !seen[ticket[i]],
                   "thread %d: ticket %d is not a fresh one", i, ticket[i]);
        if (ticket[i] >= 0 && ticket[i] < N)
            seen[ticket[i]] = 1;
        taken++;
    }
    conf_check(count == taken, "counter %d, want %d", count, taken);

    for (int i = 0; i < N; i++) {
        int w = i / 32 * 32, lsum = 0, lsize = 0, bsum = 0, brank = 0;
        for (int k = w; k < w + 32; k++) {
            if ((k - w) % 3 == (i - w) % 3) {
                lsum += h_in[k];
                lsize++;
            }
            if ((h_in[k] > 0) == (h_in[i] > 0)) {
                bsum += h_in[k];
                brank += k < i;
            }
        }
        conf_check(labeled[i] == lsum * 100 + lsize, "thread %d: labeled %d, want %d", i,
                   labeled[i], lsum * 100 + lsize);
        conf_check(binary[i] == bsum * 100 + brank, "thread %d: binary %d, want %d", i, binary[i],
                   bsum * 100 + brank);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_count));
    CHECK_CUDA(cudaFree(d_ticket));
    CHECK_CUDA(cudaFree(d_coal));
    CHECK_CUDA(cudaFree(d_lab));
    CHECK_CUDA(cudaFree(d_bin));
    return conf_finish();
}
