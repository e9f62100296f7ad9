// cooperative_groups/reduce.h — cg::reduce over a tile or a coalesced group,
// and the operators it takes (cg::plus, less, greater, bit_and, bit_or,
// bit_xor). Built on the group's shuffles: ranks r and r + 2^k combine, in
// rank order, and rank 0's result is handed to every member.
#ifndef GPULAB_SIM_COOPERATIVE_GROUPS_REDUCE_H
#define GPULAB_SIM_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups
{

template <class T>
struct plus {
    T operator()(const T &a, const T &b) const
    {
        return a + b;
    }
};
// The lesser of the two (a minimum).
template <class T>
struct less {
    T operator()(const T &a, const T &b) const
    {
        return b < a ? b : a;
    }
};
// The greater of the two (a maximum).
template <class T>
struct greater {
    T operator()(const T &a, const T &b) const
    {
        return a < b ? b : a;
    }
};
template <class T>
struct bit_and {
    T operator()(const T &a, const T &b) const
    {
        return a & b;
    }
};
template <class T>
struct bit_or {
    T operator()(const T &a, const T &b) const
    {
        return a | b;
    }
};
template <class T>
struct bit_xor {
    T operator()(const T &a, const T &b) const
    {
        return a ^ b;
    }
};

// op over the values of every member of a group of one warp, in rank order;
// every member gets it. The members are those the block has (a tile of a
// partial warp has fewer than its size), and no member reads another that
// is not there.
template <class V, class Op>
V gpulab_reduce(const gpulab_warp_group &w, const V &val, Op op, GPULAB_SIM_CG_WHERE)
{
    unsigned n = w.gpulab_count(), r = w.thread_rank();
    V acc = val;
    for (unsigned o = 1; o < n; o *= 2) {
        V other = w.shfl(acc, r + o < n ? r + o : r, GPULAB_SIM_CG_AT);
        if (r + o < n)
            acc = op(acc, other);
    }
    return w.shfl(acc, 0, GPULAB_SIM_CG_AT);
}

// The same over a tile of whole warps: each warp reduces its values, its
// first lane puts the result in the block's scratch, the block synchronizes
// (as the tile's sync does), and every member combines its tile's warp
// results in order; a second barrier keeps the scratch until all have read.
template <class V, class Op>
V gpulab_reduce(const gpulab_large_tile &g, const V &val, Op op, GPULAB_SIM_CG_WHERE)
{
    unsigned rank = gpulab_sim::cg::block_rank();
    thread_block_tile<32> warp(
        gpulab_sim::cg::tile_part(rank, gpulab_sim::cg::block_threads(), 32));
    V part = gpulab_reduce<V>(warp, val, op, GPULAB_SIM_CG_AT);
    V *slot = gpulab_sim::cg::warp_scratch<V>();
    if (warp.thread_rank() == 0)
        slot[rank / 32] = part;
    gpulab_sim::syncthreads(GPULAB_SIM_CG_AT);
    unsigned first = (rank - g.thread_rank()) / 32, count = g.size() / 32;
    V acc = slot[first];
    for (unsigned k = 1; k < count; k++)
        acc = op(acc, slot[first + k]);
    gpulab_sim::syncthreads(GPULAB_SIM_CG_AT);
    return acc;
}

// op over the values of every member of g, in rank order; every member gets it.
template <class Group, class T, class Op>
typename std::decay<T>::type reduce(const Group &g, const T &val, Op op, GPULAB_SIM_CG_WHERE)
{
    typedef typename std::decay<T>::type V;
    return gpulab_reduce<V>(g, val, op, GPULAB_SIM_CG_AT);
}

} // namespace cooperative_groups

#endif
