// check.cpp — the check mode: memcheck, racecheck, synccheck and initcheck,
// reported in compute-sanitizer's words. This file: the settings, the twin,
// the summary, and what the rest of the runtime tells the checks; each
// check has its own file (check_internal.hpp lists them).
//
// How it sees every access: each sim program has a twin, <program>.check,
// whose .cu files are compiled with -fsanitize=thread. GCC then calls
// __tsan_read4(addr), __tsan_write8(addr), ... before every load and store
// the kernel code makes (global, shared and local memory alike), and the
// atomics go through __tsan_atomic*. This file defines those functions itself
// (the TSan runtime is never linked), so each access is checked here, and an
// access found invalid is reported and never performed: the thread stops.
// The plain program re-runs itself as its twin when GPULAB_SIM_CHECK is set,
// so one build serves both, and plain programs pay nothing for the checks.
#include "check_internal.hpp"
#include "model.hpp"

#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace gpulab_sim
{
namespace checks
{

// ---------------------------------------------------------------------------
// Settings and the twin

bool instrumented = false; // set by __tsan_init, from an instrumented file's constructor
unsigned tools = 0;
std::atomic<long> error_count{ 0 };
std::mutex out_mutex;
// --print-limit: error reports printed so far, and those left out.
long print_limit = 0; // 0: no limit
std::atomic<long> reports_shown{ 0 }, reports_hidden{ 0 };
FILE *log_out = nullptr;                  // --log-file: the report lines; null: standard error
std::atomic<long> unchecked_kernels{ 0 }; // kernels launched without the hooks

namespace
{

unsigned parse_tools(const char *s)
{
    unsigned t = 0;
    std::string list = s ? s : "";
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(',', start);
        std::string w =
            list.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (w == "all")
            t |= CHECK_MEM | CHECK_RACE | CHECK_SYNC | CHECK_INIT;
        else if (w == "memcheck")
            t |= CHECK_MEM;
        else if (w == "racecheck")
            t |= CHECK_RACE;
        else if (w == "synccheck")
            t |= CHECK_SYNC;
        else if (w == "initcheck")
            t |= CHECK_INIT;
        else if (!w.empty() && w != "0" && w != "none")
            report("GPULAB_SIM_CHECK: unknown check '%s' (use memcheck, racecheck, synccheck, "
                   "initcheck or all, separated by commas)",
                   w.c_str());
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return t;
}

// ---------------------------------------------------------------------------
// Where things are: the program's image, its static TLS block (where every
// __shared__ variable lives), and device memory's granule map.

} // namespace

uintptr_t image_lo = 0, image_hi = 0, load_bias = 0;

namespace
{

size_t tls_size = 0, tls_align = 1;

int find_image(struct dl_phdr_info *info, size_t, void *)
{
    // The first object is the program itself.
    load_bias = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_LOAD) {
            uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
            if (!image_lo || lo < image_lo)
                image_lo = lo;
            if (hi > image_hi)
                image_hi = hi;
        } else if (ph.p_type == PT_TLS) {
            tls_size = ph.p_memsz;
            tls_align = ph.p_align ? ph.p_align : 1;
        }
    }
    return 1;
}

void tls_block(uintptr_t *lo, uintptr_t *hi)
{
    uintptr_t tp;
#if defined(__x86_64__)
    // %fs:0 holds the thread pointer itself (the TCB's self pointer). GCC before 11
    // has no __builtin_thread_pointer on x86-64 (Ubuntu 20.04, Debian 11).
    __asm__("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__aarch64__)
    __asm__("mrs %0, tpidr_el0" : "=r"(tp));
#else
    tp = (uintptr_t)__builtin_thread_pointer();
#endif
#if defined(__x86_64__)
    size_t size = (tls_size + tls_align - 1) / tls_align * tls_align;
    *lo = tp - size; // variant II: the program's block ends at the thread pointer
    *hi = tp;
#else
    size_t start = (16 + tls_align - 1) / tls_align * tls_align;
    *lo = tp + start; // variant I: it starts after the thread control block
    *hi = *lo + tls_size;
#endif
}

} // namespace

// ---------------------------------------------------------------------------
// Source locations: the return address of a hook is in the kernel's code;
// addr2line turns it into file:line (the .cu file's, thanks to #line).

std::mutex loc_mutex;
std::map<uintptr_t, std::string> &loc_cache = *new std::map<uintptr_t, std::string>;

std::string location(uintptr_t pc)
{
    std::lock_guard<std::mutex> lock(loc_mutex);
    auto it = loc_cache.find(pc);
    if (it != loc_cache.end())
        return it->second;
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "addr2line -i -e /proc/%d/exe 0x%lx 2>/dev/null", (int)getpid(),
             (unsigned long)(pc - 1 - load_bias));
    std::string where = "?";
    if (FILE *p = popen(cmd, "r")) {
        char line[1024];
        if (fgets(line, sizeof(line), p)) {
            line[strcspn(line, "\n")] = '\0';
            char *disc = strstr(line, " (discriminator");
            if (disc)
                *disc = '\0';
            where = line;
        }
        while (fgets(line, sizeof(line), p))
            ;
        pclose(p);
    }
    loc_cache[pc] = where;
    return where;
}

