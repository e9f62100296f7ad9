// gpulab_trace.hpp — a timeline file the simulator wrote (runtime/trace.cpp),
// read back by gpulab-trace: its slices, its rows, and the ncu report made
// from its kernels (gpulab_ncu.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gpulab_trace
{

struct slice {
    std::string name, kind, clock;
    int pid = 0, tid = 0;
    double ts = 0, dur = 0, bytes = 0;
    std::string line;  // a kernel's whole event (its args hold ncu's figures)
    bool mark = false; // an instant (an NVTX mark, a cudaEventRecord), dur 0
    bool host() const
    {
        return pid == host_pid;
    }
    static constexpr int host_pid = 100; // the host's rows: CPU clock, not modeled
};

extern const char *tool_name; // for messages: "gpulab nsys", "gpulab ncu"
extern std::vector<slice> slices;
extern std::map<std::pair<int, int>, std::string> row_names; // (pid, tid) -> row
extern std::map<int, std::string> process_names;             // pid -> device

// Reads a timeline; false (with a message) when it cannot or it is not one.
bool load(const char *path);
// The JSON string or number after "key": in line; false when absent.
bool text_of(const std::string &line, const char *key, std::string *out);
bool number_of(const std::string &line, const char *key, double *out);

// `gpulab ncu`'s report of the kernels in the timeline at path, written by
// process pid running program; argv: ncu's options (--csv, --section, ...).
int ncu_report(const char *path, const char *pid, const char *program, int argc, char **argv);

} // namespace gpulab_trace
