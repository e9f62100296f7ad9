/* texture_fetch_functions.h — gpulab simulator stand-in: tex1Dfetch, tex1D,
 * tex2D and tex3D are part of cuda_runtime.h (gpulab_sim/texture.hpp). */
#ifndef GPULAB_SIM_TEXTURE_FETCH_FUNCTIONS_H
#define GPULAB_SIM_TEXTURE_FETCH_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
