/*
 * cublas_v2.h — gpulab simulator stand-in for cuBLAS's v2 API: a subset (what
 * the labs use and more), with cuBLAS's names, values and semantics
 * (column-major storage, the handle's stream, pointer mode and math mode,
 * CUBLAS_STATUS_* codes). Implemented by the simulator runtime
 * (the cublas files of sim/runtime) on OpenBLAS, computing
 * directly on simulated device memory. Usable from C and C++.
 *
 * As in CUDA, the functions that have a _v2 form are declared under that name
 * and reached through a macro (cublasCreate is cublasCreate_v2), so programs
 * and the real library agree.
 */
#ifndef GPULAB_SIM_CUBLAS_V2_H
#define GPULAB_SIM_CUBLAS_V2_H
/* cuBLAS's own guard names: programs test them to know the API is in. */
#define CUBLAS_API_H_
#define CUBLAS_V2_H_

#include "driver_types.h"
#include "library_types.h"

/* The cuBLAS version these headers present: 12.4.5, the one of CUDA 12.4. */
#define CUBLAS_VER_MAJOR 12
#define CUBLAS_VER_MINOR 4
#define CUBLAS_VER_PATCH 5
#define CUBLAS_VER_BUILD 8
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes, values as in cuBLAS. */
typedef enum {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15,
    CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

/* op(A): A, its transpose, or its conjugate transpose (the transpose for real types). */
typedef enum {
    CUBLAS_OP_N = 0,
    CUBLAS_OP_T = 1,
    CUBLAS_OP_C = 2,
    CUBLAS_OP_HERMITAN = 2, /* synonym of CUBLAS_OP_C */
    CUBLAS_OP_CONJG = 3     /* not supported (as in cuBLAS) */
} cublasOperation_t;

/* Where scalars (alpha, beta) and level-1 results live: host or device memory. */
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;

/* Triangular and symmetric matrices: which triangle is stored. */
typedef enum {
    CUBLAS_FILL_MODE_LOWER = 0,
    CUBLAS_FILL_MODE_UPPER = 1,
    CUBLAS_FILL_MODE_FULL = 2
} cublasFillMode_t;
/* Whether a triangular matrix has ones on its diagonal (not read then). */
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
/* Which side of the product the triangular matrix is on (trsm). */
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;

/* The handle's math mode (cublasSetMathMode): a mode, optionally or'ed with
 * CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION. */
typedef enum {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1,
    CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3,
    CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;

/* The precision the Ex calls compute in (and the type of alpha and beta). */
typedef enum {
    CUBLAS_COMPUTE_16F = 64,
    CUBLAS_COMPUTE_16F_PEDANTIC = 65,
    CUBLAS_COMPUTE_32F = 68,
    CUBLAS_COMPUTE_32F_PEDANTIC = 69,
    CUBLAS_COMPUTE_32F_FAST_16F = 74,
    CUBLAS_COMPUTE_32F_FAST_16BF = 75,
    CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
    CUBLAS_COMPUTE_64F = 70,
    CUBLAS_COMPUTE_64F_PEDANTIC = 71,
    CUBLAS_COMPUTE_32I = 72,
    CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

/* The algorithm of an Ex gemm: accepted and ignored (all give the same result here). */
typedef enum {
    CUBLAS_GEMM_DFALT = -1,
    CUBLAS_GEMM_DEFAULT = -1,
    CUBLAS_GEMM_ALGO0 = 0,
    CUBLAS_GEMM_ALGO1 = 1,
    CUBLAS_GEMM_ALGO2 = 2,
    CUBLAS_GEMM_ALGO3 = 3,
    CUBLAS_GEMM_ALGO4 = 4,
    CUBLAS_GEMM_ALGO5 = 5,
    CUBLAS_GEMM_ALGO6 = 6,
    CUBLAS_GEMM_ALGO7 = 7,
    CUBLAS_GEMM_ALGO8 = 8,
    CUBLAS_GEMM_ALGO9 = 9,
    CUBLAS_GEMM_ALGO10 = 10,
    CUBLAS_GEMM_ALGO11 = 11,
    CUBLAS_GEMM_ALGO12 = 12,
    CUBLAS_GEMM_ALGO13 = 13,
    CUBLAS_GEMM_ALGO14 = 14,
    CUBLAS_GEMM_ALGO15 = 15,
    CUBLAS_GEMM_ALGO16 = 16,
    CUBLAS_GEMM_ALGO17 = 17,
    CUBLAS_GEMM_ALGO18 = 18,
    CUBLAS_GEMM_ALGO19 = 19,
    CUBLAS_GEMM_ALGO20 = 20,
    CUBLAS_GEMM_ALGO21 = 21,
    CUBLAS_GEMM_ALGO22 = 22,
    CUBLAS_GEMM_ALGO23 = 23,
    CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
    CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
    CUBLAS_GEMM_ALGO0_TENSOR_OP = 100,
    CUBLAS_GEMM_ALGO1_TENSOR_OP = 101,
    CUBLAS_GEMM_ALGO2_TENSOR_OP = 102,
    CUBLAS_GEMM_ALGO3_TENSOR_OP = 103,
    CUBLAS_GEMM_ALGO4_TENSOR_OP = 104,
    CUBLAS_GEMM_ALGO5_TENSOR_OP = 105,
    CUBLAS_GEMM_ALGO6_TENSOR_OP = 106,
    CUBLAS_GEMM_ALGO7_TENSOR_OP = 107,
    CUBLAS_GEMM_ALGO8_TENSOR_OP = 108,
    CUBLAS_GEMM_ALGO9_TENSOR_OP = 109,
    CUBLAS_GEMM_ALGO10_TENSOR_OP = 110,
    CUBLAS_GEMM_ALGO11_TENSOR_OP = 111,
    CUBLAS_GEMM_ALGO12_TENSOR_OP = 112,
    CUBLAS_GEMM_ALGO13_TENSOR_OP = 113,
    CUBLAS_GEMM_ALGO14_TENSOR_OP = 114,
    CUBLAS_GEMM_ALGO15_TENSOR_OP = 115
} cublasGemmAlgo_t;

/* A library context: the device it was created on, its stream and pointer mode. */
struct cublasContext;
typedef struct cublasContext *cublasHandle_t;

/* Handles */
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId);
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
const char *cublasGetStatusName(cublasStatus_t status);
const char *cublasGetStatusString(cublasStatus_t status);

/* Host <-> device copies (synchronous), column-major with leading dimensions. */
cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr,
                               int incy);
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb);

