// fault.cpp — kernels that stop: a fault (a wild pointer, an index past a
// __shared__ array, a stack overflow), __trap(), a failed assert(); and the
// fault handler that also reports host code touching device memory
// (protect.cpp).
#include "exec.hpp"
#include "shared.hpp"

#include <dlfcn.h>
#include <ucontext.h>

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <string>

namespace gpulab_sim
{

void fmt_dim(char *buf, size_t n, uint3 v)
{
    snprintf(buf, n, "(%u,%u,%u)", v.x, v.y, v.z);
}
const char *where_line(const job *j, char *buf, size_t n)
{
    snprintf(buf, n, "kernel %s (launched at %s:%d)", j->req.kernel_name, j->req.file, j->req.line);
    return buf;
}

void set_error(job *j, cudaError_t e)
{
    int expected = cudaSuccess;
    j->error.compare_exchange_strong(expected, (int)e);
}

// Stops the block on this worker, and the rest of the kernel, with error e.
[[noreturn]] void abort_block(cudaError_t e)
{
    worker_state &w = self();
    set_error(w.current, e);
    if (w.fibers) {
        // Leave the fiber for good: the scheduler sees the error and stops.
        fiber_context dead;
        fiber_switch(&dead, &w.scheduler);
    }
    siglongjmp(w.escape, 1);
}

namespace
{

// ---------------------------------------------------------------------------
// Faults: a kernel that dereferences a wild pointer lands here, and so does
// host code that touches device memory (protect.cpp).

void on_fault(int sig, siginfo_t *info, void *uctx)
{
    if (!worker_tls || !worker_tls->in_kernel) {
        uintptr_t pc = 0;
        int write = -1;
#if defined(__x86_64__) && defined(REG_RIP)
        const ucontext_t *uc = static_cast<const ucontext_t *>(uctx);
        pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
        write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#elif defined(__aarch64__)
        pc = (uintptr_t) static_cast<const ucontext_t *>(uctx)->uc_mcontext.pc;
#endif
        host_fault((uintptr_t)info->si_addr, pc, write); // ends the program if it was that
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    worker_tls->fault_addr = (uintptr_t)info->si_addr;
    worker_tls->fault_pc = 0;
    worker_tls->fault_write = -1;
#if defined(__x86_64__) && defined(REG_RIP)
    const ucontext_t *uc = static_cast<const ucontext_t *>(uctx);
    worker_tls->fault_pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    worker_tls->fault_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0; // page fault: W bit
#elif defined(__aarch64__)
    worker_tls->fault_pc = (uintptr_t) static_cast<const ucontext_t *>(uctx)->uc_mcontext.pc;
#endif
    worker_tls->in_kernel = false;
    // The block runner saves no signal mask (that is a system call per block):
    // restore here the mask that returning from the handler would have.
    pthread_sigmask(SIG_SETMASK, &static_cast<const ucontext_t *>(uctx)->uc_sigmask, nullptr);
    siglongjmp(worker_tls->escape, 2);
}

} // namespace

void install_fault_handler()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, nullptr);
        sigaction(SIGBUS, &sa, nullptr);
    });
}

namespace
{

// The .cu file a rewritten file stands for: addr2line reading DWARF 5 can name
// the rewritten "<dir>/x.cu.cpp" where its #line directives say "x.cu". The
// original is one of `known` (same name plus ".cpp"), or the one the rewritten
// file's first line names.
std::string original_file(const std::string &file, std::initializer_list<const char *> known)
{
    size_t n = file.size();
    if (n < 4 || file.compare(n - 4, 4, ".cpp") != 0)
        return file;
    std::string base = file.substr(0, n - 4);
    base = base.substr(base.find_last_of('/') + 1);
    for (const char *k : known) {
        std::string kb = k ? k : "";
        if (!kb.empty() && kb.substr(kb.find_last_of('/') + 1) == base)
            return kb;
    }
    std::string out = file;
    if (FILE *f = fopen(file.c_str(), "r")) {
        char first[4200];
        if (fgets(first, sizeof(first), f) && strncmp(first, "#line 1 \"", 9) == 0) {
            char *end = strrchr(first + 9, '"');
            if (end)
                out.assign(first + 9, end);
        }
        fclose(f);
    }
    return out;
}

} // namespace

