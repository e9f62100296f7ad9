// synccheck.cpp — the check mode's synccheck: a warp function whose mask
// names lanes that cannot arrive, or leaves out the calling lane. The other
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

} // namespace gpulab_sim
