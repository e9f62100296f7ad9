// gpulab_trace.cpp — what `gpulab nsys stats`, `gpulab nsys profile --svg`
// and `gpulab ncu` make of a timeline written by the simulator
// (runtime/trace.cpp, one event a line): nsys's summary reports (kernels,
// memory operations by time and by size), an SVG picture of the rows, and
// ncu's per-kernel report (gpulab_ncu.cpp).
//
//   gpulab-trace stats FILE.json
//   gpulab-trace svg FILE.json OUT.svg
//   gpulab-trace ncu FILE.json PID PROGRAM [ncu options]
#include "gpulab_trace.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace gpulab_trace
{

const char *tool_name = "gpulab nsys";
std::vector<slice> slices;
std::map<std::pair<int, int>, std::string> row_names;
std::map<int, std::string> process_names;

// The JSON string after "key": in line, unescaped; false when absent.
bool text_of(const std::string &line, const char *key, std::string *out)
{
    std::string k = std::string("\"") + key + "\":\"";
    size_t at = line.find(k);
    if (at == std::string::npos)
        return false;
    out->clear();
    for (size_t i = at + k.size(); i < line.size(); i++) {
        char c = line[i];
        if (c == '"')
            return true;
        if (c == '\\' && i + 1 < line.size()) {
            char n = line[++i];
            if (n == 'u' && i + 4 < line.size()) {
                *out += (char)strtol(line.substr(i + 1, 4).c_str(), nullptr, 16);
                i += 4;
            } else {
                *out += n;
            }
        } else {
            *out += c;
        }
    }
    return false;
}

bool number_of(const std::string &line, const char *key, double *out)
{
    std::string k = std::string("\"") + key + "\":";
    size_t at = line.find(k);
    if (at == std::string::npos)
        return false;
    char *end;
    *out = strtod(line.c_str() + at + k.size(), &end);
    return end != line.c_str() + at + k.size();
}

bool load(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: %s: cannot read it (%s)\n", tool_name, path, strerror(errno));
        return false;
    }
    char *buf = nullptr;
    size_t cap = 0;
    int n = 0, bad = 0;
    while (getline(&buf, &cap, f) > 0) {
        std::string line = buf;
        n++;
        if (line.find("\"ph\":") == std::string::npos)
            continue;
        double pid = 0, tid = 0;
        number_of(line, "pid", &pid);
        number_of(line, "tid", &tid);
        std::string ph, name;
        text_of(line, "ph", &ph);
        if (ph == "M") {
            std::string what;
            text_of(line, "name", &what);
            size_t args = line.find("\"args\":");
            if (args == std::string::npos || !text_of(line.substr(args), "name", &name))
                continue;
            if (what == "thread_name")
                row_names[{ (int)pid, (int)tid }] = name;
            else if (what == "process_name")
                process_names[(int)pid] = name;
            continue;
        }
        slice s;
        s.mark = ph == "i";
        if ((ph != "X" && !s.mark) || !text_of(line, "name", &s.name) ||
            !number_of(line, "ts", &s.ts) || (!s.mark && !number_of(line, "dur", &s.dur))) {
            bad++;
            continue;
        }
        text_of(line, "cat", &s.kind);
        text_of(line, "clock", &s.clock);
        number_of(line, "bytes", &s.bytes);
        s.pid = (int)pid;
        s.tid = (int)tid;
        if (s.kind == "kernel" && s.tid < 1000)
            s.line = line;
        slices.push_back(s);
    }
    free(buf);
    fclose(f);
    if (n == 0 || (slices.empty() && (bad || row_names.empty()))) {
        fprintf(stderr, "%s: %s is not a timeline the simulator wrote\n", tool_name, path);
        return false;
    }
    if (bad)
        fprintf(stderr, "%s: %s: %d lines not understood, left out\n", tool_name, path, bad);
    return true;
}

} // namespace gpulab_trace

using namespace gpulab_trace;

