/* cublas_api.h — gpulab simulator stand-in: the cuBLAS API is in cublas_v2.h. */
#ifndef GPULAB_SIM_CUBLAS_API_H
#define GPULAB_SIM_CUBLAS_API_H
#include "cublas_v2.h"
#endif