// " at file:line" of the instruction at pc, when the program has line
// information (-g) and addr2line is there; else "".
std::string source_line(uintptr_t pc, std::initializer_list<const char *> known)
{
    Dl_info info;
    if (!pc || !dladdr((void *)pc, &info) || !info.dli_fname || strchr(info.dli_fname, '\''))
        return "";
    char cmd[4600];
    snprintf(cmd, sizeof(cmd), "addr2line -i -e '%s' 0x%lx 2>/dev/null", info.dli_fname,
             (unsigned long)(pc - (uintptr_t)info.dli_fbase));
    std::string where;
    if (FILE *p = popen(cmd, "r")) {
        char line[1024];
        if (fgets(line, sizeof(line), p)) {
            line[strcspn(line, "\n")] = '\0';
            if (char *disc = strstr(line, " (discriminator"))
                *disc = '\0';
            char *colon = strrchr(line, ':');
            if (line[0] != '?' && colon && colon[1] != '?' && strcmp(colon, ":0") != 0)
                where = " at " + original_file(std::string(line, colon), known) + colon;
        }
        while (fgets(line, sizeof(line), p))
            ;
        pclose(p);
    }
    return where;
}

namespace
{

// A fault in the worker's static shared-memory window: an index past the end
// (or before the start) of a __shared__ array. Returns false for other faults.
bool report_shared_fault(job *j, const char *t, const char *b)
{
    worker_state &w = self();
    shared_place p;
    if (!static_shared_find(w.fault_addr, &p))
        return false;
    char where[512], what[512];
    static_shared_describe(w.fault_addr, 1, p, what, sizeof(what));
    std::string line = source_line(w.fault_pc, { p.site ? p.site->file : nullptr, j->req.file });
    report("%s: thread %s of block %s %s %p%s, which %s: a block has no shared memory there. The "
           "kernel stops with cudaErrorIllegalAddress, which is sticky until cudaDeviceReset. "
           "Check the index against the array's size (more threads than elements?)%s",
           where_line(j, where, sizeof(where)), t, b,
           w.fault_write == 1   ? "wrote"
           : w.fault_write == 0 ? "read"
                                : "accessed",
           (void *)w.fault_addr, line.c_str(), what,
           line.empty() ? "; GPULAB_SIM_CHECK=memcheck names the line of the access" : "");
    return true;
}
} // namespace

void report_fault(job *j)
{
    worker_state &w = self();
    char where[512], b[32], t[32];
    fmt_dim(b, sizeof(b), blockIdx);
    fmt_dim(t, sizeof(t), w.fibers && w.cur ? w.cur->tid : threadIdx);
    if (report_shared_fault(j, t, b))
        return;
    const char *why = "an address that is not mapped";
    if (w.stacks && w.stacks->in_guard((void *)w.fault_addr))
        why = "the guard page below its stack (too much local memory or deep recursion; raise "
              "GPULAB_SIM_STACK_KB)";
    report("%s: thread %s of block %s accessed %p, %s. The kernel stops with "
           "cudaErrorIllegalAddress, which is sticky until cudaDeviceReset",
           where_line(j, where, sizeof(where)), t, b, (void *)w.fault_addr, why);
}

void kernel_trap(cudaError_t why, const char *message)
{
    job *j = current_job();
    if (!j) {
        report("%s (outside a kernel)", message);
        abort();
    }
    char where[512], b[32], t[32];
    fmt_dim(b, sizeof(b), blockIdx);
    fmt_dim(t, sizeof(t), threadIdx);
    report("%s: block %s, thread %s: %s", where_line(j, where, sizeof(where)), b, t, message);
    abort_block(why);
}

} // namespace gpulab_sim

// A failed assert() in a kernel stops the kernel with cudaErrorAssert, as on a
// GPU; in host code it aborts the program as usual. This replaces the C
// library's function of that name (the name is fixed by <assert.h>).
extern "C" [[noreturn]] void __assert_fail(const char *expr, const char *file, unsigned int line,
                                           const char *function)
{
    if (!gpulab_sim::current_job()) {
        fflush(stdout);
        fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expr);
        abort();
    }
    char msg[1024];
    snprintf(msg, sizeof(msg), "%s:%u: %s: Assertion `%s` failed.", file, line, function, expr);
    gpulab_sim::kernel_trap(cudaErrorAssert, msg);
}
