// synccheck.cpp — the check mode's synccheck: a warp function whose mask
// names lanes that cannot arrive, or leaves out the calling lane, and a
// shuffle that reads a lane outside the group that runs it. The other
// barrier errors are reported where the runtime finds them, in synccheck's
// words when it is on: threads of a block stuck at different barriers
// (block.cpp, report_deadlock) and grid.sync() in a kernel not launched
// cooperatively (grid.cpp, grid_sync).
#include "check_internal.hpp"

#include <cstdio>

namespace gpulab_sim
{

using namespace checks;

void check_warp_mask(unsigned mask, unsigned present, const char *file, int line)
{
    if (!(tools & CHECK_SYNC))
        return;
    check_count_error();
    char key[600];
    snprintf(key, sizeof(key), "divergent warp at %s:%d", file, line);
    if (!first_time(key))
        return;
    std::lock_guard<std::mutex> lock(out_mutex);
    check_line("Barrier error detected. Divergent thread(s) in warp");
    check_line("    at %s in %s:%d", ck ? ck->kernel : "?", file, line);
    by_thread_line();
    check_line("    mask 0x%08x, lanes that can arrive 0x%08x", mask, present);
}

void check_shfl_outside(const char *file, int line, uint3 tid, int lane, int src, shfl_lane_why why,
                        unsigned exist, unsigned group)
{
    if (!(tools & CHECK_SYNC))
        return;
    check_count_error();
    char key[600];
    snprintf(key, sizeof(key), "shuffle outside group at %s:%d", file, line);
    if (!first_time(key))
        return;
    char reason[200];
    const char *gpu = "a GPU gives that lane's register, whatever it holds";
    if (why == SHFL_LANE_ABSENT) {
        snprintf(reason, sizeof(reason), "which the block does not have (its warp has %u thread%s)",
                 exist, exist == 1 ? "" : "s");
        gpu = "GPUs give 0";
    } else if (why == SHFL_LANE_EXITED) {
        snprintf(reason, sizeof(reason), "which has exited");
    } else {
        snprintf(reason, sizeof(reason),
                 "which the mask leaves out (the lanes that ran it: 0x%08x)", group);
    }
    std::lock_guard<std::mutex> lock(out_mutex);
    check_line("Undefined warp shuffle result: a lane read outside its group");
    check_line("    at %s in %s:%d", ck ? ck->kernel : "?", file, line);
    check_line("    by thread (%u,%u,%u) in block (%u,%u,%u)", tid.x, tid.y, tid.z, blockIdx.x,
               blockIdx.y, blockIdx.z);
    check_line("    lane %d reads lane %d, %s: CUDA leaves the value undefined (%s); the "
               "simulator gives 0",
               lane, src, reason, gpu);
}

} // namespace gpulab_sim
