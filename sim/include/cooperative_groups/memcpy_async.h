// cooperative_groups/memcpy_async.h — cg::memcpy_async, cg::wait and
// cg::wait_prior. The simulator copies at once: each member of the group
// copies the bytes at its rank, stepping by the group's size, and a wait is
// the group's sync, after which every byte is there for every member, as
// after a wait on a GPU.
#ifndef GPULAB_SIM_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define GPULAB_SIM_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"

#include <cstddef>

namespace cooperative_groups
{

// Copies bytes of src to dst, shared among the members of g; complete for
// the whole group after cg::wait(g).
template <class Group>
void memcpy_async(const Group &g, void *dst, const void *src, size_t bytes)
{
    unsigned long long n = g.num_threads();
    unsigned char *d = static_cast<unsigned char *>(dst);
    const unsigned char *s = static_cast<const unsigned char *>(src);
    for (unsigned long long i = g.thread_rank(); i < bytes; i += n)
        d[i] = s[i];
}

template <class Group, class T>
void memcpy_async(const Group &g, T *dst, const T *src, size_t bytes)
{
    memcpy_async(g, static_cast<void *>(dst), static_cast<const void *>(src), bytes);
}

// Waits for the group's copies: every member's, for every member.
template <class Group>
void wait(const Group &g, GPULAB_SIM_CG_WHERE)
{
    g.sync(GPULAB_SIM_CG_AT);
}

// Waits for all but the last N stages of copies: all of them here.
template <unsigned N, class Group>
void wait_prior(const Group &g, GPULAB_SIM_CG_WHERE)
{
    g.sync(GPULAB_SIM_CG_AT);
}

} // namespace cooperative_groups

#endif
