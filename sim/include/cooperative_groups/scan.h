// cooperative_groups/scan.h — cg::inclusive_scan and cg::exclusive_scan over
// a tile or a coalesced group (plus by default), by the group's shuffles
// (rank r combines with rank r - 2^k, k = 0, 1, ...).
#ifndef GPULAB_SIM_COOPERATIVE_GROUPS_SCAN_H
#define GPULAB_SIM_COOPERATIVE_GROUPS_SCAN_H

#include "reduce.h"

namespace cooperative_groups
{

// op over the values of ranks 0..thread_rank(), in rank order.
template <class Group, class T, class Op>
typename std::decay<T>::type inclusive_scan(const Group &g, const T &val, Op op,
                                            GPULAB_SIM_CG_WHERE)
{
    typedef typename std::decay<T>::type V;
    const gpulab_warp_group &w = g;
    unsigned n = w.size(), r = w.thread_rank();
    V acc = val;
    for (unsigned o = 1; o < n; o *= 2) {
        V other = w.shfl_up(acc, o, GPULAB_SIM_CG_AT);
        if (r >= o)
            acc = op(other, acc);
    }
    return acc;
}

template <class Group, class T>
typename std::decay<T>::type inclusive_scan(const Group &g, const T &val, GPULAB_SIM_CG_WHERE)
{
    return inclusive_scan(g, val, plus<typename std::decay<T>::type>(), GPULAB_SIM_CG_AT);
}

// op over the values of ranks 0..thread_rank() - 1; rank 0 gets a
// value-initialized T (0 for numbers).
template <class Group, class T, class Op>
typename std::decay<T>::type exclusive_scan(const Group &g, const T &val, Op op,
                                            GPULAB_SIM_CG_WHERE)
{
    typedef typename std::decay<T>::type V;
    const gpulab_warp_group &w = g;
    V inc = inclusive_scan(g, val, op, GPULAB_SIM_CG_AT);
    V before = w.shfl_up(inc, 1, GPULAB_SIM_CG_AT);
    return w.thread_rank() == 0 ? V() : before;
}

template <class Group, class T>
typename std::decay<T>::type exclusive_scan(const Group &g, const T &val, GPULAB_SIM_CG_WHERE)
{
    return exclusive_scan(g, val, plus<typename std::decay<T>::type>(), GPULAB_SIM_CG_AT);
}

} // namespace cooperative_groups

#endif
