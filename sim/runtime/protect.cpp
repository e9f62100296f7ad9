// protect.cpp — host code that touches device memory faults, as on a GPU.
//
// On a GPU, device memory is not mapped into the host's address space:
// `x = d_x[0]` in host code is a segmentation fault. Here device memory is
// memory of the same process, so the simulator keeps each device's memory
// (not managed memory, which host and kernels share) PROT_NONE whenever no
// operation uses it. A kernel or cuBLAS call opens all of it (mprotect), and
// a run of them on an executor pays once: the executor closes it when its
// queue is empty. A copy or a set opens only the pages it touches, which
// costs little however much memory is allocated. Host code is caught when
// no kernel, copy, set or cuBLAS call is running: before the first launch,
// and after a synchronizing call. While queued work runs asynchronously,
// what it opened is open to host code too.
//
// Memory protection keys (pkey_mprotect) would catch every host access,
// since their rights are per thread, but threads the simulator does not own
// work on device memory too: OpenBLAS's pool, which does cuBLAS's work, is
// made when the library loads, and would lack the rights. So the simulator
// protects per process, with mprotect.
//
// A host fault in device memory is reported (the host line, the pointer and
// its allocation) and the program ends with SIGSEGV, as it would on a GPU.
// The check twin's hooks see host accesses in .cu files before they happen,
// with their size and line, whether device memory is open or not (check_tsan.cpp).
#include "internal.hpp"

