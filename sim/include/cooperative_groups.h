// cooperative_groups.h — the simulator's cooperative groups (namespace
// cooperative_groups): thread blocks, tiles of a warp (static and dynamic),
// coalesced, labeled and binary partitions, and the grid of a cooperative
// launch. Tiles of up to 32 threads and coalesced groups are built on the simulator's warp
// functions with the group's lane mask, so synccheck sees them as it sees
// __syncwarp and the *_sync functions; a block's sync is __syncthreads; a
// grid's sync is the runtime's grid barrier (cudaLaunchCooperativeKernel).
// Every collective call records the caller's file and line for reports.
// The tiles and partitions are in cooperative_groups/gpulab_tiles.h.
// C++11: cuda-samples build with --std=c++11.
#ifndef GPULAB_SIM_COOPERATIVE_GROUPS_H
#define GPULAB_SIM_COOPERATIVE_GROUPS_H

#include <cuda_runtime.h>

#include <cstring>
#include <type_traits>

namespace gpulab_sim
{
// The lanes of the calling thread's warp that reach coalesced_threads() at
// the same place together (barrier.cpp).
unsigned coalesced_mask(const char *file, int line);
// Waits until every thread of the grid arrives; reports and stops a kernel
// not launched with cudaLaunchCooperativeKernel (grid.cpp).
void grid_sync(const char *file, int line);
// Whether the running kernel was launched with cudaLaunchCooperativeKernel.
bool grid_cooperative();

namespace cg
{
// The source of a collective call, as the caller wrote it.
#define GPULAB_SIM_CG_WHERE                                                                        \
    const char *gpulab_sim_file = __builtin_FILE(), int gpulab_sim_line = __builtin_LINE()
#define GPULAB_SIM_CG_AT gpulab_sim_file, gpulab_sim_line

inline unsigned block_rank()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned block_threads()
{
    return blockDim.x * blockDim.y * blockDim.z;
}
inline unsigned lane()
{
    return block_rank() % 32u;
}
// The lanes of the caller's warp that exist in its block.
inline unsigned warp_lanes()
{
    unsigned first = block_rank() / 32u * 32u, n = block_threads() - first;
    return n >= 32u ? 0xffffffffu : (1u << n) - 1u;
}
inline unsigned low_bits(unsigned n)
{
    return n >= 32u ? 0xffffffffu : (1u << n) - 1u;
}
// The lane of the rank-th set bit of mask (rank counted from 0).
inline int nth_lane(unsigned mask, unsigned rank)
{
    for (unsigned k = 0; mask; k++, mask &= mask - 1)
        if (k == rank)
            return __builtin_ctz(mask);
    return -1;
}
// The bits of `bits` (lanes) at the set bits of mask, packed in rank order.
inline unsigned pack(unsigned bits, unsigned mask)
{
    unsigned out = 0, k = 0;
    for (; mask; mask &= mask - 1, k++)
        if (bits & (1u << __builtin_ctz(mask)))
            out |= 1u << k;
    return out;
}

// A warp exchange of any trivially copyable value, 8 bytes at a time.
template <class T>
T exchange(warp_op op, unsigned mask, const T &var, int arg, int width, const char *file, int line)
{
    static_assert(std::is_trivially_copyable<T>::value,
                  "cooperative groups shuffle trivially copyable values");
    unsigned char in[sizeof(T)], out[sizeof(T)];
    std::memcpy(in, &var, sizeof(T));
    for (size_t at = 0; at < sizeof(T); at += 8) {
        size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
        unsigned long long bits = 0;
        std::memcpy(&bits, in + at, n);
        bits = warp_exchange(op, mask, bits, arg, width, file, line);
        std::memcpy(out + at, &bits, n);
    }
    T r;
    std::memcpy(&r, out, sizeof(T));
    return r;
}

// The warp part of a group: its lanes, this thread's rank in it, and the
// width a shuffle by rank may use (0: lanes are not contiguous, shuffle by lane).
struct warp_part {
    unsigned mask;
    unsigned rank, count;
    unsigned meta_rank, meta_count;
    int width;