/* Level 1 */
cublasStatus_t cublasSnrm2_v2(cublasHandle_t handle, int n, const float *x, int incx,
                              float *result);
cublasStatus_t cublasSdot_v2(cublasHandle_t handle, int n, const float *x, int incx, const float *y,
                             int incy, float *result);
cublasStatus_t cublasSscal_v2(cublasHandle_t handle, int n, const float *alpha, float *x, int incx);
cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, int n, const float *alpha, const float *x,
                              int incx, float *y, int incy);
cublasStatus_t cublasScopy_v2(cublasHandle_t handle, int n, const float *x, int incx, float *y,
                              int incy);
cublasStatus_t cublasSswap_v2(cublasHandle_t handle, int n, float *x, int incx, float *y, int incy);
cublasStatus_t cublasIsamax_v2(cublasHandle_t handle, int n, const float *x, int incx, int *result);
cublasStatus_t cublasIsamin_v2(cublasHandle_t handle, int n, const float *x, int incx, int *result);
cublasStatus_t cublasSasum_v2(cublasHandle_t handle, int n, const float *x, int incx,
                              float *result);

/* Level 2 */
cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                              const float *alpha, const float *A, int lda, const float *x, int incx,
                              const float *beta, float *y, int incy);
cublasStatus_t cublasDgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                              const double *alpha, const double *A, int lda, const double *x,
                              int incx, const double *beta, double *y, int incy);
cublasStatus_t cublasSger_v2(cublasHandle_t handle, int m, int n, const float *alpha,
                             const float *x, int incx, const float *y, int incy, float *A, int lda);
cublasStatus_t cublasSsymv_v2(cublasHandle_t handle, cublasFillMode_t uplo, int n,
                              const float *alpha, const float *A, int lda, const float *x, int incx,
                              const float *beta, float *y, int incy);

/* Level 3 */
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const float *alpha,
                              const float *A, int lda, const float *B, int ldb, const float *beta,
                              float *C, int ldc);
cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const double *alpha,
                              const double *A, int lda, const double *B, int ldb,
                              const double *beta, double *C, int ldc);
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const float *alpha, const float *A, int lda,
                                         long long int strideA, const float *B, int ldb,
                                         long long int strideB, const float *beta, float *C,
                                         int ldc, long long int strideC, int batchCount);
cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k, const float *alpha,
                                  const float *const Aarray[], int lda, const float *const Barray[],
                                  int ldb, const float *beta, float *const Carray[], int ldc,
                                  int batchCount);
cublasStatus_t cublasDgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k,
                                  const double *alpha, const double *const Aarray[], int lda,
                                  const double *const Barray[], int ldb, const double *beta,
                                  double *const Carray[], int ldc, int batchCount);
/* Batched LU with partial pivoting (PivotArray may be NULL: no pivoting),
 * and the inverses from those factors. */
cublasStatus_t cublasSgetrfBatched(cublasHandle_t handle, int n, float *const Aarray[], int lda,
                                   int *PivotArray, int *infoArray, int batchSize);
cublasStatus_t cublasDgetrfBatched(cublasHandle_t handle, int n, double *const Aarray[], int lda,
                                   int *PivotArray, int *infoArray, int batchSize);
