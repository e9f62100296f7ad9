// shared.hpp — static __shared__ variables: where each one lives, for the
// launch code's fault reports and the check mode. See shared.cpp.
#ifndef GPULAB_SIM_SHARED_HPP
#define GPULAB_SIM_SHARED_HPP

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpulab_sim
{

// Where an address lies in the calling worker's static shared-memory window.
struct shared_place {
    const shared_site *site; // the variable whose slot holds it; null past every variable
    uintptr_t lo, hi;        // that variable's bytes in this worker's window
    uintptr_t window;        // the window's first byte (offsets for the check mode)
};

// Whether a lies in the calling thread's window; *out says where.
bool static_shared_find(uintptr_t a, shared_place *out);

// "N bytes past the end of __shared__ array 'tile' (128 bytes, declared at
// f.cu:12)", or "before the start of", for an access of `size` bytes at a
// that is not inside p's variable.
void static_shared_describe(uintptr_t a, size_t size, const shared_place &p, char *buf, size_t len);

// The calling worker's static __shared__ variables, saved and put back: the
// blocks of a cooperative grid take turns on one worker (grid.cpp).
void static_shared_save(std::vector<unsigned char> *out);
void static_shared_restore(const std::vector<unsigned char> &in);

} // namespace gpulab_sim

#endif