namespace
{

std::string clock_label()
{
    for (const slice &s : slices)
        if (!s.clock.empty() && !s.host())
            return s.clock;
    return "no operations";
}

// nsys's names of memory operations.
std::string memory_op(const slice &s)
{
    if (s.kind == "memset")
        return "[CUDA memset]";
    static const char *map[][2] = { { " H2D", "[CUDA memcpy Host-to-Device]" },
                                    { " D2H", "[CUDA memcpy Device-to-Host]" },
                                    { " D2D", "[CUDA memcpy Device-to-Device]" },
                                    { " peer", "[CUDA memcpy Peer-to-Peer]" },
                                    { " H2H", "[CUDA memcpy Host-to-Host]" } };
    for (auto &m : map)
        if (s.name.find(m[0]) != std::string::npos)
            return m[1];
    return "[CUDA memcpy]";
}

struct summary {
    std::vector<double> ns;
    double bytes = 0;
};

void time_table(const char *title, const char *report, std::map<std::string, summary> &groups,
                const char *clock = nullptr)
{
    printf("\n ** %s (%s), %s:\n\n", title, report, clock ? clock : clock_label().c_str());
    if (groups.empty()) {
        printf(" (none)\n");
        return;
    }
    double total = 0;
    for (auto &g : groups)
        for (double x : g.second.ns)
            total += x;
    std::vector<std::pair<double, std::string>> order;
    for (auto &g : groups) {
        double t = 0;
        for (double x : g.second.ns)
            t += x;
        order.push_back({ -t, g.first });
    }
    std::sort(order.begin(), order.end());
    // nsys's column: "Num Calls" for API calls, "Instances" for the rest.
    printf(" Time (%%)  Total Time (ns)  %s  Avg (ns)    Med (ns)    Min (ns)    Max (ns)    "
           "StdDev (ns)  Name\n",
           clock ? "Num Calls" : "Instances");
    printf(" --------  ---------------  ---------  ----------  ----------  ----------  ----------  "
           "-----------  ----\n");
    for (auto &o : order) {
        std::vector<double> v = groups[o.second].ns;
        std::sort(v.begin(), v.end());
        double t = -o.first, avg = t / v.size();
        double med = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
        double var = 0;
        for (double x : v)
            var += (x - avg) * (x - avg);
        double sd = v.size() > 1 ? std::sqrt(var / (v.size() - 1)) : 0;
        printf(" %8.1f  %15.0f  %9zu  %10.1f  %10.1f  %10.0f  %10.0f  %11.1f  %s\n",
               total > 0 ? 100 * t / total : 0, t, v.size(), avg, med, v.front(), v.back(), sd,
               o.second.c_str());
    }
}

int stats(const char *path)
{
    if (!load(path))
        return 1;
    std::map<std::string, summary> kernels, memory, blas, api, nvtx;
    for (const slice &s : slices) {
        if (s.mark)
            continue;
        double ns = s.dur * 1000;
        if (s.host()) {
            (s.kind == "nvtx" ? nvtx : api)[s.name].ns.push_back(ns);
            continue;
        }
        if (s.tid >= 1000)
            continue; // the copy engines' rows repeat their streams' copies
        if (s.kind == "kernel")
            kernels[s.name].ns.push_back(ns);
        else if (s.kind == "memcpy" || s.kind == "memset") {
            summary &m = memory[memory_op(s)];
            m.ns.push_back(ns);
            m.bytes += s.bytes;
        } else if (s.kind == "cublas")
            blas[s.name].ns.push_back(ns);
    }
    size_t ops = 0, calls = 0;
    for (const slice &s : slices) {
        ops += s.tid < 1000 && !s.host() && !s.mark;
        calls += s.host() && s.kind == "cuda_api";
    }
    printf("Timeline: %s (%zu device operations, their times modeled, not measured; %zu CUDA API "
           "calls on the CPU clock)\n",
           path, ops, calls);
    time_table("CUDA GPU Kernel Summary", "cuda_gpu_kern_sum", kernels);
    time_table("CUDA GPU MemOps Summary (by Time)", "cuda_gpu_mem_time_sum", memory);
    printf("\n ** CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum):\n\n");
    if (memory.empty()) {
        printf(" (none)\n");
    } else {
        printf(" Total (MB)  Count  Avg (MB)  Operation\n");
        printf(" ----------  -----  --------  ---------\n");
        for (auto &m : memory)
            printf(" %10.3f  %5zu  %8.3f  %s\n", m.second.bytes / 1e6, m.second.ns.size(),
                   m.second.bytes / 1e6 / m.second.ns.size(), m.first.c_str());
    }
    time_table("cuBLAS calls, each modeled as a whole", "gpulab_cublas_sum", blas);
    time_table("CUDA API Summary", "cuda_api_sum", api, "CPU clock: the simulator's own time");
    time_table("NVTX Range Summary", "nvtx_sum", nvtx, "CPU clock: the simulator's own time");
    return 0;
}

std::string xml(const std::string &s)
{
    std::string o;
    for (char c : s) {
        if (c == '<')
            o += "&lt;";
        else if (c == '>')
            o += "&gt;";
        else if (c == '&')
            o += "&amp;";
        else if (c == '"')
            o += "&quot;";
        else
            o += c;
    }
    return o;
}

// One panel of the picture: rows sharing a clock, with their time axis.
struct panel {
    std::vector<std::pair<int, int>> rows;
    std::string title, axis;
    double t0 = 0, t1 = 1;
};

const double left = 250, width = 900, row_h = 34;

const char *fill_of(const slice &s)
{
    return s.kind == "kernel"     ? "#4e79a7"
           : s.kind == "memcpy"   ? "#f28e2b"
           : s.kind == "memset"   ? "#e15759"
           : s.kind == "cublas"   ? "#59a14f"
           : s.kind == "cuda_api" ? "#9c755f"
           : s.kind == "nvtx"     ? "#b07aa1"
                                  : "#333333";
}

// Draws panel p from y = top; returns where the next one may start.
double draw_panel(FILE *f, panel &p, double top)
{
    std::map<std::pair<int, int>, int> index;
    for (size_t i = 0; i < p.rows.size(); i++)
        index[p.rows[i]] = (int)i;
    bool any = false;
    for (const slice &s : slices)
        if (index.count({ s.pid, s.tid })) {
            p.t0 = any ? std::min(p.t0, s.ts) : s.ts;
            p.t1 = any ? std::max(p.t1, s.ts + s.dur) : s.ts + s.dur;
            any = true;
        }
    if (p.t1 <= p.t0)
        p.t1 = p.t0 + 1;
    fprintf(f, "<text x=\"10\" y=\"%.1f\" fill=\"#555\">%s</text>\n", top + 14,
            xml(p.title).c_str());
    top += 24;
    for (size_t i = 0; i < p.rows.size(); i++) {
        double y = top + i * row_h;
        std::string label = row_names[p.rows[i]];
        if (process_names.count(p.rows[i].first) && p.rows[i].first != slice::host_pid)
            label = process_names[p.rows[i].first].substr(0, 5) + " " + label;
        fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" fill=\"%s\"/>\n",
                left, y, width, row_h - 4, i % 2 ? "#f4f4f4" : "#fafafa");
        fprintf(f, "<text x=\"10\" y=\"%.1f\">%s</text>\n", y + row_h / 2 + 2, xml(label).c_str());
    }
    auto x_of = [&](double t) { return left + (t - p.t0) / (p.t1 - p.t0) * width; };
    for (const slice &s : slices) {
        auto at = index.find({ s.pid, s.tid });
        if (at == index.end())
            continue;
        double y = top + at->second * row_h;
        double x = x_of(s.ts), w = std::max(1.0, x_of(s.ts + s.dur) - x);
        char tip[128];
        if (s.mark) {
            // A mark: a small triangle on the row's top edge.
            snprintf(tip, sizeof(tip), ": at %.2f us", s.ts - p.t0);
            fprintf(f, "<path d=\"M%.2f %.1f l-3 -5 h6 z\" fill=\"%s\"><title>%s</title></path>\n",
                    x, y + 5, fill_of(s), xml(s.name + tip).c_str());
            continue;
        }
        snprintf(tip, sizeof(tip), ": %.2f us from %.2f us", s.dur, s.ts - p.t0);
        // A thin line between neighbours only where the slices are wide
        // enough to keep their colour.
        fprintf(f,
                "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"%s>"
                "<title>%s</title></rect>\n",
                x, y + 3, w, row_h - 10, fill_of(s),
                w > 4 ? " stroke=\"white\" stroke-width=\"0.5\"" : "", xml(s.name + tip).c_str());
        // The name, or without its API call ("H2D pinned"), where it fits.
        std::string label = s.name;
        if (w <= 7.0 * label.size() && label.compare(0, 4, "cuda") == 0 &&
            label.find(' ') != std::string::npos)
            label = label.substr(label.find(' ') + 1);
        if (w > 7.0 * label.size())
            fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" fill=\"white\">%s</text>\n", x + 3,
                    y + row_h / 2 + 2, xml(label).c_str());
    }
    // The time axis: about 8 ticks at round steps, in ms past 20 ms.
    double unit = p.t1 - p.t0 > 20000 ? 1000 : 1;
    double span = (p.t1 - p.t0) / unit, step = std::pow(10, std::floor(std::log10(span / 8)));
    if (span / step > 40)
        step *= 5;
    else if (span / step > 16)
        step *= 2;
    double axis_y = top + p.rows.size() * row_h + 8;
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"black\"/>\n", left,
            axis_y, left + width, axis_y);
    for (double t = 0; t <= span + 1e-9; t += step) {
        double x = x_of(p.t0 + t * unit);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>\n", x,
                axis_y, x, axis_y + 5);
        fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x, axis_y + 18,
                t);
    }
    std::string axis = p.axis;
    if (unit > 1)
        axis.replace(0, axis.find(' '), "milliseconds");
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", left + width,
            axis_y + 36, xml(axis).c_str());
    return axis_y + 48;
}