cublasStatus_t cublasSgetriBatched(cublasHandle_t handle, int n, const float *const Aarray[],
                                   int lda, const int *PivotArray, float *const Carray[], int ldc,
                                   int *infoArray, int batchSize);
cublasStatus_t cublasDgetriBatched(cublasHandle_t handle, int n, const double *const Aarray[],
                                   int lda, const int *PivotArray, double *const Carray[], int ldc,
                                   int *infoArray, int batchSize);
cublasStatus_t cublasStrsm_v2(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int m, int n,
                              const float *alpha, const float *A, int lda, float *B, int ldb);

/* BLAS-like extensions */
cublasStatus_t cublasSgeam(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n, const float *alpha,
                           const float *A, int lda, const float *beta, const float *B, int ldb,
                           float *C, int ldc);
/* Mixed precision: A, B and C of types Atype, Btype, Ctype; alpha and beta of
 * the compute type's scalar type (__half for CUBLAS_COMPUTE_16F, double for
 * CUBLAS_COMPUTE_64F, float otherwise). */
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void *alpha,
                            const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                   cublasOperation_t transb, int m, int n, int k, const void *alpha,
                                   const void *const Aarray[], cudaDataType Atype, int lda,
                                   const void *const Barray[], cudaDataType Btype, int ldb,
                                   const void *beta, void *const Carray[], cudaDataType Ctype,
                                   int ldc, int batchCount, cublasComputeType_t computeType,
                                   cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B,
                                          cudaDataType Btype, int ldb, long long int strideB,
                                          const void *beta, void *C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo);

#ifdef __cplusplus
}

/* As in cuBLAS, C++ programs may still pass the compute type of CUDA 10 (a
 * cudaDataType) to the Ex gemms: it is mapped to the matching compute type. */
static inline cublasComputeType_t gpulab_sim_compute_type(cudaDataType t)
{
    switch (t) {
    case CUDA_R_16F:
        return CUBLAS_COMPUTE_16F;
    case CUDA_R_32F:
        return CUBLAS_COMPUTE_32F;
    case CUDA_R_64F:
        return CUBLAS_COMPUTE_64F;
    case CUDA_R_32I:
        return CUBLAS_COMPUTE_32I;
    default:
        return (cublasComputeType_t)-1; /* CUBLAS_STATUS_INVALID_VALUE */
    }
}
static inline cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, const void *B, cudaDataType Btype, int ldb,
                                          const void *beta, void *C, cudaDataType Ctype, int ldc,
                                          cudaDataType computeType, cublasGemmAlgo_t algo)
{
    return cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta,
                        C, Ctype, ldc, gpulab_sim_compute_type(computeType), algo);
}
static inline cublasStatus_t
cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                    int m, int n, int k, const void *alpha, const void *const Aarray[],
                    cudaDataType Atype, int lda, const void *const Barray[], cudaDataType Btype,
                    int ldb, const void *beta, void *const Carray[], cudaDataType Ctype, int ldc,
                    int batchCount, cudaDataType computeType, cublasGemmAlgo_t algo)
{
    return cublasGemmBatchedEx(handle, transa, transb, m, n, k, alpha, Aarray, Atype, lda, Barray,
                               Btype, ldb, beta, Carray, Ctype, ldc, batchCount,
                               gpulab_sim_compute_type(computeType), algo);
}
static inline cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void *alpha, const void *A, cudaDataType Atype, int lda, long long int strideA,
    const void *B, cudaDataType Btype, int ldb, long long int strideB, const void *beta, void *C,
    cudaDataType Ctype, int ldc, long long int strideC, int batchCount, cudaDataType computeType,
    cublasGemmAlgo_t algo)
{
    return cublasGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda,
                                      strideA, B, Btype, ldb, strideB, beta, C, Ctype, ldc, strideC,
                                      batchCount, gpulab_sim_compute_type(computeType), algo);
}
#endif

#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasGetVersion cublasGetVersion_v2
#define cublasSetStream cublasSetStream_v2
#define cublasGetStream cublasGetStream_v2
#define cublasGetPointerMode cublasGetPointerMode_v2
#define cublasSetPointerMode cublasSetPointerMode_v2
#define cublasSnrm2 cublasSnrm2_v2
#define cublasSdot cublasSdot_v2
#define cublasSscal cublasSscal_v2
#define cublasSaxpy cublasSaxpy_v2
#define cublasScopy cublasScopy_v2
#define cublasSswap cublasSswap_v2
#define cublasIsamax cublasIsamax_v2
#define cublasSasum cublasSasum_v2
#define cublasIsamin cublasIsamin_v2
#define cublasSger cublasSger_v2
#define cublasSsymv cublasSsymv_v2
#define cublasStrsm cublasStrsm_v2
#define cublasSgemv cublasSgemv_v2
#define cublasDgemv cublasDgemv_v2
#define cublasSgemm cublasSgemm_v2
#define cublasDgemm cublasDgemm_v2

#endif /* GPULAB_SIM_CUBLAS_V2_H */
