// racecheck.cpp — the check mode's racecheck, and the checks of every
// access to shared memory: bounds (a static __shared__ array, the launch's
// dynamic shared memory), alignment, initialization (initcheck), and hazards
// between threads of a block with no barrier between them. A block of a
// cooperative grid saves its cells while others run (grid.cpp).
#include "check_internal.hpp"

#include <cstdio>
#include <cstring>

namespace gpulab_sim
{
namespace checks
{

void race(const char *kind, uintptr_t first_pc, const char *first, uintptr_t second_pc,
          const char *second, size_t other_thread)
{
    std::string a = location(first_pc), b = location(second_pc);
    check_count_error();
    if (!first_time(std::string(kind) + " hazard between " + a + " and " + b))
        return;
    uint3 t = threadIdx;
    unsigned ox = (unsigned)(other_thread % blockDim.x);
    unsigned oy = (unsigned)(other_thread / blockDim.x % blockDim.y);
    unsigned oz = (unsigned)(other_thread / ((size_t)blockDim.x * blockDim.y));
    std::lock_guard<std::mutex> lock(out_mutex);
    check_line("Error: Race reported between %s access at %s in %s", first, a.c_str(), ck->kernel);
    check_line("    and %s access at %s in %s [%s hazard on __shared__ memory, threads "
               "(%u,%u,%u) and (%u,%u,%u) of block (%u,%u,%u)]",
               second, b.c_str(), ck->kernel, kind, ox, oy, oz, t.x, t.y, t.z, blockIdx.x,
               blockIdx.y, blockIdx.z);
}

// An access to shared memory: static __shared__ variables when sp says where
// (the worker's window, see shared.cpp), else the TLS block (dynamic shared
// memory, file-scope __shared__ variables).
void check_shared(uintptr_t a, size_t size, bool write, uintptr_t pc, bool atomic,
                  const shared_place *sp)
{
    checker *c = ck;
    uintptr_t dyn = (uintptr_t)gpulab_sim_dynamic_shared;
    if (sp && (!sp->site || a < sp->lo || a + size > sp->hi)) {
        char why[512], place[400];
        static_shared_describe(a, size, *sp, place, sizeof(place));
        snprintf(why, sizeof(why), "is out of bounds\n=========     and %s", place);
        invalid(SHARED, write, size, a, pc, why);
    }
    if (!sp && a >= dyn && a < dyn + 100 * 1024 && a + size > dyn + c->dynamic_shmem) {
        char why[256];
        snprintf(why, sizeof(why),
                 "is %lu bytes past the end of the block's %zu bytes of dynamic shared memory",
                 (unsigned long)(a + size - (dyn + c->dynamic_shmem)), c->dynamic_shmem);
        invalid(SHARED, write, size, a, pc, why);
    }
    if (size <= 16 && (a & (size - 1)))
        invalid(SHARED, write, size, a, pc, "is misaligned");
    size_t me = check_thread_index();
    // One cell per byte: threads may own neighbouring bytes. A race is looked
    // for on the access's first byte; initialization on every byte.
    race_cell *cell = &c->cells[a - c->tls_lo];
    size_t cells = c->tls_hi - a;
    if (sp) {
        size_t end = a + size - sp->window;
        if (c->window_cells.size() < end)
            c->window_cells.resize((end + 4095) / 4096 * 4096);
        cell = &c->window_cells[a - sp->window];
        cells = size;
    }
    race_cell &e = cell[0];
    bool uninit = false;
    for (size_t b = 0; b < size && b < cells; b++) {
        race_cell &x = cell[b];
        uninit |= !write && x.init_block != c->block;
        if (write)
            x.init_block = c->block;
    }
    if ((tools & CHECK_INIT) && uninit)
        uninit_shared_read(size, pc);
    if (!(tools & CHECK_RACE) || atomic)
        return; // atomics do not race
    if (e.epoch != c->epoch) {
        e.epoch = c->epoch;
        e.written = e.read = e.many_readers = 0;
    }
    if (write) {
        if (e.written && e.writer != me)
            race("WAW", e.write_pc, "Write", pc, "Write", e.writer);
        else if (e.read && (e.reader != me || e.many_readers))
            race("WAR", e.read_pc, "Read", pc, "Write", e.reader);
        e.written = 1;
        e.writer = (uint16_t)me;
        e.write_pc = pc;
    } else {
        if (e.written && e.writer != me)
            race("RAW", e.write_pc, "Write", pc, "Read", e.writer);
        if (e.read && e.reader != me)
            e.many_readers = 1;
        e.read = 1;
        e.reader = (uint16_t)me;
        e.read_pc = pc;
    }
}

} // namespace checks

using namespace checks;

// The cells of the dynamic shared memory (nullptr when the checks keep none).
static race_cell *dynamic_cells()
{
    uintptr_t dyn = (uintptr_t)gpulab_sim_dynamic_shared;
    if (!ck || !tools || dyn < ck->tls_lo || dyn + ck->dynamic_shmem > ck->tls_hi ||
        dyn - ck->tls_lo + ck->dynamic_shmem > ck->cells.size())
        return nullptr;
    return &ck->cells[dyn - ck->tls_lo];
}

void check_save_block(check_block_state *out)
{
    if (!ck || !tools)
        return;
    if (tools & CHECK_STATS)
        fold_block(ck);
    out->block = ck->block;
    const unsigned char *w = (const unsigned char *)ck->window_cells.data();
    out->window_cells.assign(w, w + ck->window_cells.size() * sizeof(race_cell));
    const unsigned char *d = (const unsigned char *)dynamic_cells();
    if (d)
        out->dynamic_cells.assign(d, d + ck->dynamic_shmem * sizeof(race_cell));
}

void check_restore_block(const check_block_state &in)
{
    if (!ck || !tools)
        return;
    ck->block = in.block;
    ck->epoch = block_serial++ << 8;
    ck->window_cells.resize(in.window_cells.size() / sizeof(race_cell));
    if (!in.window_cells.empty())
        memcpy((void *)ck->window_cells.data(), in.window_cells.data(), in.window_cells.size());
    race_cell *d = dynamic_cells();
    if (d && in.dynamic_cells.size() == ck->dynamic_shmem * sizeof(race_cell))
        memcpy((void *)d, in.dynamic_cells.data(), in.dynamic_cells.size());
}

} // namespace gpulab_sim