int svg(const char *path, const char *out_path)
{
    if (!load(path))
        return 1;
    for (const slice &s : slices)
        if (!row_names.count({ s.pid, s.tid }))
            row_names[{ s.pid, s.tid }] = "row " + std::to_string(s.tid);
    panel device, host;
    for (auto &r : row_names)
        (r.first.first == slice::host_pid ? host : device).rows.push_back(r.first);
    device.title = "Device: " + clock_label() + " (not measured)";
    device.axis = "microseconds (modeled)";
    host.title = "Host: CUDA API calls and NVTX ranges on the CPU clock (the simulator's own time, "
                 "not a GPU machine's)";
    host.axis = "microseconds (CPU clock of the simulator)";
    double height = 60 + (device.rows.size() + host.rows.size()) * row_h + 2 * 72 + 40;
    FILE *f = fopen(out_path, "w");
    if (!f) {
        fprintf(stderr, "%s: %s: cannot write it (%s)\n", tool_name, out_path, strerror(errno));
        return 1;
    }
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n",
            left + width + 30, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"15\">%s</text>\n",
            xml("Timeline: " + std::string(path)).c_str());
    double y = 34;
    if (!device.rows.empty())
        y = draw_panel(f, device, y);
    if (!host.rows.empty())
        y = draw_panel(f, host, y);
    double lx = 10;
    const char *kinds[][2] = { { "kernel", "#4e79a7" },     { "copy", "#f28e2b" },
                               { "memset", "#e15759" },     { "cuBLAS call", "#59a14f" },
                               { "CUDA API", "#9c755f" },   { "NVTX", "#b07aa1" },
                               { "event, mark", "#333333" } };
    for (auto &k : kinds) {
        fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>", lx, y,
                k[1]);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">%s</text>\n", lx + 16, y + 10, k[0]);
        lx += 110;
    }
    fprintf(f, "</svg>\n");
    fclose(f);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "stats"))
        return stats(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "svg"))
        return svg(argv[2], argv[3]);
    if (argc >= 5 && !strcmp(argv[1], "ncu"))
        return ncu_report(argv[2], argv[3], argv[4], argc - 5, argv + 5);
    fprintf(stderr, "usage: gpulab-trace stats FILE.json | gpulab-trace svg FILE.json OUT.svg | "
                    "gpulab-trace ncu FILE.json PID PROGRAM [options]\n");
    return 2;
}
