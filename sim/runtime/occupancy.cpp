// occupancy.cpp — blocks per multiprocessor by the occupancy calculator's
// rules (the CUDA toolkit's cuda_occupancy.h documents them; the unit test
// test_occupancy compares every profile against that header when the toolkit
// is installed). For compute capability 7.0 and later, with the default
// shared-memory carveout and no partitioned global caching:
// - blocks: the SM's resident block limit;
// - warps: resident warps per SM / warps per block (a block takes whole warps);
// - registers: each warp takes registers per thread x 32, rounded up to the
//   allocation unit of 256; the SM's registers are split over 4 sub-partitions,
//   each holding whole warps; a block whose registers (its warps rounded up to
//   a multiple of 4) exceed the per-block limit cannot run;
// - shared memory: static + dynamic + the driver's reserve per block, rounded
//   up to 256 bytes (7.x) or 128 bytes (8.0 on); the per-block limit is
//   48 KiB, or the opt-in maximum for a kernel whose dynamic limit was raised.
#include "occupancy.hpp"

#include "model.hpp"

#include <climits>
#include <cstdio>
#include <cstring>

namespace gpulab_sim
{
namespace
{

int round_up(long long x, long long unit)
{
    return (int)((x + unit - 1) / unit * unit);
}

} // namespace

occupancy occupancy_of(const occupancy_device &d, const occupancy_kernel &k)
{
    occupancy o;
    if (k.block_threads <= 0)
        return o;
    const int warp = 32, sub_partitions = 4, reg_unit = 256;
    int warps = (k.block_threads + warp - 1) / warp;
    o.warps_per_block = warps;
    o.by_blocks = d.max_blocks_per_sm;
    o.by_warps =
        k.block_threads > d.max_threads_per_block ? 0 : d.max_threads_per_sm / warp / warps;

    // Registers.
    int max_regs = d.cc_major >= 7 ? 256 : 255;
    int regs_per_warp = round_up((long long)k.regs_per_thread * warp, reg_unit);
    o.regs_per_block = regs_per_warp * warps;
    int assumed = regs_per_warp * round_up(warps, sub_partitions);
    if (d.regs_per_block < assumed || d.regs_per_block < o.regs_per_block ||
        k.regs_per_thread > max_regs)
        o.by_regs = 0;
    else if (regs_per_warp > 0)
        o.by_regs = d.regs_per_sm / sub_partitions / regs_per_warp * sub_partitions / warps;
    else
        o.by_regs = INT_MAX;

    // Shared memory.
    int unit = d.cc_major >= 8 ? 128 : 256;
    size_t static_part = k.static_smem + d.smem_reserved;
    o.smem_per_block = (size_t)round_up((long long)(static_part + k.dynamic_smem), unit);
    size_t limit = static_part + k.max_dynamic_smem > d.smem_per_block ? d.smem_per_block_optin
                                                                       : d.smem_per_block;
    if (d.cc_major >= 8)
        limit += d.smem_reserved;
    o.smem_config = d.smem_per_sm;
    if (k.dynamic_smem > k.max_dynamic_smem || o.smem_per_block > limit ||
        o.smem_per_block > o.smem_config)
        o.by_smem = 0;
    else
        o.by_smem = o.smem_per_block > 0 ? (int)(o.smem_config / o.smem_per_block) : INT_MAX;

    int least = o.by_blocks;
    for (int x : { o.by_warps, o.by_regs, o.by_smem })
        least = x < least ? x : least;
    o.blocks = least;
    const struct {
        int blocks;
        const char *name;
    } limits[] = { { o.by_warps, "warps" },
                   { o.by_regs, "registers" },
                   { o.by_smem, "shared memory" },
                   { o.by_blocks, "blocks" } };
    for (const auto &l : limits)
        if (l.blocks == least) {
            size_t n = strlen(o.limiter);
            snprintf(o.limiter + n, sizeof(o.limiter) - n, "%s%s", n ? ", " : "", l.name);
        }
    o.warps_per_sm = least * warps;
    o.theoretical = (double)o.warps_per_sm / (d.max_threads_per_sm / warp);
    return o;
}

occupancy_device occupancy_device_of(const gpu_profile &g)
{
    occupancy_device d;
    d.cc_major = g.cc_major;
    d.cc_minor = g.cc_minor;
    d.max_threads_per_sm = g.max_warps * 32;
    d.max_blocks_per_sm = g.max_blocks;
    d.regs_per_sm = g.regs;
    d.regs_per_block = 65536;
    d.smem_per_sm = (size_t)g.smem_kb * 1024;
    d.smem_per_block = 48 * 1024;
    // From 8.0 on the driver keeps 1 KiB of each block's shared memory, and
    // the opt-in maximum per block is the SM's less that KiB.
    d.smem_reserved = g.cc_major >= 8 ? 1024 : 0;
    d.smem_per_block_optin = d.smem_per_sm - d.smem_reserved;
    return d;
}

occupancy_device occupancy_device_of(const cudaDeviceProp &p)
{
    occupancy_device d;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    d.max_threads_per_block = p.maxThreadsPerBlock;
    d.regs_per_sm = p.regsPerMultiprocessor;
    d.regs_per_block = p.regsPerBlock;
    d.smem_per_sm = p.sharedMemPerMultiprocessor;
    d.smem_per_block = p.sharedMemPerBlock;
    d.smem_per_block_optin = p.sharedMemPerBlockOptin;
    d.smem_reserved = p.reservedSharedMemPerBlock;
    return d;
}

} // namespace gpulab_sim
