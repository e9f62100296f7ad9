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

// op over the values of every member of g, in rank order; every member gets it.
template <class Group, class T, class Op>
typename std::decay<T>::type reduce(const Group &g, const T &val, Op op, GPULAB_SIM_CG_WHERE)
{
    typedef typename std::decay<T>::type V;
    const gpulab_warp_group &w = g;
    unsigned n = w.size(), r = w.thread_rank();
    V acc = val;
    for (unsigned o = 1; o < n; o *= 2) {
        V other = w.shfl_down(acc, o, GPULAB_SIM_CG_AT);
        if (r + o < n)
            acc = op(acc, other);
    }
    return w.shfl(acc, 0, GPULAB_SIM_CG_AT);
}

} // namespace cooperative_groups

#endif