#include <dlfcn.h>
#include <execinfo.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace gpulab_sim
{
namespace
{

constexpr int max_devices = 16;

struct region {
    std::atomic<uintptr_t> base{ 0 };
    std::atomic<size_t> size{ 0 };
    size_t reach = 0; // bytes from base that allocations have used, whole huge pages
};

region regions[max_devices];
std::mutex protect_mutex;
int users = 0;       // operations using all device memory now
bool failed = false; // an mprotect failed: device memory stays open
struct pages {
    uintptr_t lo, hi;
};
std::vector<pages> &open_pages = *new std::vector<pages>; // opened by copies and sets now
thread_local bool batch_open = false;                     // this executor opened all device memory

size_t page_size()
{
    static size_t p = (size_t)sysconf(_SC_PAGESIZE);
    return p;
}

void fail_open();

void set_pages(uintptr_t lo, uintptr_t hi, int prot)
{
    if (!failed && mprotect((void *)lo, hi - lo, prot) != 0)
        fail_open();
}

// Opens (or closes) every device's memory used so far; closing it keeps
// the pages that copies use now open. Caller holds protect_mutex.
void set_all(int prot)
{
    for (region &r : regions) {
        uintptr_t base = r.base.load(std::memory_order_relaxed);
        if (!base || !r.reach)
            continue;
        if (mprotect((void *)base, r.reach, prot) != 0 && prot == PROT_NONE) {
            fail_open();
            return;
        }
    }
    if (prot == PROT_NONE)
        for (const pages &p : open_pages)
            set_pages(p.lo, p.hi, PROT_READ | PROT_WRITE);
}

// An mprotect failed: everything open for the rest of the run, said once.
void fail_open()
{
    if (failed)
        return;
    failed = true;
    report("cannot change the protection of device memory (mprotect: %s); host code that "
           "reads device memory will not be caught in this run",
           strerror(errno));
    set_all(PROT_READ | PROT_WRITE);
}

// Where the faulting host code is: the first frame of the program (not of a
// library such as the C library's memcpy) from the faulting instruction on,
// as " at file:line (in function)", or " in function" without line
// information; "" when nothing is known.
std::string host_place(uintptr_t pc)
{
    void *frames[64];
    int n = backtrace(frames, 64);
    int start = n;
    for (int i = 0; i < n; i++)
        if ((uintptr_t)frames[i] == pc) {
            start = i;
            break;
        }
    Dl_info self;
    if (!dladdr((void *)&host_place, &self))
        return "";
    for (int i = start; i <= n; i++) {
        // The faulting instruction itself; then return addresses (the call is before).
        uintptr_t a = i == start ? pc : (uintptr_t)frames[i] - 1;
        if (i == n && start != n)
            break;
        Dl_info in;
        if (!a || !dladdr((void *)a, &in) || in.dli_fbase != self.dli_fbase)
            continue;
        std::string line = source_line(a, {});
        std::string fn;
        char cmd[4600];
        if (in.dli_fname && !strchr(in.dli_fname, '\'')) {
            snprintf(cmd, sizeof(cmd), "addr2line -f -C -e '%s' 0x%lx 2>/dev/null", in.dli_fname,
                     (unsigned long)(a - (uintptr_t)in.dli_fbase));
            if (FILE *p = popen(cmd, "r")) {
                char buf[1024];
                if (fgets(buf, sizeof(buf), p)) {
                    buf[strcspn(buf, "\n")] = '\0';
                    if (buf[0] && buf[0] != '?')
                        fn = buf;
                }
                while (fgets(buf, sizeof(buf), p))
                    ;
                pclose(p);
            }
        }
        if (!line.empty())
            return line + (fn.empty() ? "" : " (in " + fn + ")");
        if (!fn.empty() && i == start)
            return " in " + fn;
    }
    return "";
}

int region_of(uintptr_t a)
{
    for (int d = 0; d < max_devices; d++) {
        uintptr_t base = regions[d].base.load(std::memory_order_acquire);
        if (base && a >= base && a - base < regions[d].size.load(std::memory_order_relaxed))
            return d;
    }
    return -1;
}

[[noreturn]] void report_and_stop(uintptr_t addr, size_t size, int write, const std::string &where)
{
    int d = region_of(addr);
    allocation al;
    int found = fault_allocation((const void *)addr, &al);
    char what[1024];
    if (found == 1) {
        char site[600] = "";
        if (al.file)
            snprintf(site, sizeof(site), " at %s:%d%s%s%s", al.file, al.line,
                     al.function ? " (in " : "", al.function ? al.function : "",
                     al.function ? ")" : "");
        snprintf(what, sizeof(what), "%zu bytes into the %zu-byte allocation made by %s%s",
                 (size_t)(addr - al.base), al.size, al.api ? al.api : "cudaMalloc", site);
    } else if (found == 0) {
        snprintf(what, sizeof(what),
                 "device memory of device %d that is not allocated (freed already, or never "
                 "returned by cudaMalloc)",
                 d);
    } else {
        snprintf(what, sizeof(what), "device memory of device %d", d);
    }
    char amount[64] = "";
    if (size)
        snprintf(amount, sizeof(amount), " %zu bytes of", size);
    report("host code %s%s device memory%s: address %p is %s. Host code cannot dereference a "
           "device pointer; on a GPU this is a segmentation fault, and the program stops here "
           "the same way (SIGSEGV). Copy the data to host memory with cudaMemcpy and use the "
           "copy, or allocate it with cudaMallocManaged%s",
           write == 1   ? "wrote"
           : write == 0 ? "read"
                        : "accessed",
           amount, where.empty() ? "" : where.c_str(), (void *)addr, what,
           where.empty() ? " (build with -g to have the line named)" : "");
    fflush(stderr);
    signal(SIGSEGV, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGSEGV);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    raise(SIGSEGV);
    _exit(128 + SIGSEGV);
}

} // namespace

void protect_device_memory(int d, uintptr_t base, size_t size)
{
    if (d < 0 || d >= max_devices)
        return;
    install_fault_handler();
    {
        // The report's backtrace must not load its unwinder inside a signal handler.
        void *warm[2];
        backtrace(warm, 2);
    }
    std::lock_guard<std::mutex> lock(protect_mutex);
    if (!failed && mprotect((void *)base, size, PROT_NONE) != 0) {
        report("cannot protect device memory (mprotect: %s); host code that reads device "
               "memory will not be caught in this run",
               strerror(errno));
        return;
    }
    regions[d].size.store(size, std::memory_order_relaxed);
    regions[d].base.store(base, std::memory_order_release);
}

void device_memory_grow(int d, uintptr_t end)
{
    if (d < 0 || d >= max_devices)
        return;
    std::lock_guard<std::mutex> lock(protect_mutex);
    region &r = regions[d];
    uintptr_t base = r.base.load(std::memory_order_relaxed);
    if (!base || end <= base)
        return;
    // Whole huge pages (memory.cpp asks for them): an mprotect that ends
    // inside one would split it into small pages.
    size_t reach = (end - base + device_huge_page - 1) / device_huge_page * device_huge_page;
    size_t size = r.size.load(std::memory_order_relaxed);
    reach = reach < size ? reach : size;
    if (reach <= r.reach)
        return;
    if ((users > 0 || failed) &&
        mprotect((void *)(base + r.reach), reach - r.reach, PROT_READ | PROT_WRITE) != 0)
        return;
    r.reach = reach;
}

void device_memory_open()
{
    std::lock_guard<std::mutex> lock(protect_mutex);
    if (users++ == 0 && !failed)
        set_all(PROT_READ | PROT_WRITE);
}

void device_memory_close()
{
    std::lock_guard<std::mutex> lock(protect_mutex);
    if (--users == 0 && !failed)
        set_all(PROT_NONE);
}

// The whole pages of [p, p + n) when that is device memory.
bool page_span(const void *p, size_t n, pages *out)
{
    uintptr_t a = (uintptr_t)p;
    if (!n || region_of(a) < 0)
        return false;
    out->lo = a / page_size() * page_size();
    out->hi = (a + n + page_size() - 1) / page_size() * page_size();
    return true;
}

void device_memory_open(const void *p, size_t n)
{
    pages s;
    if (!page_span(p, n, &s))
        return;
    std::lock_guard<std::mutex> lock(protect_mutex);
    open_pages.push_back(s);
    if (users == 0)
        set_pages(s.lo, s.hi, PROT_READ | PROT_WRITE);
}

void device_memory_close(const void *p, size_t n)
{
    pages s;
    if (!page_span(p, n, &s))
        return;
    std::lock_guard<std::mutex> lock(protect_mutex);
    for (size_t i = 0; i < open_pages.size(); i++)
        if (open_pages[i].lo == s.lo && open_pages[i].hi == s.hi) {
            open_pages.erase(open_pages.begin() + (long)i);
            break;
        }
    if (users > 0)
        return;
    set_pages(s.lo, s.hi, PROT_NONE);
    for (const pages &o : open_pages) // a page another copy still uses
        if (o.lo < s.hi && s.lo < o.hi)
            set_pages(o.lo, o.hi, PROT_READ | PROT_WRITE);
}

void device_memory_batch_open()
{
    if (!batch_open)
        device_memory_open();
    batch_open = true;
}

void device_memory_batch_close()
{
    if (batch_open)
        device_memory_close();
    batch_open = false;
}

bool in_device_memory(uintptr_t addr)
{
    return region_of(addr) >= 0;
}

void host_fault(uintptr_t addr, uintptr_t pc, int write)
{
    if (region_of(addr) < 0)
        return;
    report_and_stop(addr, 0, write, host_place(pc));
}

void host_access(uintptr_t addr, size_t size, int write, const char *where)
{
    std::string at = where && *where && *where != '?' ? std::string(" at ") + where : "";
    report_and_stop(addr, size, write, at);
}

} // namespace gpulab_sim
