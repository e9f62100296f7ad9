// gpulab_ncu.cpp — `gpulab ncu`'s report (docs/tools.md): for each kernel
// launch in a timeline the simulator wrote, the sections Nsight Compute's
// command line prints, in its layout and words, from the performance model's
// figures (runtime/trace.cpp writes them as the kernel's ncu_* args). Every
// figure is modeled or counted by the simulator, never measured; each section
// says which.
//
//   gpulab-trace ncu FILE.json PID PROGRAM [--csv] [--section NAME]...
//       [--kernel-name NAME | regex:RE] [--launch-skip N] [--launch-count N]
#include "gpulab_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace gpulab_trace
{
namespace
{

struct metric {
    std::string name, unit, value;
};

struct section {
    const char *id, *title; // --section's name, the printed one
    std::vector<metric> rows;
    std::string note; // an INF line: where the figures come from
};

// 1234567 -> "1,234,567"; fraction digits as given.
std::string grouped(double v, int decimals)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%.*f", decimals, v);
    std::string s = buf, frac;
    size_t dot = s.find('.');
    if (dot != std::string::npos) {
        frac = s.substr(dot);
        s = s.substr(0, dot);
    }
    bool neg = !s.empty() && s[0] == '-';
    if (neg)
        s = s.substr(1);
    for (int i = (int)s.size() - 3; i > 0; i -= 3)
        s.insert((size_t)i, ",");
    return (neg ? "-" : "") + s + frac;
}

struct launch {
    std::string name, line, stream;
    int device = 0;
    double dur = 0;
    double get(const char *key) const
    {
        double v = 0;
        number_of(line, key, &v);
        return v;
    }
    std::string text(const char *key) const
    {
        std::string v;
        text_of(line, key, &v);
        return v;
    }
};

std::string count(double v)
{
    return grouped(std::round(v), 0);
}

std::string real(double v)
{
    return grouped(v, 2);
}

std::vector<section> sections_of(const launch &k)
{
    std::string gpu = k.text("clock"); // "modeled NVIDIA T4"
    std::string basis = k.text("ncu_basis");
    double us = k.dur, ghz = k.get("ncu_sm_ghz"), bytes = k.get("bytes");
    double peak = k.get("ncu_dram_peak_gbs");
    double dram_pct = us > 0 && peak > 0 ? 100 * bytes / (us * peak * 1e3) : 0;
    double shared_pct = us > 0 ? 100 * k.get("ncu_t_shared") / us : 0;
    double sm_pct = us > 0 ? 100 * k.get("ncu_t_issue") / us : 0;
    double block = 1, grid = 1;
    {
        unsigned x = 1, y = 1, z = 1;
        sscanf(k.text("block").c_str(), "(%u,%u,%u)", &x, &y, &z);
        block = (double)x * y * z;
        sscanf(k.text("grid").c_str(), "(%u,%u,%u)", &x, &y, &z);
        grid = (double)x * y * z;
    }
    double per_sm = k.get("ncu_blocks_per_sm"), sms = k.get("ncu_sms");
    double max_warps = k.get("ncu_max_warps");
    std::vector<section> out;

    section sol{ "SpeedOfLight", "GPU Speed Of Light Throughput", {}, "" };
    sol.rows = { { "DRAM Frequency", "Ghz", real(k.get("ncu_dram_ghz")) },
                 { "SM Frequency", "Ghz", real(ghz) },
                 { "Elapsed Cycles", "cycle", count(us * ghz * 1e3) },
                 { "Memory Throughput", "%", real(std::max(dram_pct, shared_pct)) },
                 { "DRAM Throughput", "%", real(dram_pct) },
                 { "Duration", us >= 1000 ? "ms" : "us", real(us >= 1000 ? us / 1000 : us) },
                 { "L1/TEX Cache Throughput", "%", "n/a" },
                 { "L2 Cache Throughput", "%", "n/a" },
                 { "Compute (SM) Throughput", "%", real(sm_pct) } };
    char note[512];
    snprintf(note, sizeof(note),
             "Modeled for %s from the simulator's counts (%s), not measured: the launch (%.2f "
             "us) plus memory %.2f us, instruction issue %.2f us, barriers %.2f us and shared "
             "memory %.2f us (docs/model.md); bound: %s. L1 and L2 are not modeled (n/a).",
             gpu.c_str() + (gpu.rfind("modeled ", 0) == 0 ? 8 : 0), basis.c_str(),
             k.get("ncu_launch_us"), k.get("ncu_t_mem"), k.get("ncu_t_issue"),
             k.get("ncu_t_barrier"), k.get("ncu_t_shared"), k.text("bound").c_str());
    sol.note = note;
    out.push_back(sol);

    section ls{ "LaunchStats", "Launch Statistics", {}, "" };
    ls.rows = {
        { "Block Size", "", count(block) },
        { "Function Cache Configuration", "", "CachePreferNone" },
        { "Grid Size", "", count(grid) },
        { "Registers Per Thread", "register/thread", count(k.get("ncu_regs")) },
        { "Shared Memory Configuration Size", "Kbyte", real(k.get("ncu_smem_config") / 1e3) },
        { "Driver Shared Memory Per Block", "Kbyte/block", real(k.get("ncu_smem_reserved") / 1e3) },
        { "Dynamic Shared Memory Per Block", "byte/block", count(k.get("ncu_smem_dynamic")) },
        { "Static Shared Memory Per Block", "byte/block",
          basis == "launch configuration only" ? "n/a" : count(k.get("ncu_smem_static")) },
        { "Threads", "thread", count(block * grid) },
        { "Waves Per SM", "", real(per_sm > 0 && sms > 0 ? grid / (per_sm * sms) : 0) }
    };
    ls.note = "Registers per thread are assumed (the simulator cannot see the compiler's "
              "allocation; nvcc -Xptxas -v shows it on a GPU machine). Static shared memory is "
              "the __shared__ variables the counted blocks touched (one a kernel declares but "
              "never uses is left out); without counts it is unknown (n/a) and the occupancy "
              "counts dynamic shared memory only.";
    out.push_back(ls);

    section oc{ "Occupancy", "Occupancy", {}, "" };
    double warps_per_block = std::ceil(block / 32);
    oc.rows = { { "Block Limit SM", "block", count(k.get("ncu_by_blocks")) },
                { "Block Limit Registers", "block", count(k.get("ncu_by_regs")) },
                { "Block Limit Shared Mem", "block", count(k.get("ncu_by_smem")) },
                { "Block Limit Warps", "block", count(k.get("ncu_by_warps")) },
                { "Theoretical Active Warps per SM", "warp", count(k.get("ncu_warps_per_sm")) },
                { "Theoretical Occupancy", "%", real(100 * k.get("ncu_theoretical")) },
                { "Achieved Occupancy", "%", real(100 * k.get("ncu_achieved")) },
                { "Achieved Active Warps Per SM", "warp",
                  real(k.get("ncu_achieved") * max_warps) } };
    snprintf(note, sizeof(note),
             "Theoretical occupancy by the CUDA occupancy calculator's rules for this GPU "
             "(compute capability %s; limited by %s; %g warps a block). Achieved occupancy is "
             "modeled: the blocks spread evenly over the SMs, in %g wave%s.",
             k.text("ncu_cc").c_str(), k.text("ncu_limiter").c_str(), warps_per_block,
             k.get("ncu_waves"), k.get("ncu_waves") == 1 ? "" : "s");
    oc.note = note;
    out.push_back(oc);

    section mw{ "MemoryWorkloadAnalysis", "Memory Workload Analysis", {}, "" };
    double ld_req = k.get("ncu_ld_req"), ld_sec = k.get("ncu_ld_sec");
    double st_req = k.get("ncu_st_req"), st_sec = k.get("ncu_st_sec");
    double sh_req = k.get("ncu_sh_req"), sh_wave = k.get("ncu_sh_wave");
    mw.rows = { { "Memory Throughput", "Gbyte/s", real(us > 0 ? bytes / us / 1e3 : 0) },
                { "Mem Busy", "%", "n/a" },
                { "Max Bandwidth", "%", real(std::max(dram_pct, shared_pct)) },
                { "L1/TEX Hit Rate", "%", "n/a" },
                { "L2 Hit Rate", "%", "n/a" },
                { "Global Load Requests", "request", count(ld_req) },
                { "Global Load Sectors", "sector", count(ld_sec) },
                { "Global Load Sectors Per Request", "sector/request",
                  real(ld_req > 0 ? ld_sec / ld_req : 0) },
                { "Global Store Requests", "request", count(st_req) },
                { "Global Store Sectors", "sector", count(st_sec) },
                { "Global Store Sectors Per Request", "sector/request",
                  real(st_req > 0 ? st_sec / st_req : 0) },
                { "Shared Memory Requests", "request", count(sh_req) },
                { "Shared Memory Wavefronts", "", count(sh_wave) },
                { "Shared Bank Conflicts", "", count(std::max(0.0, sh_wave - sh_req)) } };
    mw.note = "Requests (one per warp instruction) and 32-byte sectors are the simulator's "
              "counts (" +
              basis +
              "); a warp reading 32 consecutive floats takes 4 sectors, 32 floats a row apart "
              "take 32. The cache hit rates are not modeled (n/a).";
    if (basis == "launch configuration only")
        mw.note = "This program has no check build to count accesses: requests and sectors "
                  "are assumed (one coalesced 4-byte load and store per thread), not counted. "
                  "The cache hit rates are not modeled (n/a).";
    out.push_back(mw);
    return out;
}

void print_section(const section &s)
{
    size_t wn = strlen("Metric Name"), wu = strlen("Metric Unit"), wv = strlen("Metric Value");
    for (const metric &m : s.rows) {
        wn = std::max(wn, m.name.size());
        wu = std::max(wu, m.unit.size());
        wv = std::max(wv, m.value.size());
    }
    std::string rule =
        "    " + std::string(wn, '-') + " " + std::string(wu, '-') + " " + std::string(wv, '-');
    printf("    Section: %s\n%s\n", s.title, rule.c_str());
    printf("    %-*s %*s %*s\n", (int)wn, "Metric Name", (int)wu, "Metric Unit", (int)wv,
           "Metric Value");
    printf("%s\n", rule.c_str());
    for (const metric &m : s.rows)
        printf("    %-*s %*s %*s\n", (int)wn, m.name.c_str(), (int)wu, m.unit.c_str(), (int)wv,
               m.value.c_str());
    printf("%s\n", rule.c_str());
    // The note, wrapped as ncu wraps its rule messages.
    std::string text = s.note, line = "    INF   ";
    size_t at = 0;
    while (at < text.size()) {
        size_t sp = text.find(' ', at);
        std::string word = text.substr(at, sp == std::string::npos ? std::string::npos : sp - at);
        if (line.size() + word.size() > 100 && line.size() > 10) {
            printf("%s\n", line.c_str());
            line = "          ";
        }
        line += word + " ";
        at = sp == std::string::npos ? text.size() : sp + 1;
    }
    printf("%s\n\n", line.c_str());
}

std::string csv(const std::string &s)
{
    std::string o = "\"";
    for (char c : s)
        o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

// The function's name alone: "transpose" for "void transpose<32>(float*, ...)".
std::string base_name(const std::string &name)
{
    std::string s = name.substr(0, name.find('('));
    s = s.substr(0, s.find('<'));
    size_t sp = s.rfind(' ');
    if (sp != std::string::npos)
        s = s.substr(sp + 1);
    size_t colons = s.rfind("::");
    if (colons != std::string::npos)
        s = s.substr(colons + 2);
    return s;
}

} // namespace

int ncu_report(const char *path, const char *pid, const char *program, int argc, char **argv)
{
    tool_name = "gpulab ncu";
    bool as_csv = false;
    std::set<std::string> wanted;
    std::string kernel;
    long skip = 0, limit = -1;
    for (int i = 0; i < argc; i++) {
        std::string a = argv[i];
        bool has = i + 1 < argc;
        if (a == "--csv")
            as_csv = true;
        else if (a == "--section" && has)
            wanted.insert(argv[++i]);
        else if (a == "--kernel-name" && has)
            kernel = argv[++i];
        else if (a == "--launch-skip" && has)
            skip = strtol(argv[++i], nullptr, 10);
        else if (a == "--launch-count" && has)
            limit = strtol(argv[++i], nullptr, 10);
        else {
            fprintf(stderr, "gpulab ncu: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (wanted.empty())
        wanted = { "SpeedOfLight", "LaunchStats", "Occupancy" }; // ncu's basic set
    if (!load(path))
        return 1;
    std::regex re;
    bool by_regex = kernel.rfind("regex:", 0) == 0;
    if (by_regex) {
        try {
            re = std::regex(kernel.substr(6));
        } catch (const std::regex_error &) {
            fprintf(stderr, "gpulab ncu: --kernel-name %s: not a regular expression\n",
                    kernel.c_str());
            return 2;
        }
    }
    std::vector<launch> chosen;
    long seen = 0;
    for (const slice &s : slices) {
        if (s.kind != "kernel" || s.tid >= 1000 || s.line.empty())
            continue;
        if (!kernel.empty() && !(by_regex ? std::regex_search(s.name, re)
                                          : base_name(s.name) == kernel || s.name == kernel))
            continue;
        if (seen++ < skip)
            continue;
        if (limit >= 0 && (long)chosen.size() >= limit)
            break;
        launch k;
        k.name = s.name;
        k.line = s.line;
        k.dur = s.dur;
        k.device = s.pid - 1;
        auto row = row_names.find({ s.pid, s.tid });
        k.stream = row == row_names.end() ? std::to_string(s.tid) : row->second;
        chosen.push_back(k);
    }
    const char *prog = strrchr(program, '/') ? strrchr(program, '/') + 1 : program;
    if (chosen.empty()) {
        fprintf(stderr, "==WARNING== No kernels were profiled.\n");
        return 0;
    }
    if (as_csv)
        printf("\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
               "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
               "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n");
    else
        printf("[%s] %s (every figure below is modeled by gpulab's simulator, not measured)\n", pid,
               prog);
    for (size_t id = 0; id < chosen.size(); id++) {
        const launch &k = chosen[id];
        std::vector<section> secs = sections_of(k);
        if (!as_csv)
            printf("  %s %sx%s, Context 1, %s, Device %d, CC %s (%s)\n", k.name.c_str(),
                   k.text("grid").c_str(), k.text("block").c_str(), k.stream.c_str(), k.device,
                   k.text("ncu_cc").c_str(), k.text("clock").c_str());
        for (const section &s : secs) {
            if (!wanted.count(s.id))
                continue;
            if (!as_csv) {
                print_section(s);
                continue;
            }
            for (const metric &m : s.rows)
                printf("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
                       csv(std::to_string(id)).c_str(), csv(pid).c_str(), csv(prog).c_str(),
                       csv("simulator").c_str(), csv(k.name).c_str(), csv("1").c_str(),
                       csv(k.stream).c_str(), csv(k.text("block")).c_str(),
                       csv(k.text("grid")).c_str(), csv(std::to_string(k.device)).c_str(),
                       csv(k.text("ncu_cc")).c_str(), csv(s.title).c_str(), csv(m.name).c_str(),
                       csv(m.unit).c_str(), csv(m.value).c_str());
        }
    }
    return 0;
}

} // namespace gpulab_trace
