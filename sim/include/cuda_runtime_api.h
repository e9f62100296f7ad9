/*
 * cuda_runtime_api.h — gpulab simulator stand-in: the CUDA runtime API's
 * functions, as C declarations with CUDA's names, parameters and error codes.
 * Implemented by the simulator runtime (sim/runtime/) on the CPU.
 * Usable from C and C++.
 */
#ifndef GPULAB_SIM_CUDA_RUNTIME_API_H
#define GPULAB_SIM_CUDA_RUNTIME_API_H
/* CUDA's own guard name: programs test it to know the header is in. */
#define __CUDA_RUNTIME_API_H__

#include <stddef.h>

#include "driver_types.h"

/* The CUDA version these headers present (CUDA 12.4 API level). */
#define CUDART_VERSION 12040
#define GPULAB_SIM 1

/* Default arguments, in C++ only, where CUDA's header has them. */
#ifdef __cplusplus
#define GPULAB_SIM_DV(v) = v
#else
#define GPULAB_SIM_DV(v)
#endif

/* Marks a stream callback function, as in CUDA. */
#define CUDART_CB

#ifdef __cplusplus
extern "C" {
#endif

/* Errors */
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

/* Versions */
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
cudaError_t cudaDriverGetVersion(int *driverVersion);

/* Devices */
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
/* Every pair of distinct simulated devices can reach each other's memory,
 * with atomics (one process's memory); there are no CUDA arrays, and every
 * link ranks the same (0). A device paired with itself is refused, as CUDA
 * refuses it. */
static inline cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr,
                                                    int srcDevice, int dstDevice)
{
    int can = 0;
    cudaError_t e;
    if (!value)
        return cudaDeviceCanAccessPeer(NULL, srcDevice, dstDevice); /* records InvalidValue */
    if (srcDevice == dstDevice) {
        e = cudaDeviceCanAccessPeer(&can, srcDevice, dstDevice);
        return e != cudaSuccess ? e : cudaErrorInvalidDevice;
    }
    e = cudaDeviceCanAccessPeer(&can, srcDevice, dstDevice);
    if (e != cudaSuccess)
        return e;
    switch (attr) {
    case cudaDevP2PAttrPerformanceRank:
        *value = 0;
        return cudaSuccess;
    case cudaDevP2PAttrAccessSupported:
    case cudaDevP2PAttrNativeAtomicSupported:
        *value = can;
        return cudaSuccess;
    case cudaDevP2PAttrCudaArrayAccessSupported:
        *value = 0;
        return cudaSuccess;
    default:
        return cudaDeviceCanAccessPeer(NULL, srcDevice, dstDevice); /* InvalidValue */
    }
}

/* Memory */
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags GPULAB_SIM_DV(0));
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                              unsigned int flags GPULAB_SIM_DV(cudaMemAttachGlobal));
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
/* The simulator's own: where the next device allocation of this host thread
 * is made (file, line and function of the cudaMalloc call), for check mode's
 * leak reports. cuda_runtime.h's cudaMalloc, cudaMallocManaged and
 * cudaMallocPitch macros pass it; a program never calls it itself. */
void gpulab_sim_alloc_site(const char *file, int line, const char *function);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream GPULAB_SIM_DV(0));
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream GPULAB_SIM_DV(0));
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t stream GPULAB_SIM_DV(0));
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream GPULAB_SIM_DV(0));
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                 cudaStream_t stream GPULAB_SIM_DV(0));
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);

/* Symbols (__constant__ and __device__ variables): in C++ the reference
 * overloads of cuda_runtime.h are used; these take the symbol's address. */
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind);
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* Streams */
cudaError_t cudaStreamCreate(cudaStream_t *pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags GPULAB_SIM_DV(0));
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);

/* Events */
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream GPULAB_SIM_DV(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* Kernels: attributes and occupancy (func is the kernel's address). */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize);

/* Accepted and without effect on the simulator (no caches, one queue per
 * device): the cache preferences, attaching managed memory to a stream. */
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
                                     size_t length GPULAB_SIM_DV(0),
                                     unsigned int flags GPULAB_SIM_DV(cudaMemAttachSingle));
cudaError_t cudaCtxResetPersistingL2Cache(void);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);

/* A launch by the kernel's address: every non-template kernel of a file the
 * simulator rewrote is known by it (C++ also has the typed forms). */
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream);

/* Stream-ordered allocation (runtime/mempool.cpp): memory from a pool,
 * usable in stream order from the allocation on, freed when the stream
 * reaches the free. */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                 size_t count);
cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location);

/* CUDA graphs (runtime/graph.cpp): stream capture and explicit nodes; a
 * graph runs on the stream it is launched on, its nodes one after another in
 * an order their dependencies allow. */
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                          const cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData,
                                          size_t numDependencies, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                  enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out GPULAB_SIM_DV(0),
                                     cudaGraph_t *graph_out GPULAB_SIM_DV(0),
                                     const cudaGraphNode_t **dependencies_out GPULAB_SIM_DV(0),
                                     const cudaGraphEdgeData **edgeData_out GPULAB_SIM_DV(0),
                                     size_t *numDependencies_out GPULAB_SIM_DV(0));
cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, size_t numDependencies);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         size_t *pNumDependencies);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                         struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, cudaEvent_t event);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                      cudaEvent_t event);
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                    void *dptr);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags);
#ifndef __cplusplus
/* C++ has both of CUDA's forms (cuda_runtime.h); C has CUDA 12's. */
#define cudaGraphInstantiate(e, g, f) cudaGraphInstantiateWithFlags((e), (g), (f))
#endif
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream);

/* Textures (runtime/texture.cpp): CUDA arrays, channel descriptions and
 * texture objects; kernels read them with tex1Dfetch, tex1D, tex2D and tex3D
 * (gpulab_sim/texture.hpp). */
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f);
cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height GPULAB_SIM_DV(0),
                            unsigned int flags GPULAB_SIM_DV(0));
cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags GPULAB_SIM_DV(0));
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                             unsigned int *flags, cudaArray_t array);
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject);

static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
    struct cudaPos p;
    p.x = x;
    p.y = y;
    p.z = z;
    return p;
}
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
    struct cudaExtent e;
    e.width = w;
    e.height = h;
    e.depth = d;
    return e;
}
static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{
    struct cudaPitchedPtr s;
    s.ptr = d;
    s.pitch = p;
    s.xsize = xsz;
    s.ysize = ysz;
    return s;
}

/* Not simulated: they link, say so once on stderr and return
 * cudaErrorNotSupported. */
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, enum cudaStreamAttrID attr,
                                   const union cudaStreamAttrValue *value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, enum cudaStreamAttrID attr,
                                   union cudaStreamAttrValue *value);
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          int device);
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
cudaError_t cudaIpcCloseMemHandle(void *devPtr);
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);
/* Profiler markers: accepted, no effect. */
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* GPULAB_SIM_CUDA_RUNTIME_API_H */
