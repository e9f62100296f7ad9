/*
 * library_types.h — gpulab simulator stand-in for CUDA's library_types.h:
 * cudaDataType_t, the element types of the cuBLAS "Ex" calls, with CUDA's
 * values. Usable from C and C++.
 */
#ifndef GPULAB_SIM_LIBRARY_TYPES_H
#define GPULAB_SIM_LIBRARY_TYPES_H
/* CUDA's own guard name: programs test it to know the header is in. */
#define __LIBRARY_TYPES_H__

typedef enum cudaDataType_t {
    CUDA_R_16F = 2,
    CUDA_C_16F = 6,
    CUDA_R_16BF = 14,
    CUDA_C_16BF = 15,
    CUDA_R_32F = 0,
    CUDA_C_32F = 4,
    CUDA_R_64F = 1,
    CUDA_C_64F = 5,
    CUDA_R_8I = 3,
    CUDA_C_8I = 7,
    CUDA_R_8U = 8,
    CUDA_C_8U = 9,
    CUDA_R_32I = 10,
    CUDA_C_32I = 11
} cudaDataType;
typedef enum cudaDataType_t cudaDataType_t;

/* What a library's GetProperty call reports (cuRAND, cuBLAS). */
typedef enum libraryPropertyType_t {
    MAJOR_VERSION,
    MINOR_VERSION,
    PATCH_LEVEL
} libraryPropertyType;
typedef enum libraryPropertyType_t libraryPropertyType_t;

#endif /* GPULAB_SIM_LIBRARY_TYPES_H */