    void sync(const char *file, int line) const
    {
        warp_exchange(SYNCWARP, mask, 0, 0, 32, file, line);
    }
    template <class T>
    T shfl(const T &v, unsigned src, const char *file, int line) const
    {
        if (width)
            return exchange(SHFL_IDX, mask, v, (int)src, width, file, line);
        int l = nth_lane(mask, src % count);
        return exchange(SHFL_IDX, mask, v, l, 32, file, line);
    }
    template <class T>
    T shfl_up(const T &v, unsigned delta, const char *file, int line) const
    {
        if (width)
            return exchange(SHFL_UP, mask, v, (int)delta, width, file, line);
        int l = rank >= delta ? nth_lane(mask, rank - delta) : (int)lane();
        return exchange(SHFL_IDX, mask, v, l, 32, file, line);
    }
    template <class T>
    T shfl_down(const T &v, unsigned delta, const char *file, int line) const
    {
        if (width)
            return exchange(SHFL_DOWN, mask, v, (int)delta, width, file, line);
        int l = rank + delta < count ? nth_lane(mask, rank + delta) : (int)lane();
        return exchange(SHFL_IDX, mask, v, l, 32, file, line);
    }
    template <class T>
    T shfl_xor(const T &v, unsigned lane_mask, const char *file, int line) const
    {
        if (width)
            return exchange(SHFL_XOR, mask, v, (int)lane_mask, width, file, line);
        unsigned r = rank ^ lane_mask;
        int l = r < count ? nth_lane(mask, r) : (int)lane();
        return exchange(SHFL_IDX, mask, v, l, 32, file, line);
    }
    unsigned ballot(int pred, const char *file, int line) const
    {
        unsigned b = (unsigned)warp_exchange(BALLOT, mask, pred != 0, 0, 32, file, line);
        return pack(b, mask);
    }
    template <class T>
    unsigned match_any(const T &v, const char *file, int line) const
    {
        unsigned same = 0;
        for (unsigned r = 0; r < count; r++) {
            T other = exchange(SHFL_IDX, mask, v, nth_lane(mask, r), 32, file, line);
            if (std::memcmp(&other, &v, sizeof(T)) == 0)
                same |= 1u << r;
        }
        return same;
    }
};

inline warp_part tile_part(unsigned parent_rank, unsigned parent_size, unsigned n)
{
    warp_part p;
    p.rank = parent_rank % n;
    p.meta_rank = parent_rank / n;
    p.meta_count = (parent_size + n - 1) / n;
    unsigned first = lane() - p.rank;
    p.mask = (low_bits(n) << first) & warp_lanes();
    p.count = (unsigned)__builtin_popcount(p.mask);
    p.width = (int)n;
    return p;
}

// A tile of n > 32 threads (whole warps): its rank, size and place among
// its parent's tiles; no lanes (its collectives go through the block).
inline warp_part large_part(unsigned parent_rank, unsigned parent_size, unsigned n)
{
    warp_part p;
    p.rank = parent_rank % n;
    p.meta_rank = parent_rank / n;
    p.meta_count = (parent_size + n - 1) / n;
    p.count = n;
    p.mask = 0;
    p.width = 0;
    return p;
}

inline warp_part part_of_tile(unsigned parent_rank, unsigned parent_size, unsigned n)
{
    return n <= 32 ? tile_part(parent_rank, parent_size, n)
                   : large_part(parent_rank, parent_size, n);
}

// Room in the block's shared memory for one value per warp of the block
// (32 at most): where a tile of more than 32 threads combines its warps'
// results. One place per type, in the simulator's shared window (saved per
// block like the kernel's own __shared__ variables).
template <class V>
V *warp_scratch()
{
    static shared_site site = {
        "cooperative groups scratch", __FILE__, __LINE__, 32 * sizeof(V), alignof(V), 0
    };
    return static_cast<V *>(static_shared(&site));
}

inline warp_part coalesced_part(unsigned mask)
{
    warp_part p;
    p.mask = mask;
    p.rank = (unsigned)__builtin_popcount(mask & low_bits(lane()));
    p.count = (unsigned)__builtin_popcount(mask);
    p.meta_rank = 0;
    p.meta_count = 1;
    // Lanes 0..n-1 of the warp with n a power of two shuffle as a tile of n.
    p.width = (mask & 1u) && (mask & (mask + 1u)) == 0 && (p.count & (p.count - 1u)) == 0
                  ? (int)p.count
                  : 0;
    return p;
}

[[noreturn]] inline void misuse(const char *what, const char *file, int line)
{
    char msg[600];
    snprintf(msg, sizeof(msg), "%s (%s:%d)", what, file, line);
    kernel_trap(cudaErrorLaunchFailure, msg);
}
} // namespace cg
} // namespace gpulab_sim

