// plain_copy.cpp — the cheap path of the performance model's counting.
//
// With the model on, a program runs as its check twin (check.cpp), whose
// kernel code calls a hook before every load and store. For a grid of more
// than 128 blocks the model counts only 64 of them (check_counts.cpp's sample) and
// scales up; the other blocks would pay for the hooks and count nothing. So
// the twin also carries a plain copy of its kernel code: the plain program's
// objects, linked in beside the instrumented ones with every function renamed
// gpulab_plain.<name> and every variable shared (tools/gpulab-sim-plain-copy).
// A launch's task is the same for both copies, so a block the sample leaves
// out runs gpulab_plain.run_block<...> (or run_thread, for fibers) instead
// of run_block<...>, at the plain program's speed. The pairs are found by
// name in the program's own symbol table, once.
//
// Both copies are the same source compiled the same way but for the hooks:
// barriers, warp functions and atomics are the same runtime calls, shared
// memory the same window, global variables the same ones; a block runs one
// copy from start to end. Under a check tool, or with GPULAB_SIM_STATS=1,
// there is no sample and every block runs instrumented.
#include "check.hpp"
#include "internal.hpp"
#include "plain_copy.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "gpulab_sim/model.h"

namespace gpulab_sim
{
namespace
{

constexpr char plain_prefix[] = "gpulab_plain.";
// The entry points a launch's kernel_ops names (kernel.hpp), mangled.
constexpr const char *entry_prefixes[] = { "_ZN10gpulab_sim9run_blockI",
                                           "_ZN10gpulab_sim10run_threadI" };

bool is_entry(const char *name)
{
    for (const char *p : entry_prefixes)
        if (strncmp(name, p, strlen(p)) == 0)
            return true;
    return false;
}

int first_object(struct dl_phdr_info *info, size_t, void *bias)
{
    *(uintptr_t *)bias = info->dlpi_addr;
    return 1;
}

// Entry of the instrumented code -> entry of its plain copy.
std::unordered_map<uintptr_t, uintptr_t> &pairs = *new std::unordered_map<uintptr_t, uintptr_t>;

// Reads the program's symbol table: every run_block / run_thread that has
// exactly one plain copy, and is itself defined once (a name defined twice,
// two static functions of different files, pairs with nothing).
void find_pairs()
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    void *m = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(ElfW(Ehdr)))
        m = mmap(nullptr, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return;
    const size_t size = (size_t)st.st_size;
    const unsigned char *base = (const unsigned char *)m;
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
    auto inside = [&](size_t off, size_t len) { return off <= size && len <= size - off; };
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
        !inside(eh->e_shoff, (size_t)eh->e_shnum * sizeof(ElfW(Shdr)))) {
        munmap(m, size);
        return;
    }
    const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(base + eh->e_shoff);
    std::map<std::string, std::pair<uintptr_t, int>> code, copy; // name -> address, times defined
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
            sh[i].sh_entsize != sizeof(ElfW(Sym)) || !inside(sh[i].sh_offset, sh[i].sh_size))
            continue;
        const ElfW(Shdr) &strs = sh[sh[i].sh_link];
        if (!inside(strs.sh_offset, strs.sh_size))
            continue;
        const char *names = (const char *)base + strs.sh_offset;
        const ElfW(Sym) *sym = (const ElfW(Sym) *)(base + sh[i].sh_offset);
        size_t n = sh[i].sh_size / sizeof(ElfW(Sym));
        for (size_t k = 0; k < n; k++) {
            if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || sym[k].st_shndx == SHN_UNDEF ||
                sym[k].st_name >= strs.sh_size ||
                !memchr(names + sym[k].st_name, '\0', strs.sh_size - sym[k].st_name))
                continue;
            const char *name = names + sym[k].st_name;
            bool plain = strncmp(name, plain_prefix, sizeof(plain_prefix) - 1) == 0;
            if (plain)
                name += sizeof(plain_prefix) - 1;
            if (!is_entry(name))
                continue;
            auto &slot = (plain ? copy : code)[name];
            slot.first = (uintptr_t)sym[k].st_value;
            slot.second++;
        }
    }
    munmap(m, size);
    uintptr_t bias = 0;
    dl_iterate_phdr(first_object, &bias);
    for (auto &kv : copy) {
        auto it = code.find(kv.first);
        if (kv.second.second == 1 && it != code.end() && it->second.second == 1)
            pairs[bias + it->second.first] = bias + kv.second.first;
    }
}

bool wanted()
{
    const char *s = getenv("GPULAB_SIM_PLAIN_COPY");
    return !(s && strcmp(s, "0") == 0);
}

std::once_flag pairs_once;
std::mutex ops_mutex;
std::unordered_map<const kernel_ops *, const kernel_ops *> &copies =
    *new std::unordered_map<const kernel_ops *, const kernel_ops *>;
std::atomic<unsigned long long> last_plain_blocks{ 0 };

} // namespace

const kernel_ops *plain_copy(const kernel_ops *ops, uint64_t blocks)
{
    static const bool on = wanted();
    // Block 1 is counted when every block is: no sample, nothing to leave out.
    if (!on || !check_counts_sample() || check_block_counted(1, blocks))
        return nullptr;
    std::call_once(pairs_once, find_pairs);
    std::lock_guard<std::mutex> lock(ops_mutex);
    auto it = copies.find(ops);
    if (it != copies.end())
        return it->second;
    kernel_ops *plain = nullptr;
    auto b = pairs.find((uintptr_t)ops->run_block), t = pairs.find((uintptr_t)ops->run_thread);
    if (b != pairs.end() && t != pairs.end()) {
        plain = new kernel_ops(*ops); // what has no copy stays the instrumented code
        plain->run_block = (void (*)(void *))b->second;
        plain->run_thread = (void (*)(void *))t->second;
    }
    copies[ops] = plain;
    return plain;
}

void plain_copy_done(uint64_t plain_blocks)
{
    last_plain_blocks.store(plain_blocks, std::memory_order_relaxed);
}

} // namespace gpulab_sim

extern "C" unsigned long long gpulab_sim_model_plain_blocks(void)
{
    return gpulab_sim::last_plain_blocks.load(std::memory_order_relaxed);
}
