// nvtx3/nvtx3.hpp — NVTX's C++ interface for programs of gpulab's simulator,
// the part most programs use: nvtx3::scoped_range (a range for a scope),
// nvtx3::mark, and NVTX3_FUNC_RANGE() (a range named for the function). It
// records through the C interface (nvtx3/nvToolsExt.h).
#ifndef GPULAB_SIM_NVTX3_HPP
#define GPULAB_SIM_NVTX3_HPP

#include "nvToolsExt.h"

#include <string>

namespace nvtx3
{

class scoped_range
{
  public:
    explicit scoped_range(const char *message)
    {
        nvtxRangePushA(message);
    }
    explicit scoped_range(const std::string &message) : scoped_range(message.c_str()) {}
    scoped_range() : scoped_range("") {}
    ~scoped_range()
    {
        nvtxRangePop();
    }
    scoped_range(const scoped_range &) = delete;
    scoped_range &operator=(const scoped_range &) = delete;
};

inline void mark(const char *message)
{
    nvtxMarkA(message);
}

inline void mark(const std::string &message)
{
    nvtxMarkA(message.c_str());
}

} // namespace nvtx3

#define NVTX3_FUNC_RANGE() ::nvtx3::scoped_range nvtx3_func_range_here_(__func__)

#endif
