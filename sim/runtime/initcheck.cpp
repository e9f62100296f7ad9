// initcheck.cpp — the check mode's initcheck: one bit per byte of device
// memory says whether it was written (by a kernel, a copy or a set), and a
// read of bytes never written is reported. Shared memory's bytes carry the
// block that last wrote them (racecheck.cpp's cells).
#include "check_internal.hpp"

#include <cstring>

namespace gpulab_sim
{
namespace checks
{

// Marks [a, a + n) written (on) or not. Kernels on the workers and copies on
// the executors mark neighbouring bytes at the same time, so a shadow byte
// shared with bytes outside the range is updated atomically; shadow bytes
// wholly inside it belong to this range alone.
void set_init(device_shadow *s, uintptr_t a, size_t n, bool on)
{
    size_t bit = a - s->base, end = bit + n;
    while (bit < end) {
        uint8_t *byte = &s->init[bit >> 3];
        size_t lo = bit & 7, hi = lo + (end - bit) < 8 ? lo + (end - bit) : 8;
        if (lo == 0 && hi == 8 && end - bit >= 16) {
            size_t whole = (end - bit) >> 3;
            memset(byte, on ? 0xff : 0, whole);
            bit += whole << 3;
            continue;
        }
        uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1u) << lo);
        if (!on)
            __atomic_fetch_and(byte, (uint8_t)~mask, __ATOMIC_RELAXED);
        else if ((__atomic_load_n(byte, __ATOMIC_RELAXED) & mask) != mask)
            __atomic_fetch_or(byte, mask, __ATOMIC_RELAXED);
        bit += hi - lo;
    }
}

bool all_init(const device_shadow *s, uintptr_t a, size_t n)
{
    size_t first = a - s->base;
    if ((first & 7) + n <= 8) {
        uint8_t mask = (uint8_t)(((1u << n) - 1u) << (first & 7));
        return (s->init[first >> 3] & mask) == mask;
    }
    for (size_t i = 0; i < n; i++) {
        size_t off = a + i - s->base;
        if (!(s->init[off >> 3] & (1u << (off & 7))))
            return false;
    }
    return true;
}

// check_global's report (memcheck.cpp).
void uninit_global_read(uintptr_t a, size_t size, uintptr_t pc)
{
    std::string where = location(pc);
    check_count_error();
    if (first_time("uninitialized __global__ read at " + where)) {
        std::lock_guard<std::mutex> lock(out_mutex);
        check_line("Uninitialized __global__ memory read of size %zu bytes", size);
        check_line("    at %s in %s", ck->kernel, where.c_str());
        by_thread_line();
        check_line("    Address 0x%lx", (unsigned long)a);
    }
}

// check_shared's report (racecheck.cpp).
void uninit_shared_read(size_t size, uintptr_t pc)
{
    std::string where = location(pc);
    check_count_error();
    if (first_time("uninitialized __shared__ read at " + where)) {
        std::lock_guard<std::mutex> lock(out_mutex);
        check_line("Uninitialized __shared__ memory read of size %zu bytes", size);
        check_line("    at %s in %s", ck->kernel, where.c_str());
        by_thread_line();
    }
}

} // namespace checks

using namespace checks;

void check_mark_init(const void *p, size_t n)
{
    if (!(tools & CHECK_INIT))
        return;
    if (device_shadow *s = shadow_for((uintptr_t)p))
        set_init(s, (uintptr_t)p, n, true);
}

} // namespace gpulab_sim
