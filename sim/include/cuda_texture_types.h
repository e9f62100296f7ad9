/* cuda_texture_types.h — gpulab simulator stand-in: texture objects and
 * their types are part of cuda_runtime.h (runtime/texture.cpp,
 * gpulab_sim/texture.hpp). */
#ifndef GPULAB_SIM_CUDA_TEXTURE_TYPES_H
#define GPULAB_SIM_CUDA_TEXTURE_TYPES_H
#include "cuda_runtime.h"
#endif
