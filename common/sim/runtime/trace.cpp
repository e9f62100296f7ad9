// trace.cpp — the timeline of `gpulab nsys profile` (docs/tools.md): with
// GPULAB_SIM_TRACE=FILE and the performance model on, each kernel, copy,
// memset and cuBLAS call is written to FILE at its modeled start and end, as
// a slice on the row of its device's stream (copies also on the row of the
// copy engine they use), in the JSON array form of Chrome's trace-event
// format, which ui.perfetto.dev and chrome://tracing open. One event a line,
// written as it happens: a program that crashes keeps what it did (the
// format allows the closing bracket to be missing).
#include "trace.hpp"

#include "internal.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace gpulab_sim
{
namespace
{

std::mutex trace_mutex;
FILE *out = nullptr;
bool settled = false;
std::map<std::pair<int, const void *>, int> stream_rows; // (device, stream) -> row
std::set<std::pair<int, int>> named;                     // (device, row) already named
std::set<int> devices_named;
int next_row[16];

void close_trace()
{
    std::lock_guard<std::mutex> lock(trace_mutex);
    if (out) {
        fputs("\n]\n", out);
        fclose(out);
        out = nullptr;
    }
}

void json_text(std::string &s, const char *t)
{
    s += '"';
    for (; *t; t++) {
        unsigned char c = (unsigned char)*t;
        if (c == '"' || c == '\\') {
            s += '\\';
            s += (char)c;
        } else if (c < 0x20) {
            char b[8];
            snprintf(b, sizeof(b), "\\u%04x", c);
            s += b;
        } else {
            s += (char)c;
        }
    }
    s += '"';
}

void emit(const std::string &line)
{
    static bool first = true;
    fputs(first ? "[\n" : ",\n", out);
    first = false;
    fputs(line.c_str(), out);
    fflush(out);
}

void name_row(int pid, int tid, const std::string &name, int sort)
{
    std::string l = "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
                    ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":";
    json_text(l, name.c_str());
    l += "}}";
    emit(l);
    emit("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
         ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"sort_index\":" + std::to_string(sort) +
         "}}");
}

// Opens the file the first time: false when there is no trace to write.
bool ready()
{
    if (settled)
        return out != nullptr;
    settled = true;
    const char *path = getenv("GPULAB_SIM_TRACE");
    if (!path || !*path)
        return false;
    out = fopen(path, "w");
    if (!out) {
        report("GPULAB_SIM_TRACE=%s: cannot write it (%s); the program runs on without a "
               "timeline",
               path, strerror(errno));
        return false;
    }
    atexit(close_trace);
    return true;
}

} // namespace

void trace_device_op(int device, const void *stream, const char *kind, const std::string &name,
                     double start_us, double end_us, int engine, const char *gpu, const char *bound,
                     double bytes, const dim3 *grid, const dim3 *block)
{
    static const bool wanted = getenv("GPULAB_SIM_TRACE") && *getenv("GPULAB_SIM_TRACE");
    if (!wanted)
        return;
    static const char *engines[] = { "", "H2D", "D2H", "device memory" };
    std::string clock_text = std::string("modeled ") + gpu;
    const char *clock = clock_text.c_str();
    const char *engine_name = engine > 0 && engine < 4 ? engines[engine] : "";
    char more[256];
    int n = snprintf(more, sizeof(more), "\"bound\":\"%s\",\"bytes\":%.0f", bound, bytes);
    if (grid && block && n > 0 && n < (int)sizeof(more))
        snprintf(more + n, sizeof(more) - n, ",\"grid\":\"(%u,%u,%u)\",\"block\":\"(%u,%u,%u)\"",
                 grid->x, grid->y, grid->z, block->x, block->y, block->z);
    std::string detail = more;
    std::lock_guard<std::mutex> lock(trace_mutex);
    if (!ready() || device < 0 || device >= 16)
        return;
    int pid = device + 1;
    if (devices_named.insert(device).second) {
        std::string l = "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
                        ",\"args\":{\"name\":";
        json_text(l, ("GPU " + std::to_string(device) + " (" + clock + ")").c_str());
        l += "}}";
        emit(l);
        emit("{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
             ",\"args\":{\"sort_index\":" + std::to_string(pid) + "}}");
    }
    auto key = std::make_pair(device, stream);
    auto it = stream_rows.find(key);
    if (it == stream_rows.end()) {
        // The legacy default stream is row 0, other streams 1, 2, ... in the
        // order they first ran work.
        int row = stream ? ++next_row[device] : 0;
        it = stream_rows.emplace(key, row).first;
        name_row(pid, row, row ? "Stream " + std::to_string(row) : "Default stream", row);
    }
    char times[96];
    snprintf(times, sizeof(times), ",\"ts\":%.3f,\"dur\":%.3f", start_us, end_us - start_us);
    auto slice = [&](int tid) {
        std::string l = "{\"name\":";
        json_text(l, name.c_str());
        l += ",\"cat\":";
        json_text(l, kind);
        l += ",\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
             times + ",\"args\":{\"clock\":";
        json_text(l, clock);
        l += ",\"stream\":" + std::to_string(it->second);
        if (!detail.empty())
            l += "," + detail;
        l += "}}";
        emit(l);
    };
    slice(it->second);
    if (engine > 0) {
        int tid = 1000 + engine;
        if (named.insert({ device, tid }).second)
            name_row(pid, tid, std::string("Copy engine ") + engine_name, tid);
        slice(tid);
    }
}

} // namespace gpulab_sim