__thread checker *ck = nullptr;
std::atomic<uint32_t> block_serial{ 1 };

checker *this_checker()
{
    if (!ck) {
        ck = new checker;
        tls_block(&ck->tls_lo, &ck->tls_hi);
        ck->cells.resize(ck->tls_hi - ck->tls_lo + 1);
        pthread_attr_t attr;
        void *lo;
        size_t size;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            pthread_attr_getstack(&attr, &lo, &size);
            ck->stack_lo = (uintptr_t)lo;
            ck->stack_hi = (uintptr_t)lo + size;
            pthread_attr_destroy(&attr);
        }
    }
    return ck;
}

// Reports are grouped by what and where: the first is printed, the rest counted.
std::mutex seen_mutex;
std::map<std::string, long> &seen = *new std::map<std::string, long>;

bool first_time(const std::string &key)
{
    {
        std::lock_guard<std::mutex> lock(seen_mutex);
        if (seen[key]++ != 0)
            return false;
    }
    return check_report_begin();
}

void by_thread_line()
{
    check_line("    by thread (%u,%u,%u) in block (%u,%u,%u)", threadIdx.x, threadIdx.y,
               threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z);
}

namespace
{

// The sanitizer's options (`gpulab sanitizer`, docs/tools.md), read at start as
// the tools are: the exit status when there are errors (unset: 1; 0: the
// program's own), where the report lines go, how many error reports are
// printed (0 or unset: all), and whether leaks are reported (unset: yes).
char early_exitcode[16], early_log[1024], early_print_limit[24], early_leaks[8];

void summary(int status, void *)
{
    if ((tools & CHECK_MEM) && strcmp(early_leaks, "no") != 0)
        leak_check(status);
    {
        // Each problem was reported once, where it first happened: how often.
        std::lock_guard<std::mutex> lock(seen_mutex);
        for (auto &kv : seen)
            if (kv.second > 1)
                check_line("%ld times: %s", kv.second, kv.first.c_str());
    }
    long n = error_count.load();
    long hidden = reports_hidden.load();
    if (hidden > 0)
        check_line("ERROR SUMMARY: %ld error%s (%ld report%s not printed: print limit %ld)", n,
                   n == 1 ? "" : "s", hidden, hidden == 1 ? "" : "s", print_limit);
    else
        check_line("ERROR SUMMARY: %ld error%s", n, n == 1 ? "" : "s");
    fflush(stdout);
    fflush(stderr);
    if (log_out)
        fflush(log_out);
    if (n > 0) {
        int code = 1;
        if (early_exitcode[0])
            code = atoi(early_exitcode) ? atoi(early_exitcode) : status;
        // A kernel the check could not see: the run was not checked, and never
        // ends with status 0 (`gpulab sanitizer` documents 2 for it).
        if (code == 0 && unchecked_kernels.load() > 0)
            code = 2;
        _exit(code);
    }
}

// GPULAB_SIM_CHECK, GPULAB_SIM_STATS and GPULAB_SIM_REPORT_KEY as they were
// when the program started, read from the executable's .preinit_array, which
// runs before every constructor: a program's own constructor that changes its
// environment (unsetenv) cannot change the check mode. The report key (a
// grader's, docs/grading.md) is taken out of the environment and its bytes
// wiped, so the program cannot read it back, even from /proc/self/environ;
// check_line marks each line with it.
char early_check[128], early_stats[8], report_key[72];
bool has_check, has_stats;

const char *early_value(char *const *e, const char *name, char *buf, size_t size)
{
    size_t n = strlen(name);
    if (strncmp(*e, name, n) || (*e)[n] != '=')
        return nullptr;
    snprintf(buf, size, "%s", *e + n + 1);
    return buf;
}

void read_env_early(int, char **, char **envp)
{
    static const char key_name[] = "GPULAB_SIM_REPORT_KEY=";
    for (char **e = envp; e && *e; e++) {
        if (!strncmp(*e, "GPULAB_SIM_CHECK=", 17)) {
            has_check = true;
            snprintf(early_check, sizeof(early_check), "%s", *e + 17);
        } else if (!strncmp(*e, "GPULAB_SIM_STATS=", 17)) {
            has_stats = true;
            snprintf(early_stats, sizeof(early_stats), "%s", *e + 17);
        } else if (early_value(e, "GPULAB_SIM_CHECK_EXITCODE", early_exitcode,
                               sizeof(early_exitcode)) ||
                   early_value(e, "GPULAB_SIM_CHECK_LOG", early_log, sizeof(early_log)) ||
                   early_value(e, "GPULAB_SIM_CHECK_PRINT_LIMIT", early_print_limit,
                               sizeof(early_print_limit)) ||
                   early_value(e, "GPULAB_SIM_CHECK_LEAKS", early_leaks, sizeof(early_leaks))) {
        } else if (!strncmp(*e, key_name, sizeof(key_name) - 1)) {
            char *v = *e + sizeof(key_name) - 1;
            snprintf(report_key, sizeof(report_key), "%s", v);
            memset(v, 'x', strlen(v));
        }
    }
    unsetenv("GPULAB_SIM_REPORT_KEY");
}

__attribute__((section(".preinit_array"),
               used)) void (*read_env_early_entry)(int, char **, char **) = read_env_early;

// Runs before main: settles the tools, and a plain program with tools asked
// for becomes its twin.
__attribute__((constructor)) void start_check_mode()
{
    const char *env = has_check ? early_check : nullptr;
    const char *stats = has_stats ? early_stats : nullptr;
    const char *model = model_wanted();
    unsigned want = env ? parse_tools(env) : 0;
    stats_print = stats && strcmp(stats, "1") == 0;
    if (stats_print || model_lookup(model))
        want |= CHECK_STATS;
    if (!want)
        return;
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 8);
    self[n > 0 ? n : 0] = '\0';
    // A twin whose program has no kernel code (host code only: nothing was
    // instrumented) still checks what the runtime sees: API errors and leaks.
    bool twin_itself = n > 6 && strcmp(self + n - 6, ".check") == 0;
    if (!instrumented && !twin_itself) {
        if (n > 0) {
            std::string twin = std::string(self) + ".check";
            if (access(twin.c_str(), X_OK) == 0) {
                std::vector<char *> argv;
                static std::string args;
                FILE *f = fopen("/proc/self/cmdline", "rb");
                if (f) {
                    char buf[65536];
                    size_t len = fread(buf, 1, sizeof(buf), f);
                    fclose(f);
                    args.assign(buf, len);
                }
                for (size_t i = 0; i < args.size(); i += strlen(&args[i]) + 1)
                    argv.push_back(&args[i]);
                argv.push_back(nullptr);
                // The twin gets the settings read at start, whatever the
                // program's constructors did to the environment since.
                static std::string set[3];
                std::vector<char *> envp;
                for (char **e = environ; *e; e++)
                    if (strncmp(*e, "GPULAB_SIM_CHECK=", 17) &&
                        strncmp(*e, "GPULAB_SIM_STATS=", 17))
                        envp.push_back(*e);
                if (has_check)
                    envp.push_back(&(set[0] = std::string("GPULAB_SIM_CHECK=") + early_check)[0]);
                if (has_stats)
                    envp.push_back(&(set[1] = std::string("GPULAB_SIM_STATS=") + early_stats)[0]);
                if (report_key[0])
                    envp.push_back(
                        &(set[2] = std::string("GPULAB_SIM_REPORT_KEY=") + report_key)[0]);
                envp.push_back(nullptr);
                fflush(stdout);
                execve(twin.c_str(), argv.data(), envp.data());
            }
            if (want & ~CHECK_STATS)
                report("GPULAB_SIM_CHECK is set but %s has no check build (%s.check); build it "
                       "with the project's CMake or gpulab-nvcc, which make both. Running without "
                       "checks",
                       self, self);
            // The model says for itself what it does without counts (model.cpp).
        }
        return;
    }
    tools = want;
    print_limit = atol(early_print_limit);
    if (early_log[0] && (tools & ~CHECK_STATS)) {
        // compute-sanitizer's --log-file: %p is the process id, %% a percent sign.
        std::string path;
        for (const char *c = early_log; *c; c++) {
            if (c[0] == '%' && c[1] == 'p') {
                path += std::to_string(getpid());
                c++;
            } else if (c[0] == '%' && c[1] == '%') {
                path += '%';
                c++;
            } else {
                path += *c;
            }
        }
        log_out = fopen(path.c_str(), "w");
        if (!log_out)
            report("GPULAB_SIM_CHECK_LOG: cannot write %s (%s): the reports go to standard error",
                   path.c_str(), strerror(errno));
        else
            setvbuf(log_out, nullptr, _IOLBF, 0);
    }
    alloc_table = (alloc_rec *)reserve(max_allocs * sizeof(alloc_rec));
    dl_iterate_phdr(find_image, nullptr);
    if (tools & ~CHECK_STATS) {
        on_exit(summary, nullptr);
        check_line("gpulab-sim check mode:%s%s%s%s", (tools & CHECK_MEM) ? " memcheck" : "",
                   (tools & CHECK_RACE) ? " racecheck" : "",
                   (tools & CHECK_SYNC) ? " synccheck" : "",
                   (tools & CHECK_INIT) ? " initcheck" : "");
    }
}

} // namespace

} // namespace checks

