// fault.cpp — kernels that stop: a fault (a wild pointer, an index past a
// __shared__ array, a stack overflow), __trap(), a failed assert(); and the
// fault handler that also reports host code touching device memory
// (protect.cpp).
#include "check.hpp"
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
    worker_tls->fault_sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    worker_tls->fault_pc = (uintptr_t) static_cast<const ucontext_t *>(uctx)->uc_mcontext.pc;
    worker_tls->fault_sp = (uintptr_t) static_cast<const ucontext_t *>(uctx)->uc_mcontext.sp;
#endif
    worker_tls->in_kernel = false;
    // The block runner saves no signal mask (that is a system call per block):
    // restore here the mask that returning from the handler would have.
    pthread_sigmask(SIG_SETMASK, &static_cast<const ucontext_t *>(uctx)->uc_sigmask, nullptr);
    siglongjmp(worker_tls->escape, 2);
}

#if defined(__x86_64__) && defined(REG_RIP)
// An integer division in a kernel by zero, or of the most negative value by
// -1: x86 traps (SIGFPE), a GPU does not. NVIDIA GPUs give a quotient and a
// remainder with every bit set for a division by zero, and the wrapped
// quotient (the dividend) with remainder 0 for the overflow; the handler
// writes those into the registers of the trapping div/idiv and steps over it.

// General register n, numbered as instructions encode it.
greg_t &gpr(greg_t *r, int n)
{
    static const int map[16] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
                                 REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                 REG_R12, REG_R13, REG_R14, REG_R15 };
    return r[map[n & 15]];
}

// Decodes the div/idiv at the trapping instruction (32- or 64-bit, any
// operand form but gs-relative and 32-bit addresses). Returns its length, or
// 0 when it is not one it knows; *zero tells whether the divisor is 0 (else
// it is -1: the overflow).
size_t decode_divide(greg_t *r, int *bits, bool *is_signed, bool *zero)
{
    const unsigned char *pc = (const unsigned char *)r[REG_RIP], *p = pc;
    int size = 32;
    unsigned rex = 0;
    bool fs = false;
    for (;; p++) { // prefixes: operand size, address size, segments, REX
        if (*p == 0x66)
            size = 16;
        else if (*p == 0x64)
            fs = true;
        else if (*p == 0x2e || *p == 0x3e || *p == 0x26 || *p == 0x36)
            continue;
        else if ((*p & 0xf0) == 0x40)
            rex = *p;
        else
            break;
    }
    if (*p != 0xf7 || pc[0] == 0x65 || pc[0] == 0x67) // 8-bit, gs and 32-bit addresses: not here
        return 0;
    if (rex & 8)
        size = 64;
    unsigned char modrm = p[1];
    int mod = modrm >> 6, reg = (modrm >> 3) & 7, rm = modrm & 7;
    if (reg != 6 && reg != 7)
        return 0;
    const unsigned char *q = p + 2; // past ModRM
    uint64_t divisor;
    if (mod == 3) {
        divisor = (uint64_t)gpr(r, rm | (rex & 1) << 3);
    } else {
        uintptr_t addr = 0;
        if (rm == 4) { // a SIB byte
            unsigned char sib = *q++;
            int index = (sib >> 3 & 7) | (rex & 2) << 2, base = (sib & 7) | (rex & 1) << 3;
            if (index != 4)
                addr += (uintptr_t)gpr(r, index) << (sib >> 6);
            if ((sib & 7) == 5 && mod == 0) {
                int32_t d;
                memcpy(&d, q, 4);
                q += 4;
                addr += (uintptr_t)(intptr_t)d;
            } else {
                addr += (uintptr_t)gpr(r, base);
            }
        } else if (rm == 5 && mod == 0) { // RIP-relative: from the next instruction
            int32_t d;
            memcpy(&d, q, 4);
            q += 4;
            addr = (uintptr_t)d; // the end of the instruction is added below
        } else {
            addr = (uintptr_t)gpr(r, rm | (rex & 1) << 3);
        }
        if (mod == 1) {
            addr += (uintptr_t)(intptr_t)(int8_t)*q++;
        } else if (mod == 2) {
            int32_t d;
            memcpy(&d, q, 4);
            q += 4;
            addr += (uintptr_t)(intptr_t)d;
        }
        if (rm == 5 && mod == 0)
            addr += (uintptr_t)q;
        if (fs) {
            uintptr_t tp;
            __asm__("mov %%fs:0, %0" : "=r"(tp)); // the thread pointer (glibc's TCB)
            addr += tp;
        }
        divisor = 0;
        memcpy(&divisor, (const void *)addr, (size_t)size / 8);
    }
    uint64_t mask = size == 64 ? ~(uint64_t)0 : ((uint64_t)1 << size) - 1;
    *zero = (divisor & mask) == 0;
    *bits = size;
    *is_signed = reg == 7;
    return (size_t)(q - pc);
}

