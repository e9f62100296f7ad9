/*
 * cuda_runtime.h — gpulab simulator stand-in for CUDA's runtime header: the
 * runtime API (C and C++) and, in C++ (.cu files compiled by the simulator),
 * the device side of CUDA C: qualifiers, built-in variables, barriers, warp
 * functions, atomics, intrinsics, and the typed kernel launch.
 * The simulator's build force-includes it into every .cu file, as nvcc does.
 */
#ifndef GPULAB_SIM_CUDA_RUNTIME_H
#define GPULAB_SIM_CUDA_RUNTIME_H
/* CUDA's own guard name: programs test it to know the header is in. */
#define __CUDA_RUNTIME_H__

#include "cuda_runtime_api.h"

#ifdef __cplusplus
#include "gpulab_sim/kernel.hpp"

// C++ overloads of the symbol functions, taking the variable itself.
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                               size_t offset = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
extern "C" void gpulab_sim_register_symbol(const void *symbol, size_t size);
template <class T>
static inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol)
{
    gpulab_sim_register_symbol((const void *)&symbol, sizeof(T));
    return cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    (void)symbol;
    *size = sizeof(T);
    return cudaSuccess;
}
// Typed conveniences of CUDA's C++ API.
template <class T>
static inline cudaError_t cudaMalloc(T **devPtr, size_t size)
{
    return cudaMalloc((void **)devPtr, size);
}
template <class T>
static inline cudaError_t cudaMallocHost(T **ptr, size_t size)
{
    return cudaMallocHost((void **)ptr, size);
}
template <class T>
static inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
    return cudaHostAlloc((void **)ptr, size, flags);
}
template <class T>
static inline cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                            unsigned int flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged((void **)devPtr, size, flags);
}
template <class T>
static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry)
{
    return cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static inline cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value)
{
    return cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                        int blockSize,
                                                                        size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)func, blockSize,
                                                         dynamicSMemSize);
}
// The block size that gives the most resident threads per multiprocessor,
// and the grid size that fills every multiprocessor with it.
template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                                             T func, size_t dynamicSMemSize = 0,
                                                             int blockSizeLimit = 0)
{
    int sms = 0, best = 0, best_blocks = 0, device = 0;
    if (!minGridSize || !blockSize)
        return cudaErrorInvalidValue;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    int limit = blockSizeLimit > 0 && blockSizeLimit < 1024 ? blockSizeLimit : 1024;
    for (int size = limit / 32 * 32; size >= 32; size -= 32) {
        int blocks = 0;
        cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)func,
                                                                      size, dynamicSMemSize);
        if (e != cudaSuccess)
            return e;
        if (blocks * size > best_blocks * best) {
            best = size;
            best_blocks = blocks;
        }
    }
    *blockSize = best;
    *minGridSize = best_blocks * sms;
    return cudaSuccess;
}
#endif /* __cplusplus */

#endif /* GPULAB_SIM_CUDA_RUNTIME_H */
