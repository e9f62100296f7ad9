// capture.cpp — stream capture (docs/simulator.md): while a stream is
// captured, the work queued on it (enqueue in stream.cpp) and the kernels
// launched on it (submit in launch.cpp) become nodes of its graph, each after
// the one before; another stream joins the capture by waiting on an event
// recorded in it.
#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>

#include "graph.hpp"
#include "trace.hpp"

using namespace gpulab_sim::graphs;
using gpulab_sim::record;

namespace
{
std::atomic<unsigned long long> next_capture_id{ 1 };
}

cudaError_t gpulab_sim::graph_capture_launch(cudaGraph_t g, const char *what,
                                             std::function<cudaError_t(cudaStream_t)> launch)
{
    if (!valid_graph(g))
        return cudaErrorStreamCaptureInvalidated;
    auto n = std::make_unique<CUgraphNode_st>();
    n->what = what;
    n->captured = std::move(launch);
    n->deps = g->capture_tail;
    g->capture_tail.assign(1, n.get());
    g->nodes.push_back(std::move(n));
    return cudaSuccess;
}

cudaError_t gpulab_sim::graph_capture(cudaGraph_t g, const char *what,
                                      std::function<cudaError_t()> fn)
{
    return graph_capture_launch(
        g, what, [what, fn](cudaStream_t s) { return gpulab_sim::enqueue(s, what, fn); });
}

extern "C" {

// ---------------------------------------------------------------------------
// Stream capture

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                          const cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData,
                                          size_t numDependencies, enum cudaStreamCaptureMode mode)
{
    gpulab_sim::trace_api api_call_("cudaStreamBeginCaptureToGraph");
    (void)dependencyData;
    (void)mode; // every mode captures the same work; the checks between threads are not made
    if (!valid_graph(graph) || (numDependencies && !dependencies))
        return record(cudaErrorInvalidValue);
    if (gpulab_sim::stream_capture(stream))
        return record(cudaErrorIllegalState);
    cudaError_t e = gpulab_sim::stream_capture_set(stream, graph);
    if (e != cudaSuccess)
        return record(e);
    graph->capture_tail.assign(dependencies, dependencies + numDependencies);
    graph->capture_id = next_capture_id++;
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    gpulab_sim::trace_api api_call_("cudaStreamBeginCapture");
    if (stream == nullptr || stream == cudaStreamLegacy)
        return record(cudaErrorStreamCaptureUnsupported);
    if (gpulab_sim::stream_capture(stream))
        return record(cudaErrorIllegalState);
    cudaGraph_t g = new_graph();
    cudaError_t e = cudaStreamBeginCaptureToGraph(stream, g, nullptr, nullptr, 0, mode);
    if (e != cudaSuccess)
        cudaGraphDestroy(g);
    return e;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    gpulab_sim::trace_api api_call_("cudaStreamEndCapture");
    if (!pGraph)
        return record(cudaErrorInvalidValue);
    cudaGraph_t g = gpulab_sim::stream_capture(stream);
    if (!g)
        return record(cudaErrorIllegalState);
    gpulab_sim::stream_capture_end(g);
    g->capture_tail.clear();
    *pGraph = g;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status)
{
    int d;
    if (!status)
        return record(cudaErrorInvalidValue);
    if (!gpulab_sim::stream_device(stream, &d))
        return record(cudaErrorInvalidResourceHandle);
    *status = gpulab_sim::stream_capture(stream) ? cudaStreamCaptureStatusActive
                                                 : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out,
                                     const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out)
{
    cudaError_t e = cudaStreamIsCapturing(stream, captureStatus_out);
    if (e != cudaSuccess)
        return e;
    cudaGraph_t g = gpulab_sim::stream_capture(stream);
    if (id_out && g)
        *id_out = g->capture_id;
    if (graph_out)
        *graph_out = g;
    if (dependencies_out)
        *dependencies_out = g && !g->capture_tail.empty() ? g->capture_tail.data() : nullptr;
    if (edgeData_out)
        *edgeData_out = nullptr;
    if (numDependencies_out)
        *numDependencies_out = g ? g->capture_tail.size() : 0;
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    if (!mode)
        return record(cudaErrorInvalidValue);
    static thread_local cudaStreamCaptureMode current = cudaStreamCaptureModeGlobal;
    std::swap(current, *mode);
    return cudaSuccess;
}

} // extern "C"
