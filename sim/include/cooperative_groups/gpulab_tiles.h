// cooperative_groups/gpulab_tiles.h — the simulator's tiles of a block
// (cooperative_groups.h includes it): thread_block_tile<N> for N a power of
// two up to 1024 (up to 32, lanes of a warp; above, whole warps),
// tiled_partition (static and dynamic), labeled_partition and
// binary_partition. Not a CUDA header: include <cooperative_groups.h>.
#ifndef GPULAB_SIM_COOPERATIVE_GROUPS_TILES_H
#define GPULAB_SIM_COOPERATIVE_GROUPS_TILES_H

#include "../cooperative_groups.h"

namespace cooperative_groups
{

// A tile of more than 32 threads: whole warps. It synchronizes as the block
// does (__syncthreads), so every tile of the block must reach its sync() at
// the same place; cg::reduce combines its warps through shared memory.
class gpulab_large_tile : public gpulab_part_group
{
  protected:
    explicit gpulab_large_tile(const gpulab_sim::cg::warp_part &p) : gpulab_part_group(TILE, p) {}

  public:
    void sync(GPULAB_SIM_CG_WHERE) const
    {
        gpulab_sim::syncthreads(GPULAB_SIM_CG_AT);
    }
};

// A tile of Size threads (a power of two, at most 1024) of a block or a
// larger tile: up to 32, a group of lanes of a warp; above, whole warps.
template <unsigned Size, class Parent = void>
class thread_block_tile;

// Size known at compile time, over the group that does the work (Base).
template <unsigned Size, class Base>
class gpulab_sized_tile : public Base
{
    static_assert(Size >= 1 && Size <= 1024 && (Size & (Size - 1)) == 0,
                  "tiled_partition<N>: N must be a power of two from 1 to 1024");

  public:
    explicit gpulab_sized_tile(const gpulab_sim::cg::warp_part &p) : Base(p) {}
    static constexpr unsigned num_threads()
    {
        return Size;
    }
    static constexpr unsigned size()
    {
        return Size;
    }
};

template <unsigned Size, bool Large = (Size > 32)>
class gpulab_tile;

template <unsigned Size>
class gpulab_tile<Size, true> : public gpulab_sized_tile<Size, gpulab_large_tile>
{
  public:
    explicit gpulab_tile(const gpulab_sim::cg::warp_part &p)
        : gpulab_sized_tile<Size, gpulab_large_tile>(p)
    {
    }
};

template <unsigned Size>
class gpulab_tile<Size, false> : public gpulab_sized_tile<Size, coalesced_group>
{
  public:
    explicit gpulab_tile(const gpulab_sim::cg::warp_part &p)
        : gpulab_sized_tile<Size, coalesced_group>(p)
    {
    }
};

template <unsigned Size>
class thread_block_tile<Size, void> : public gpulab_tile<Size>
{
  public:
    explicit thread_block_tile(const gpulab_sim::cg::warp_part &p) : gpulab_tile<Size>(p) {}
};

template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void>
{
  public:
    explicit thread_block_tile(const gpulab_sim::cg::warp_part &p)
        : thread_block_tile<Size, void>(p)
    {
    }
};

template <unsigned Size, class Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent &parent)
{
    return thread_block_tile<Size, Parent>(gpulab_sim::cg::part_of_tile(
        (unsigned)parent.thread_rank(), (unsigned)parent.num_threads(), Size));
}

// Tiles of tile_size threads (a power of two, at most 1024) of a block or a tile.
inline thread_group tiled_partition(const thread_group &parent, unsigned tile_size,
                                    GPULAB_SIM_CG_WHERE)
{
    if (tile_size == 0 || tile_size > 1024 || (tile_size & (tile_size - 1)) != 0)
        gpulab_sim::cg::misuse("tiled_partition(g, n): n must be a power of two from 1 to 1024; "
                               "the kernel stops with cudaErrorLaunchFailure",
                               GPULAB_SIM_CG_AT);
    return thread_group(tile_size > 32 ? thread_group::TILE : thread_group::WARP,
                        gpulab_sim::cg::part_of_tile((unsigned)parent.thread_rank(),
                                                     (unsigned)parent.num_threads(), tile_size));
}

// The threads of g with the same label (each thread's value).
template <class Group>
coalesced_group labeled_partition(const Group &g, int label, GPULAB_SIM_CG_WHERE)
{
    coalesced_group c = g;
    unsigned same =
        gpulab_sim::cg::coalesced_part(c.gpulab_mask()).match_any(label, GPULAB_SIM_CG_AT);
    unsigned lanes = 0, m = c.gpulab_mask();
    for (unsigned k = 0; m; m &= m - 1, k++)
        if (same & (1u << k))
            lanes |= 1u << __builtin_ctz(m);
    return coalesced_group(gpulab_sim::cg::coalesced_part(lanes));
}
template <class Group>
coalesced_group labeled_partition(const Group &g, unsigned label, GPULAB_SIM_CG_WHERE)
{
    return labeled_partition(g, (int)label, GPULAB_SIM_CG_AT);
}

// The threads of g whose predicate is true, or those whose predicate is false.
template <class Group>
coalesced_group binary_partition(const Group &g, bool pred, GPULAB_SIM_CG_WHERE)
{
    coalesced_group c = g;
    unsigned m = c.gpulab_mask();
    unsigned b =
        (unsigned)gpulab_sim::warp_exchange(gpulab_sim::BALLOT, m, pred, 0, 32, GPULAB_SIM_CG_AT);
    return coalesced_group(gpulab_sim::cg::coalesced_part(pred ? (b & m) : (~b & m)));
}

} // namespace cooperative_groups

#endif
