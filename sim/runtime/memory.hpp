// memory.hpp — what copy.cpp asks of memory.cpp: where a pointer given to a
// copy or a set lies.
#ifndef GPULAB_SIM_MEMORY_HPP
#define GPULAB_SIM_MEMORY_HPP

#include <cuda_runtime.h>

#include <cstddef>

namespace gpulab_sim
{

// What a pointer is, for copy checks.
enum class where { none, device, host };

struct span {
    where kind = where::host;
    int device = -1;
};

// Checks [p, p + n) and says where it is: device memory (which must hold the
// whole range), or host memory (not checkable: any other address). Reports
// the problem, naming `call` and the pointer as `what`.
cudaError_t classify(const void *p, size_t n, span *out, const char *what, const char *call);

} // namespace gpulab_sim

#endif