using namespace checks;

unsigned check_tools()
{
    return tools;
}

void check_line(const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    FILE *out = log_out ? log_out : stderr;
    if (report_key[0])
        fprintf(out, "========= %s #%s\n", line, report_key);
    else
        fprintf(out, "========= %s\n", line);
}

bool check_report_begin()
{
    if (print_limit > 0 && reports_shown.fetch_add(1) >= print_limit) {
        reports_hidden++;
        return false;
    }
    return true;
}

void check_count_error()
{
    error_count++;
}

void check_count_unchecked_kernel()
{
    unchecked_kernels++;
    error_count++;
}

void check_enter_kernel(const check_kernel_info &k)
{
    checker *c = this_checker();
    c->kernel = k.kernel;
    c->dynamic_shmem = k.dynamic_shmem;
    c->task_lo = (uintptr_t)k.task;
    c->task_hi = (uintptr_t)k.task + k.task_size;
    c->in_kernel = tools != 0;
}

void check_begin_block()
{
    if (ck && (tools & CHECK_STATS))
        fold_block(ck);
    if (ck) {
        ck->block = block_serial++;
        ck->epoch = ck->block << 8;
    }
}

void check_barrier()
{
    if (ck) {
        ck->epoch++;
        ck->barriers++;
    }
}

// An integer division the fault handler completed with a GPU's result
// (fault.cpp): compute-sanitizer has no such report, a GPU goes on silently.
void check_integer_division(uintptr_t pc, bool by_zero, bool is_signed, int bits)
{
    check_count_error();
    char key[64];
    snprintf(key, sizeof(key), "division %d at %lx", (int)by_zero, (unsigned long)pc);
    if (!first_time(key))
        return;
    std::string where = location(pc + 1);
    std::lock_guard<std::mutex> lock(out_mutex);
    if (by_zero)
        check_line("Integer division by zero");
    else
        check_line("Integer division overflow (the most negative %d-bit value divided by -1)",
                   bits);
    check_line("    at %s in %s", ck ? ck->kernel : "?", where.c_str());
    by_thread_line();
    if (by_zero)
        check_line("    a GPU does not stop: the quotient and the remainder have every bit set "
                   "(%s), and so they do here",
                   is_signed ? "-1" : "the largest value");
    else
        check_line("    a GPU does not stop: the quotient is the dividend and the remainder 0, "
                   "and so they are here");
}

} // namespace gpulab_sim
