// nvtx.cpp — NVTX for programs of the simulator (include/nvtx3/nvToolsExt.h):
// each host thread's push/pop ranges and marks, and start/end ranges, go to
// the host's NVTX row of the timeline (trace.cpp) when one is written. Push
// and pop keep their depth either way, as NVTX's return values report it.
#include "trace.hpp"

#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gpulab_sim
{
namespace
{

struct open_range {
    std::string name;
    double t0;
};

std::vector<open_range> &stack()
{
    static thread_local std::vector<open_range> s;
    return s;
}

std::mutex started_mutex;
std::map<nvtxRangeId_t, open_range> started;
nvtxRangeId_t next_id = 1;

std::string narrow(const wchar_t *w)
{
    std::string s;
    for (; w && *w; w++)
        s += *w < 0x80 ? (char)*w : '?';
    return s;
}

std::string message_of(const nvtxEventAttributes_t *a)
{
    if (!a)
        return "";
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return a->message.ascii ? a->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE:
        return narrow(a->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED:
        return a->message.registered ? (const char *)a->message.registered : "";
    default:
        return "";
    }
}

double now()
{
    return trace_on() ? trace_now_us() : 0;
}

int push(const std::string &name)
{
    stack().push_back({ name, now() });
    return (int)stack().size() - 1;
}

int pop()
{
    if (stack().empty())
        return -1; // a pop without a push, as NVTX reports it
    open_range r = stack().back();
    stack().pop_back();
    trace_nvtx_range(r.name.c_str(), r.t0, now());
    return (int)stack().size();
}

nvtxRangeId_t start(const std::string &name)
{
    std::lock_guard<std::mutex> lock(started_mutex);
    nvtxRangeId_t id = next_id++;
    started[id] = { name, now() };
    return id;
}

void end(nvtxRangeId_t id)
{
    open_range r;
    {
        std::lock_guard<std::mutex> lock(started_mutex);
        auto it = started.find(id);
        if (it == started.end())
            return;
        r = it->second;
        started.erase(it);
    }
    trace_nvtx_range(r.name.c_str(), r.t0, now());
}

void mark(const std::string &name)
{
    trace_nvtx_mark(name.c_str(), now());
}

} // namespace
} // namespace gpulab_sim

using namespace gpulab_sim;

extern "C" {

void nvtxInitialize(const void *) {}

void nvtxMarkEx(const nvtxEventAttributes_t *attr)
{
    mark(message_of(attr));
}

void nvtxMarkA(const char *message)
{
    mark(message ? message : "");
}

void nvtxMarkW(const wchar_t *message)
{
    mark(narrow(message));
}

nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *attr)
{
    return start(message_of(attr));
}

nvtxRangeId_t nvtxRangeStartA(const char *message)
{
    return start(message ? message : "");
}

nvtxRangeId_t nvtxRangeStartW(const wchar_t *message)
{
    return start(narrow(message));
}

void nvtxRangeEnd(nvtxRangeId_t id)
{
    end(id);
}

int nvtxRangePushEx(const nvtxEventAttributes_t *attr)
{
    return push(message_of(attr));
}

int nvtxRangePushA(const char *message)
{
    return push(message ? message : "");
}

int nvtxRangePushW(const wchar_t *message)
{
    return push(narrow(message));
}

int nvtxRangePop(void)
{
    return pop();
}

void nvtxNameCategoryA(uint32_t, const char *) {}
void nvtxNameCategoryW(uint32_t, const wchar_t *) {}
void nvtxNameOsThreadA(uint32_t, const char *) {}
void nvtxNameOsThreadW(uint32_t, const wchar_t *) {}

// Domains share the one NVTX row; a handle is the domain's name.
nvtxDomainHandle_t nvtxDomainCreateA(const char *name)
{
    return (nvtxDomainHandle_t)strdup(name ? name : "");
}

nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t *name)
{
    return (nvtxDomainHandle_t)strdup(narrow(name).c_str());
}

void nvtxDomainDestroy(nvtxDomainHandle_t domain)
{
    free(domain);
}

// A registered string is a copy of it, kept for the program's life.
nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t, const char *string)
{
    return (nvtxStringHandle_t)strdup(string ? string : "");
}

nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t, const wchar_t *string)
{
    return (nvtxStringHandle_t)strdup(narrow(string).c_str());
}

void nvtxDomainMarkEx(nvtxDomainHandle_t, const nvtxEventAttributes_t *attr)
{
    mark(message_of(attr));
}

nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t, const nvtxEventAttributes_t *attr)
{
    return start(message_of(attr));
}

void nvtxDomainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t id)
{
    end(id);
}

int nvtxDomainRangePushEx(nvtxDomainHandle_t, const nvtxEventAttributes_t *attr)
{
    return push(message_of(attr));
}

int nvtxDomainRangePop(nvtxDomainHandle_t)
{
    return pop();
}

} // extern "C"
