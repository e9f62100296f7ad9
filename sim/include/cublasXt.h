/*
 * cublasXt.h — gpulab simulator stand-in for cuBLASXt, cuBLAS's host
 * interface: gemms on matrices anywhere (host memory, usually), the call
 * returning when the result is there. A subset: handles, device selection and
 * block size (accepted: the simulator computes each call at once, with
 * OpenBLAS), cublasXtSgemm and cublasXtDgemm. Implemented by
 * sim/runtime/cublas_xt.cpp. Usable from C and C++.
 */
#ifndef GPULAB_SIM_CUBLASXT_H
#define GPULAB_SIM_CUBLASXT_H

#include <stddef.h>

#include "cublas_v2.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cublasXtContext;
typedef struct cublasXtContext *cublasXtHandle_t;

cublasStatus_t cublasXtCreate(cublasXtHandle_t *handle);
cublasStatus_t cublasXtDestroy(cublasXtHandle_t handle);
/* The devices must exist; the simulator computes on the CPU whatever they are. */
cublasStatus_t cublasXtDeviceSelect(cublasXtHandle_t handle, int nbDevices, int deviceId[]);
cublasStatus_t cublasXtSetBlockDim(cublasXtHandle_t handle, int blockDim);
cublasStatus_t cublasXtGetBlockDim(cublasXtHandle_t handle, int *blockDim);

cublasStatus_t cublasXtSgemm(cublasXtHandle_t handle, cublasOperation_t transa,
                             cublasOperation_t transb, size_t m, size_t n, size_t k,
                             const float *alpha, const float *A, size_t lda, const float *B,
                             size_t ldb, const float *beta, float *C, size_t ldc);
cublasStatus_t cublasXtDgemm(cublasXtHandle_t handle, cublasOperation_t transa,
                             cublasOperation_t transb, size_t m, size_t n, size_t k,
                             const double *alpha, const double *A, size_t lda, const double *B,
                             size_t ldb, const double *beta, double *C, size_t ldc);

#ifdef __cplusplus
}
#endif

#endif /* GPULAB_SIM_CUBLASXT_H */
