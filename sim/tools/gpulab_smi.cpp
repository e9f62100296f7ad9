// gpulab_smi.cpp — `gpulab smi`: the simulated GPUs and the programs using
// them, in nvidia-smi's forms (the default table, -L, -q, --query-gpu with
// --format=csv). The devices are those any program of the simulator sees with
// the same settings (GPULAB_SIM_DEVICES, GPULAB_SIM_MODEL, GPULAB_SIM_MEMORY_MB);
// the programs are read from the files runtime/board.cpp keeps. Each program
// has simulated GPUs of its own: the memory shown in use is the sum of what
// the running programs hold on each.
#include "../runtime/board.hpp"

#include <cuda_runtime.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace
{

const char version[] = "gpulab-smi (simulated GPUs, gpulab's CPU simulator)";

struct gpu {
    cudaDeviceProp prop;
    std::string name; // the modeled GPU's name, or the simulator's
    bool modeled;     // GPULAB_SIM_MODEL names a GPU
    size_t used = 0;  // bytes, summed over the running programs
};

struct program {
    long pid;
    std::string name;
    uint64_t used[gpulab_sim::board_devices];
};

std::vector<gpu> gpus;
std::vector<program> programs;

int usage(FILE *f, int status)
{
    fprintf(
        f,
        "usage: gpulab smi [options]\n\n"
        "The simulated GPUs, their memory, and the programs using them, as nvidia-smi\n"
        "shows a machine's GPUs.\n\n"
        "  (none)                      the summary table\n"
        "  -L, --list-gpus             one line per GPU\n"
        "  -q, --query                 every detail, as a list\n"
        "  -i, --id N                  GPU N only\n"
        "  --query-gpu=FIELD,...       the fields of each GPU (with "
        "--format=csv[,noheader][,nounits]):\n"
        "                              index, name, uuid, memory.total, memory.used, memory.free,\n"
        "                              compute_cap, clocks.max.sm, clocks.max.memory, count,\n"
        "                              driver_version, pci.bus_id\n"
        "  --format=csv[,noheader][,nounits]\n"
        "  -h, --help\n\n"
        "The GPUs are those a program of the simulator sees with the same settings\n"
        "(GPULAB_SIM_DEVICES, GPULAB_SIM_MODEL, GPULAB_SIM_MEMORY_MB). Each program has\n"
        "simulated GPUs of its own; memory in use is the sum of what the running programs\n"
        "hold.\n");
    return status;
}

std::string uuid(int d)
{
    char b[64];
    snprintf(b, sizeof(b), "GPU-00000000-0000-0000-0000-%012d", d);
    return b;
}

std::string bus_id(int d)
{
    char b[32];
    snprintf(b, sizeof(b), "00000000:%02X:00.0", d + 1);
    return b;
}

long mib(size_t bytes)
{
    return (long)(bytes >> 20);
}

void read_gpus()
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        n = 0;
    for (int d = 0; d < n; d++) {
        gpu g;
        cudaGetDeviceProperties(&g.prop, d);
        g.name = g.prop.name;
        size_t cut = g.name.find(" (modeled: ");
        g.modeled = cut != std::string::npos;
        if (!g.modeled)
            cut = g.name.find(" (runs on the CPU)");
        if (cut != std::string::npos)
            g.name.resize(cut);
        gpus.push_back(g);
    }
}

void read_programs()
{
    std::string dir = gpulab_sim::board_dir();
    DIR *dp = opendir(dir.c_str());
    if (!dp)
        return;
    while (struct dirent *de = readdir(dp)) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        std::string path = dir + "/" + de->d_name;
        if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
            unlink(path.c_str()); // left by a program that did not exit normally
            continue;
        }
        int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        gpulab_sim::board_entry e;
        ssize_t got = read(fd, &e, sizeof(e));
        close(fd);
        if (got != (ssize_t)sizeof(e) || e.magic != gpulab_sim::board_magic || e.pid != pid)
            continue;
        e.name[sizeof(e.name) - 1] = '\0';
        program p;
        p.pid = pid;
        p.name = e.name;
        memcpy(p.used, e.used, sizeof(p.used));
        programs.push_back(p);
        for (size_t d = 0; d < gpus.size() && d < (size_t)gpulab_sim::board_devices; d++)
            gpus[d].used += e.used[d];
    }
    closedir(dp);
}