void on_divide(int sig, siginfo_t *, void *uctx)
{
    ucontext_t *uc = static_cast<ucontext_t *>(uctx);
    greg_t *r = uc->uc_mcontext.gregs;
    int bits = 0;
    bool is_signed = false, by_zero = false;
    size_t len =
        worker_tls && worker_tls->in_kernel ? decode_divide(r, &bits, &is_signed, &by_zero) : 0;
    if (!len) { // host code, or a form this does not know: as without the handler
        signal(sig, SIG_DFL);
        return; // the instruction traps again, now fatally
    }
    uint64_t mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    uint64_t a = (uint64_t)r[REG_RAX] & mask;
    uint64_t quot = by_zero ? mask : a, rem = by_zero ? mask : 0;
    // A 32-bit result is zero-extended into the 64-bit register, as the
    // instruction would; a 16-bit one leaves the upper bits.
    auto put = [&](int reg, uint64_t v) {
        if (bits == 16)
            r[reg] = (greg_t)(((uint64_t)r[reg] & ~mask) | v);
        else
            r[reg] = (greg_t)v;
    };
    put(REG_RAX, quot);
    put(REG_RDX, rem);
    uintptr_t pc = (uintptr_t)r[REG_RIP];
    r[REG_RIP] += (greg_t)len;
    if (worker_tls->tools)
        check_integer_division(pc, by_zero, is_signed, bits);
}
#endif

} // namespace

void install_signal(int sig, void (*handler)(int, siginfo_t *, void *), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
}

void install_fault_handler()
{
    static std::once_flag once;
    std::call_once(once, [] {
        install_signal(SIGSEGV, on_fault, SA_NODEFER);
        install_signal(SIGBUS, on_fault, SA_NODEFER);
#if defined(__x86_64__) && defined(REG_RIP)
        install_signal(SIGFPE, on_divide, SA_NODEFER);
#endif
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
    // A stack overflow faults just below the stack pointer (a call, a push)
    // or above it (a large local array placed below the stack's end).
    bool near_sp = w.fault_sp && w.fault_addr + 65536 >= w.fault_sp &&
                   w.fault_addr < w.fault_sp + ((size_t)4 << 20);
    char stack_why[400];
    if ((w.stacks && w.stacks->in_guard((void *)w.fault_addr)) || near_sp) {
        if (w.fibers)
            snprintf(stack_why, sizeof(stack_why),
                     "past the end of its stack: a stack overflow (recursion that does not end "
                     "or goes too deep, or local arrays too large for the simulator's %zu KiB "
                     "per thread; a GPU allows up to 512 KiB of local memory per thread: raise "
                     "GPULAB_SIM_STACK_KB for a legal kernel)",
                     stack_size_setting() / 1024);
        else
            snprintf(stack_why, sizeof(stack_why),
                     "past the end of its stack: a stack overflow (recursion that does not end "
                     "or goes too deep, or local arrays too large; a GPU allows up to 512 KiB "
                     "of local memory per thread)");
        why = stack_why;
    } else if (w.fault_addr < 65536) {
        why = w.fault_addr
                  ? "a null pointer plus an offset: was the pointer ever set by cudaMalloc?"
                  : "a null pointer: was the pointer ever set by cudaMalloc?";
    }
    report("%s: thread %s of block %s accessed 0x%lx, %s. The kernel stops with "
           "cudaErrorIllegalAddress, which is sticky until cudaDeviceReset",
           where_line(j, where, sizeof(where)), t, b, (unsigned long)w.fault_addr, why);
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
