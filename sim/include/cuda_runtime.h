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
#include "gpulab_sim/cooperative_launch.hpp"
#include "gpulab_sim/texture.hpp"

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
template <class T>
static inline cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch((void **)devPtr, pitch, width, height);
}
// cudaEventCreate with flags: CUDA's C++ overload of cudaEventCreateWithFlags.
static inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags)
{
    return cudaEventCreateWithFlags(event, flags);
}
// cudaGraphInstantiate: CUDA 12's form (flags), and the older one that
// programs still write (error node, log buffer), as CUDA's header keeps it.
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                               unsigned long long flags = 0)
{
    return cudaGraphInstantiateWithFlags(pGraphExec, graph, flags);
}
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                               cudaGraphNode_t *pErrorNode, char *pLogBuffer,
                                               size_t bufferSize)
{
    (void)pErrorNode;
    if (pLogBuffer && bufferSize)
        pLogBuffer[0] = 0;
    return cudaGraphInstantiateWithFlags(pGraphExec, graph, 0);
}
// cudaGraphExecUpdate's older form (error node, result).
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                              cudaGraphNode_t *hErrorNode_out,
                                              enum cudaGraphExecUpdateResult *updateResult_out)
{
    cudaGraphExecUpdateResultInfo info;
    cudaError_t e = cudaGraphExecUpdate(hGraphExec, hGraph, &info);
    if (hErrorNode_out)
        *hErrorNode_out = info.errorNode;
    if (updateResult_out)
        *updateResult_out = info.result;
    return e;
}
template <class T>
static inline cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync((void **)devPtr, size, stream);
}
// From a given pool (CUDA's C++ overload of cudaMallocFromPoolAsync).
template <class T>
static inline cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaMemPool_t memPool,
                                          cudaStream_t stream)
{
    return cudaMallocFromPoolAsync((void **)devPtr, size, memPool, stream);
}
template <class T>
static inline cudaError_t cudaMallocFromPoolAsync(T **devPtr, size_t size, cudaMemPool_t memPool,
                                                  cudaStream_t stream)
{
    return cudaMallocFromPoolAsync((void **)devPtr, size, memPool, stream);
}
#endif /* __cplusplus */

/*
 * Where each device allocation is made. Check mode names the cudaMalloc call
 * of a leaked allocation (file, line and function), as compute-sanitizer's
 * saved host backtrace does, so these three calls are macros that pass the
 * caller's place on. Only a call written as a call is affected: &cudaMalloc,
 * (cudaMalloc)(...) and cudaMalloc<float>(...) name the functions themselves.
 *   C:   (gpulab_sim_alloc_site(place), cudaMalloc(args))
 *   C++: cudaMalloc(gpulab_sim_site{place}, args), which also works after ::
 *        and keeps the typed overloads above.
 * memory.cpp, which implements the functions, defines GPULAB_SIM_NO_ALLOC_SITES.
 */
#ifndef GPULAB_SIM_NO_ALLOC_SITES
#ifdef __cplusplus
struct gpulab_sim_site {
    const char *file;
    int line;
    const char *function;
};
static inline cudaError_t cudaMalloc(gpulab_sim_site at, void **devPtr, size_t size)
{
    gpulab_sim_alloc_site(at.file, at.line, at.function);
    return cudaMalloc(devPtr, size);
}
template <class T>
static inline cudaError_t cudaMalloc(gpulab_sim_site at, T **devPtr, size_t size)
{
    gpulab_sim_alloc_site(at.file, at.line, at.function);
    return cudaMalloc((void **)devPtr, size);
}
static inline cudaError_t cudaMallocManaged(gpulab_sim_site at, void **devPtr, size_t size,
                                            unsigned int flags = cudaMemAttachGlobal)
{
    gpulab_sim_alloc_site(at.file, at.line, at.function);
    return cudaMallocManaged(devPtr, size, flags);
}
template <class T>
static inline cudaError_t cudaMallocManaged(gpulab_sim_site at, T **devPtr, size_t size,
                                            unsigned int flags = cudaMemAttachGlobal)
{
    gpulab_sim_alloc_site(at.file, at.line, at.function);
    return cudaMallocManaged((void **)devPtr, size, flags);
}
static inline cudaError_t cudaMallocPitch(gpulab_sim_site at, void **devPtr, size_t *pitch,
                                          size_t width, size_t height)
{
    gpulab_sim_alloc_site(at.file, at.line, at.function);
    return cudaMallocPitch(devPtr, pitch, width, height);
}
template <class T>
static inline cudaError_t cudaMallocPitch(gpulab_sim_site at, T **devPtr, size_t *pitch,
                                          size_t width, size_t height)
{
    gpulab_sim_alloc_site(at.file, at.line, at.function);
    return cudaMallocPitch((void **)devPtr, pitch, width, height);
}
#define GPULAB_SIM_HERE                                                                            \
    gpulab_sim_site                                                                                \
    {                                                                                              \
        __FILE__, __LINE__, __builtin_FUNCTION()                                                   \
    }
#define cudaMalloc(...) cudaMalloc(GPULAB_SIM_HERE, __VA_ARGS__)
#define cudaMallocManaged(...) cudaMallocManaged(GPULAB_SIM_HERE, __VA_ARGS__)
#define cudaMallocPitch(...) cudaMallocPitch(GPULAB_SIM_HERE, __VA_ARGS__)
#else
#define GPULAB_SIM_HERE gpulab_sim_alloc_site(__FILE__, __LINE__, __func__)
#define cudaMalloc(...) (GPULAB_SIM_HERE, cudaMalloc(__VA_ARGS__))
#define cudaMallocManaged(...) (GPULAB_SIM_HERE, cudaMallocManaged(__VA_ARGS__))
#define cudaMallocPitch(...) (GPULAB_SIM_HERE, cudaMallocPitch(__VA_ARGS__))
#endif
#endif /* GPULAB_SIM_NO_ALLOC_SITES */

#endif /* GPULAB_SIM_CUDA_RUNTIME_H */