std::string fit(const std::string &s, size_t w)
{
    if (s.size() <= w)
        return s;
    return s.substr(0, w - 3) + "...";
}

// A path too long for its column keeps its end, as nvidia-smi shows it.
std::string fit_end(const std::string &s, size_t w)
{
    if (s.size() <= w)
        return s;
    return "..." + s.substr(s.size() - (w - 3));
}

void table(int only)
{
    char now[64];
    time_t t = time(nullptr);
    strftime(now, sizeof(now), "%a %b %e %H:%M:%S %Y", localtime(&t));
    printf("%s\n", now);
    const char *rule = "+--------------------------------------------------------------------------"
                       "---------------+";
    printf("%s\n", rule);
    printf("| %-87s |\n",
           "GPULAB-SMI   simulated GPUs (gpulab's CPU simulator)             CUDA Version: 12.4");
    printf("|-----------------------------------------+------------------------+-------------------"
           "---|\n");
    printf("| GPU  Name                               | Bus-Id                 |         "
           "Memory-Usage |\n");
    printf("|      Simulation                         | Compute cap.  SMs      |             "
           "GPU-Util |\n");
    printf("|=========================================+========================+==================="
           "===|\n");
    for (size_t d = 0; d < gpus.size(); d++) {
        if (only >= 0 && (int)d != only)
            continue;
        const gpu &g = gpus[d];
        char mem[64], cc[64];
        snprintf(mem, sizeof(mem), "%ldMiB / %ldMiB", mib(g.used), mib(g.prop.totalGlobalMem));
        snprintf(cc, sizeof(cc), "%d.%d           %d", g.prop.major, g.prop.minor,
                 g.prop.multiProcessorCount);
        printf("| %3zu  %-34s | %-22s | %20s |\n", d, fit(g.name, 34).c_str(),
               bus_id((int)d).c_str(), mem);
        printf("|      %-34s | %-22s | %20s |\n",
               g.modeled ? "times modeled (GPULAB_SIM_MODEL)" : "no GPU modeled", cc, "N/A");
        printf("%s\n", rule);
    }
    printf("\n%s\n", rule);
    printf("| %-87s |\n", "Processes:");
    printf("|  GPU        PID  Type  Process name                                          GPU "
           "Memory |\n");
    printf("|                                                                                   "
           "Usage |\n");
    printf("|======================================================================================"
           "===|\n");
    int shown = 0;
    for (const program &p : programs) {
        bool any = false;
        for (size_t d = 0; d < gpus.size(); d++)
            any = any || p.used[d];
        for (size_t d = 0; d < gpus.size(); d++) {
            if (only >= 0 && (int)d != only)
                continue;
            if (!p.used[d] && (any || d != 0))
                continue;
            char use[40];
            snprintf(use, sizeof(use), "%ldMiB", mib(p.used[d]));
            printf("|  %3zu %10ld     C  %-50s %13s |\n", d, p.pid, fit_end(p.name, 50).c_str(),
                   use);
            shown++;
        }
    }
    if (!shown)
        printf("| %-87s |\n", " No running processes found");
    printf("%s\n", rule);
    printf("Each program has simulated GPUs of its own, in its own memory; Memory-Usage adds up\n"
           "what the running programs hold. GPU-Util is not measured.\n");
}

void list()
{
    for (size_t d = 0; d < gpus.size(); d++)
        printf("GPU %zu: %s%s (UUID: %s)\n", d, gpus[d].name.c_str(),
               gpus[d].modeled ? " (modeled)" : "", uuid((int)d).c_str());
}