namespace cooperative_groups
{

class thread_group;
class thread_block;
class coalesced_group;
template <unsigned Size, class Parent>
class thread_block_tile;

// A group of threads: a block, a tile of a warp, or a coalesced group.
class thread_group
{
  public:
    // The simulator's: what kind of group (a block, a group within a warp, a
    // tile of more than 32 threads), and a warp group's lanes.
    enum kind { BLOCK, WARP, TILE };
    explicit thread_group(kind k) : kind_(k), part_() {}
    thread_group(kind k, const gpulab_sim::cg::warp_part &p) : kind_(k), part_(p) {}

    void sync(GPULAB_SIM_CG_WHERE) const
    {
        if (kind_ != WARP)
            gpulab_sim::syncthreads(GPULAB_SIM_CG_AT);
        else
            part_.sync(GPULAB_SIM_CG_AT);
    }
    unsigned long long size() const
    {
        return kind_ == BLOCK ? gpulab_sim::cg::block_threads() : part_.count;
    }
    unsigned long long num_threads() const
    {
        return size();
    }
    unsigned long long thread_rank() const
    {
        return kind_ == BLOCK ? gpulab_sim::cg::block_rank() : part_.rank;
    }

  protected:
    kind kind_;
    gpulab_sim::cg::warp_part part_;
};

// The threads of the calling thread's block.
class thread_block : public thread_group
{
    friend thread_block this_thread_block();
    thread_block() : thread_group(BLOCK) {}

  public:
    void sync(GPULAB_SIM_CG_WHERE) const
    {
        gpulab_sim::syncthreads(GPULAB_SIM_CG_AT);
    }
    unsigned size() const
    {
        return gpulab_sim::cg::block_threads();
    }
    unsigned num_threads() const
    {
        return size();
    }
    unsigned thread_rank() const
    {
        return gpulab_sim::cg::block_rank();
    }
    dim3 group_index() const
    {
        return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
    }
    dim3 thread_index() const
    {
        return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
    }
    dim3 group_dim() const
    {
        return blockDim;
    }
    dim3 dim_threads() const
    {
        return blockDim;
    }
};

inline thread_block this_thread_block()
{
    return thread_block();
}

// Shared memory for tiles of more than 32 threads, which CUDA needs on GPUs
// before compute capability 8.0. The simulator keeps what such tiles share
// elsewhere, so it is only room.
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
    alignas(16) unsigned char gpulab_reserved[MaxBlockSize / 32 * 8];
};

template <unsigned MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize> &)
{
    return this_thread_block();
}

// A group that is a part of its parent (a tile or a coalesced group): its
// size, this thread's rank in it, and its place among its parent's parts.
class gpulab_part_group : public thread_group
{
  protected:
    gpulab_part_group(kind k, const gpulab_sim::cg::warp_part &p) : thread_group(k, p) {}

  public:
    unsigned num_threads() const
    {
        return part_.count;
    }
    unsigned size() const
    {
        return part_.count;
    }
    unsigned thread_rank() const
    {
        return part_.rank;
    }
    unsigned meta_group_rank() const
    {
        return part_.meta_rank;
    }
    unsigned meta_group_size() const
    {
        return part_.meta_count;
    }
};

// Threads of a warp with a lane mask: what a tile and a coalesced group share.
class gpulab_warp_group : public gpulab_part_group
{
  protected:
    explicit gpulab_warp_group(const gpulab_sim::cg::warp_part &p) : gpulab_part_group(WARP, p) {}

