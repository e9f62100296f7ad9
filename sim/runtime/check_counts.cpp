// check_counts.cpp — access counts: loads and stores, requests and 32-byte
// sectors of global memory, per kernel, for GPULAB_SIM_STATS=1 (printed) and
// for the performance model (model.cpp; a sample of a large grid's blocks).
#include "check_internal.hpp"
#include "model.hpp"

#include <algorithm>

namespace gpulab_sim
{
namespace checks
{

std::mutex stats_mutex;
gpulab_sim_kernel_stats kernel_totals{}, last_kernel{};
unsigned long long kernel_barriers = 0, last_barriers = 0;
// The static __shared__ variables the counted blocks touched, this kernel and
// the last one's bytes (each rounded up to its alignment, as a compiler lays
// them out).
std::vector<const shared_site *> kernel_sites;
size_t last_static_smem = 0;
bool have_last_kernel = false;
// GPULAB_SIM_STATS=1 prints each kernel's counts; the performance model
// (GPULAB_SIM_MODEL) counts without printing.
bool stats_print = false;
// The model alone counts 1 block in `every` of a large grid (sampled_blocks
// of them), and scales up (model.cpp): the blocks of a kernel do the same
// work but for the grid's edge, and counting all of them would more than
// double a demo's time; the others run the twin's plain copy of the kernel
// (plain_copy.cpp). GPULAB_SIM_STATS=1 counts every block.
constexpr uint64_t sampled_blocks = 64;
std::atomic<uint64_t> kernel_every{ 1 };
uint64_t last_every = 1;

// 1 in how many blocks of a grid of `total` the model alone counts.
inline uint64_t sample_every(uint64_t total)
{
    return total > 2 * sampled_blocks ? total / sampled_blocks : 1;
}

// Of the counted blocks, the model looks at the shared-memory banks of 1 in
// bank_every (at least the first): a wavefront count is a map look-up and a
// vector per access, which in every counted block made modeled runs a third
// slower; the blocks of a kernel use the banks alike.
constexpr uint64_t bank_every = 8;
unsigned long long bank_accesses_total = 0, last_bank_accesses = 0;

// Whether the running block is one the counts include; *banks: whether its
// bank wavefronts are counted too.
inline bool block_counted(bool *banks)
{
    if (stats_print) {
        *banks = true;
        return true;
    }
    uint64_t total = (uint64_t)gridDim.x * gridDim.y * gridDim.z;
    uint64_t every = sample_every(total);
    kernel_every.store(every, std::memory_order_relaxed);
    uint64_t b = blockIdx.x + (uint64_t)gridDim.x * (blockIdx.y + (uint64_t)gridDim.y * blockIdx.z);
    *banks = b % (every * bank_every) == 0;
    return b % every == 0;
}

void count_access(checker *c, bool global, bool write, uintptr_t a, size_t size, uintptr_t pc)
{
    bool banks;
    if (!block_counted(&banks))
        return;
    if (!global && !banks) {
        (write ? c->counts.shared_stores : c->counts.shared_loads)++;
        return;
    }
    size_t t = check_thread_index();
    uint64_t k = c->executions[(uint64_t)pc << 10 | t]++;
    if (!global) {
        (write ? c->counts.shared_stores : c->counts.shared_loads)++;
        c->bank_accesses++;
        shared_place where;
        if (static_shared_find(a, &where) && where.site) {
            bool known = false;
            for (const shared_site *x : c->sites)
                known |= x == where.site;
            if (!known)
                c->sites.push_back(where.site);
        }
        std::vector<std::vector<uint32_t>> &by_k = c->shared_words[(uint64_t)pc << 10 | t / 32];
        if (by_k.size() <= k)
            by_k.resize(k + 1);
        std::vector<uint32_t> &v = by_k[k];
        for (uintptr_t word = a >> 2; word <= (a + size - 1) >> 2; word++) {
            bool seen_it = false;
            for (uint32_t x : v)
                seen_it |= x == (uint32_t)word;
            if (!seen_it)
                v.push_back((uint32_t)word);
        }
        return;
    }
    (write ? c->counts.global_stores : c->counts.global_loads)++;
    std::vector<std::vector<uint64_t>> &by_k = c->requests[write][(uint64_t)pc << 10 | t / 32];
    if (by_k.size() <= k)
        by_k.resize(k + 1);
    for (uintptr_t sec = a >> 5; sec <= (a + size - 1) >> 5; sec++) {
        std::vector<uint64_t> &v = by_k[k];
        bool seen_it = false;
        for (uint64_t x : v)
            seen_it |= x == sec;
        if (!seen_it)
            v.push_back(sec);
    }
}

// Folds this worker's block into its counts: one request per warp instruction.
void fold_block(checker *c)
{
    for (int w = 0; w < 2; w++) {
        for (auto &kv : c->requests[w])
            for (auto &secs : kv.second) {
                if (secs.empty())
                    continue;
                (w ? c->counts.store_requests : c->counts.load_requests)++;
                (w ? c->counts.store_sectors : c->counts.load_sectors) += secs.size();
            }
        c->requests[w].clear();
    }
    // Shared memory: a wavefront per distinct word of the busiest bank.
    for (auto &kv : c->shared_words)
        for (auto &words : kv.second) {
            if (words.empty())
                continue;
            unsigned char per_bank[32] = {};
            unsigned most = 0;
            for (uint32_t x : words) {
                unsigned n = ++per_bank[x % 32];
                most = n > most ? n : most;
            }
            c->counts.shared_requests++;
            c->counts.shared_wavefronts += most;
        }
    c->shared_words.clear();
    c->executions.clear();
}

} // namespace checks

using namespace checks;

void check_leave_kernel()
{
    if (!ck)
        return;
    ck->in_kernel = false;
    if (tools & CHECK_STATS) {
        fold_block(ck);
        std::lock_guard<std::mutex> lock(stats_mutex);
        gpulab_sim_kernel_stats &t = kernel_totals, &m = ck->counts;
        t.global_loads += m.global_loads;
        t.global_stores += m.global_stores;
        t.shared_loads += m.shared_loads;
        t.shared_stores += m.shared_stores;
        t.load_requests += m.load_requests;
        t.load_sectors += m.load_sectors;
        t.store_requests += m.store_requests;
        t.store_sectors += m.store_sectors;
        t.shared_requests += m.shared_requests;
        t.shared_wavefronts += m.shared_wavefronts;
        kernel_barriers += ck->barriers;
        ck->barriers = 0;
        bank_accesses_total += ck->bank_accesses;
        ck->bank_accesses = 0;
        for (const shared_site *x : ck->sites)
            if (std::find(kernel_sites.begin(), kernel_sites.end(), x) == kernel_sites.end())
                kernel_sites.push_back(x);
        ck->sites.clear();
        m = gpulab_sim_kernel_stats{};
    }
}

void check_kernel_done(const char *kernel, const char *file, int line, unsigned long long threads)
{
    if (!(tools & CHECK_STATS))
        return;
    std::lock_guard<std::mutex> lock(stats_mutex);
    gpulab_sim_kernel_stats t = kernel_totals;
    t.threads = threads;
    last_kernel = t;
    last_barriers = kernel_barriers;
    last_bank_accesses = bank_accesses_total;
    bank_accesses_total = 0;
    last_every = kernel_every.exchange(1);
    last_static_smem = 0;
    for (const shared_site *x : kernel_sites) {
        size_t align = x->align ? x->align : 1;
        last_static_smem = (last_static_smem + align - 1) / align * align + x->size;
    }
    kernel_sites.clear();
    have_last_kernel = true;
    kernel_totals = gpulab_sim_kernel_stats{};
    kernel_barriers = 0;
    if (!stats_print)
        return;
    double n = threads ? (double)threads : 1.0;
    check_line("gpulab-sim stats: kernel %s (launched at %s:%d), counted by the simulator", kernel,
               file, line);
    check_line("    %llu threads; global loads %llu (%.1f per thread), stores %llu (%.1f per "
               "thread); shared loads %llu, stores %llu",
               t.threads, t.global_loads, t.global_loads / n, t.global_stores, t.global_stores / n,
               t.shared_loads, t.shared_stores);
    check_line("    global load requests %llu: %llu sectors of 32 bytes (%.1f per request)",
               t.load_requests, t.load_sectors,
               t.load_requests ? (double)t.load_sectors / t.load_requests : 0.0);
    check_line("    global store requests %llu: %llu sectors of 32 bytes (%.1f per request)",
               t.store_requests, t.store_sectors,
               t.store_requests ? (double)t.store_sectors / t.store_requests : 0.0);
    if (t.shared_requests)
        check_line("    shared requests %llu: %llu bank wavefronts (%.1f per request; 1.0: no bank "
                   "conflicts)",
                   t.shared_requests, t.shared_wavefronts,
                   (double)t.shared_wavefronts / t.shared_requests);
}

bool check_counts_sample()
{
    return tools == CHECK_STATS && !stats_print;
}

bool check_block_counted(uint64_t b, uint64_t total)
{
    return stats_print || b % sample_every(total) == 0;
}

int check_sample_every()
{
    std::lock_guard<std::mutex> lock(stats_mutex);
    return (int)last_every;
}

bool check_last_counts(kernel_counts *out)
{
    *out = kernel_counts{};
    if (!(tools & CHECK_STATS))
        return false;
    std::lock_guard<std::mutex> lock(stats_mutex);
    if (!have_last_kernel)
        return false;
    const gpulab_sim_kernel_stats &t = last_kernel;
    out->counted = true;
    out->sample = (double)last_every;
    out->threads = (double)t.threads;
    out->load_requests = (double)t.load_requests;
    out->load_sectors = (double)t.load_sectors;
    out->store_requests = (double)t.store_requests;
    out->store_sectors = (double)t.store_sectors;
    out->global_accesses = (double)(t.global_loads + t.global_stores);
    out->shared_accesses = (double)(t.shared_loads + t.shared_stores);
    out->barriers = (double)last_barriers; // every block: barriers are cheap to count
    out->static_smem = (double)last_static_smem;
    // Shared requests and wavefronts: from the blocks whose banks were
    // counted, in proportion to all the shared accesses counted.
    if (last_bank_accesses > 0 && t.shared_requests > 0) {
        double scale = out->shared_accesses / (double)last_bank_accesses;
        out->shared_requests = (double)t.shared_requests * scale;
        out->shared_wavefronts = (double)t.shared_wavefronts * scale;
    }
    return true;
}

} // namespace gpulab_sim

extern "C" int gpulab_sim_last_kernel_stats(struct gpulab_sim_kernel_stats *out)
{
    std::lock_guard<std::mutex> lock(gpulab_sim::checks::stats_mutex);
    // Counts for the model alone (no GPULAB_SIM_STATS=1) may be a sample: not these.
    if (!out || !(gpulab_sim::checks::tools & gpulab_sim::CHECK_STATS) ||
        !gpulab_sim::checks::stats_print || !gpulab_sim::checks::have_last_kernel)
        return -1;
    *out = gpulab_sim::checks::last_kernel;
    return 0;
}