void query(int only)
{
    char now[64];
    time_t t = time(nullptr);
    strftime(now, sizeof(now), "%a %b %e %H:%M:%S %Y", localtime(&t));
    printf("\n==============NVSMI LOG==============\n\n");
    printf("%-38s: %s\n", "Timestamp", now);
    printf("%-38s: %s\n", "Driver Version", "N/A (gpulab's CPU simulator)");
    printf("%-38s: %s\n", "CUDA Version", "12.4");
    printf("\n%-38s: %zu\n", "Attached GPUs", gpus.size());
    for (size_t d = 0; d < gpus.size(); d++) {
        if (only >= 0 && (int)d != only)
            continue;
        const gpu &g = gpus[d];
        printf("GPU %s\n", bus_id((int)d).c_str());
        printf("    %-34s: %s\n", "Product Name", g.name.c_str());
        printf("    %-34s: %s\n", "Simulation",
               g.modeled ? "times modeled for this GPU (GPULAB_SIM_MODEL)"
                         : "kernels run on the CPU; no GPU modeled");
        printf("    %-34s: %s\n", "GPU UUID", uuid((int)d).c_str());
        printf("    %-34s: %d.%d\n", "CUDA Compute Capability", g.prop.major, g.prop.minor);
        printf("    %-34s: %d\n", "Multiprocessors", g.prop.multiProcessorCount);
        printf("    FB Memory Usage\n");
        printf("        %-30s: %ld MiB\n", "Total", mib(g.prop.totalGlobalMem));
        printf("        %-30s: %ld MiB\n", "Used", mib(g.used));
        printf("        %-30s: %ld MiB\n", "Free", mib(g.prop.totalGlobalMem - g.used));
        printf("    Max Clocks\n");
        printf("        %-30s: %d MHz\n", "SM", g.prop.clockRate / 1000);
        printf("        %-30s: %d MHz\n", "Memory", g.prop.memoryClockRate / 1000);
        printf("    %-34s: %d bits\n", "Memory Bus Width", g.prop.memoryBusWidth);
        printf("    %-34s: %zu KiB\n", "L2 Cache", (size_t)g.prop.l2CacheSize >> 10);
        printf("    Processes\n");
        int n = 0;
        for (const program &p : programs) {
            if (!p.used[d])
                continue;
            printf("        %-30s: %ld\n", "Process ID", p.pid);
            printf("            %-26s: %s\n", "Type", "C");
            printf("            %-26s: %s\n", "Name", p.name.c_str());
            printf("            %-26s: %ld MiB\n", "Used GPU Memory", mib(p.used[d]));
            n++;
        }
        if (!n)
            printf("        %s\n", "None");
    }
}