  public:
    void sync(GPULAB_SIM_CG_WHERE) const
    {
        part_.sync(GPULAB_SIM_CG_AT);
    }
    template <class T>
    T shfl(T var, unsigned src_rank, GPULAB_SIM_CG_WHERE) const
    {
        return part_.shfl(var, src_rank, GPULAB_SIM_CG_AT);
    }
    template <class T>
    T shfl_up(T var, unsigned delta, GPULAB_SIM_CG_WHERE) const
    {
        return part_.shfl_up(var, delta, GPULAB_SIM_CG_AT);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, GPULAB_SIM_CG_WHERE) const
    {
        return part_.shfl_down(var, delta, GPULAB_SIM_CG_AT);
    }
    int any(int pred, GPULAB_SIM_CG_WHERE) const
    {
        return part_.ballot(pred, GPULAB_SIM_CG_AT) != 0;
    }
    int all(int pred, GPULAB_SIM_CG_WHERE) const
    {
        return part_.ballot(pred, GPULAB_SIM_CG_AT) == gpulab_sim::cg::low_bits(part_.count);
    }
    unsigned ballot(int pred, GPULAB_SIM_CG_WHERE) const
    {
        return part_.ballot(pred, GPULAB_SIM_CG_AT);
    }
    template <class T>
    unsigned match_any(T val, GPULAB_SIM_CG_WHERE) const
    {
        return part_.match_any(val, GPULAB_SIM_CG_AT);
    }
    template <class T>
    unsigned match_all(T val, int &pred, GPULAB_SIM_CG_WHERE) const
    {
        unsigned same = part_.match_any(val, GPULAB_SIM_CG_AT);
        pred = same == gpulab_sim::cg::low_bits(part_.count);
        return pred ? same : 0u;
    }
    // The lanes of the warp in the group (for partitions of this group).
    unsigned gpulab_mask() const
    {
        return part_.mask;
    }
    // How many of them the block has: fewer than size() for a tile of a
    // block's last, partial warp.
    unsigned gpulab_count() const
    {
        return part_.count;
    }
};

// A group of the threads of a warp that run together.
class coalesced_group : public gpulab_warp_group
{
  public:
    explicit coalesced_group(const gpulab_sim::cg::warp_part &p) : gpulab_warp_group(p) {}
    template <class T>
    T shfl_xor(T var, unsigned lane_mask, GPULAB_SIM_CG_WHERE) const
    {
        return part_.shfl_xor(var, lane_mask, GPULAB_SIM_CG_AT);
    }
};

inline coalesced_group coalesced_threads(GPULAB_SIM_CG_WHERE)
{
    unsigned m = gpulab_sim::coalesced_mask(GPULAB_SIM_CG_AT);
    return coalesced_group(gpulab_sim::cg::coalesced_part(m));
}

} // namespace cooperative_groups

#include "cooperative_groups/gpulab_tiles.h"

namespace cooperative_groups
{

// The threads of the grid of a cooperative launch.
class grid_group
{
    friend grid_group this_grid();
    grid_group() {}

  public:
    bool is_valid() const
    {
        return gpulab_sim::grid_cooperative();
    }
    void sync(GPULAB_SIM_CG_WHERE) const
    {
        gpulab_sim::grid_sync(GPULAB_SIM_CG_AT);
    }
    unsigned long long num_threads() const
    {
        return num_blocks() * gpulab_sim::cg::block_threads();
    }
    unsigned long long size() const
    {
        return num_threads();
    }
    unsigned long long block_rank() const
    {
        return blockIdx.x + (unsigned long long)gridDim.x *
                                (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    }
    unsigned long long thread_rank() const
    {
        return block_rank() * gpulab_sim::cg::block_threads() + gpulab_sim::cg::block_rank();
    }
    unsigned long long num_blocks() const
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
    }
    dim3 block_index() const
    {
        return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
    }
    dim3 group_dim() const
    {
        return gridDim;
    }
    dim3 dim_blocks() const
    {
        return gridDim;
    }
    dim3 dim_threads() const
    {
        return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z);
    }
    dim3 thread_index() const
    {
        return dim3(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y,
                    blockIdx.z * blockDim.z + threadIdx.z);
    }
};

inline grid_group this_grid()
{
    return grid_group();
}

// cg::sync(g) is g.sync().
template <class Group>
void sync(const Group &g, GPULAB_SIM_CG_WHERE)
{
    g.sync(GPULAB_SIM_CG_AT);
}

template <class Group>
unsigned long long thread_rank(const Group &g)
{
    return g.thread_rank();
}
template <class Group>
unsigned long long num_threads(const Group &g)
{
    return g.num_threads();
}

} // namespace cooperative_groups

#endif