int query_gpu(const std::string &fields, const std::string &format, int only)
{
    bool header = true, units = true;
    if (format.compare(0, 3, "csv") != 0) {
        fprintf(stderr,
                "gpulab smi: --format=%s: only csv is available "
                "(csv, csv,noheader, csv,nounits)\n",
                format.c_str());
        return 2;
    }
    for (size_t at = 3; at < format.size();) {
        size_t next = format.find(',', at + 1);
        std::string opt =
            format.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
        if (opt == "noheader")
            header = false;
        else if (opt == "nounits")
            units = false;
        else if (!opt.empty()) {
            fprintf(stderr, "gpulab smi: --format: %s is not a valid option\n", opt.c_str());
            return 2;
        }
        at = next == std::string::npos ? format.size() : next;
    }
    std::vector<std::string> names;
    for (size_t at = 0; at <= fields.size();) {
        size_t next = fields.find(',', at);
        std::string f =
            fields.substr(at, next == std::string::npos ? std::string::npos : next - at);
        while (!f.empty() && f[0] == ' ')
            f.erase(0, 1);
        if (!f.empty())
            names.push_back(f);
        at = next == std::string::npos ? fields.size() + 1 : next + 1;
    }
    static const char *known[] = { "index",        "name",           "uuid",
                                   "memory.total", "memory.used",    "memory.free",
                                   "compute_cap",  "clocks.max.sm",  "clocks.max.memory",
                                   "count",        "driver_version", "pci.bus_id" };
    for (const std::string &f : names) {
        bool ok = false;
        for (const char *k : known)
            ok = ok || f == k;
        if (!ok) {
            fprintf(stderr, "Field \"%s\" is not a valid field to query.\n", f.c_str());
            return 2;
        }
    }
    if (names.empty()) {
        fprintf(stderr, "gpulab smi: --query-gpu needs at least one field\n");
        return 2;
    }
    if (header) {
        for (size_t i = 0; i < names.size(); i++) {
            const std::string &f = names[i];
            std::string h = f;
            if (units && f.compare(0, 7, "memory.") == 0)
                h += " [MiB]";
            else if (units && f.compare(0, 7, "clocks.") == 0)
                h += " [MHz]";
            printf("%s%s", i ? ", " : "", h.c_str());
        }
        printf("\n");
    }
    for (size_t d = 0; d < gpus.size(); d++) {
        if (only >= 0 && (int)d != only)
            continue;
        const gpu &g = gpus[d];
        for (size_t i = 0; i < names.size(); i++) {
            const std::string &f = names[i];
            std::string v;
            char b[64];
            const char *mu = units ? " MiB" : "", *hz = units ? " MHz" : "";
            if (f == "index")
                v = std::to_string(d);
            else if (f == "name")
                v = g.name;
            else if (f == "uuid")
                v = uuid((int)d);
            else if (f == "memory.total")
                v = std::to_string(mib(g.prop.totalGlobalMem)) + mu;
            else if (f == "memory.used")
                v = std::to_string(mib(g.used)) + mu;
            else if (f == "memory.free")
                v = std::to_string(mib(g.prop.totalGlobalMem - g.used)) + mu;
            else if (f == "compute_cap") {
                snprintf(b, sizeof(b), "%d.%d", g.prop.major, g.prop.minor);
                v = b;
            } else if (f == "clocks.max.sm")
                v = std::to_string(g.prop.clockRate / 1000) + hz;
            else if (f == "clocks.max.memory")
                v = std::to_string(g.prop.memoryClockRate / 1000) + hz;
            else if (f == "count")
                v = std::to_string(gpus.size());
            else if (f == "driver_version")
                v = "N/A";
            else
                v = bus_id((int)d);
            printf("%s%s", i ? ", " : "", v.c_str());
        }
        printf("\n");
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    enum { TABLE, LIST, QUERY, QUERY_GPU } what = TABLE;
    std::string fields, format;
    int only = -1;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        std::string v;
        size_t eq = a.find('=');
        if (a.compare(0, 2, "--") == 0 && eq != std::string::npos) {
            v = a.substr(eq + 1);
            a.resize(eq);
        } else if ((a == "--query-gpu" || a == "--format" || a == "-i" || a == "--id") &&
                   i + 1 < argc) {
            v = argv[++i];
        }
        if (a == "-h" || a == "--help")
            return usage(stdout, 0);
        else if (a == "--version")
            printf("%s\n", version);
        else if (a == "-L" || a == "--list-gpus")
            what = LIST;
        else if (a == "-q" || a == "--query")
            what = QUERY;
        else if (a == "--query-gpu") {
            what = QUERY_GPU;
            fields = v;
        } else if (a == "--format")
            format = v;
        else if (a == "-i" || a == "--id") {
            char *end;
            only = (int)strtol(v.c_str(), &end, 10);
            if (v.empty() || *end || only < 0) {
                fprintf(stderr, "gpulab smi: %s %s: a GPU index (see gpulab smi -L)\n", a.c_str(),
                        v.c_str());
                return 2;
            }
        } else {
            fprintf(stderr, "gpulab smi: unknown option %s (see gpulab smi --help)\n", argv[i]);
            return 2;
        }
    }
    if (what == QUERY_GPU && format.empty()) {
        fprintf(stderr, "gpulab smi: --query-gpu needs --format=csv\n");
        return 2;
    }
    read_gpus();
    if (only >= (int)gpus.size()) {
        fprintf(stderr, "No devices were found with index %d (there are %zu simulated GPUs)\n",
                only, gpus.size());
        return 6;
    }
    read_programs();
    switch (what) {
    case LIST:
        list();
        return 0;
    case QUERY:
        query(only);
        return 0;
    case QUERY_GPU:
        return query_gpu(fields, format, only);
    default:
        table(only);
        return 0;
    }
}
